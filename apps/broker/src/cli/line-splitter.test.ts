import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter';

function split(chunks: (string | Buffer)[]): string[] {
  const splitter = new LineSplitter();
  const lines = chunks.flatMap((chunk) => splitter.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)));
  return [...lines, ...splitter.end()].map((line) => line.toString('latin1'));
}

describe('LineSplitter', () => {
  it('splits on newlines, keeping empty lines, with or without a final newline', () => {
    expect(split(['a\nb\n\nc\n'])).toEqual(['a', 'b', '', 'c']);
    expect(split(['a\nb'])).toEqual(['a', 'b']);
    expect(split([''])).toEqual([]);
  });

  it('joins lines that span chunks', () => {
    expect(split(['ab', 'c\nd', 'e', '', 'f\n'])).toEqual(['abc', 'def']);
  });

  it('drops the \\r of CRLF line ends, and only that', () => {
    expect(split(['a\r\nb\r', '\nc\rd\n'])).toEqual(['a', 'b', 'c\rd']);
  });

  it('keeps bytes that are not UTF-8 as they are', () => {
    const splitter = new LineSplitter();
    const [line] = splitter.push(Buffer.from([0xff, 0x00, 0xfe, 0x0a]));
    expect(line).toEqual(Buffer.from([0xff, 0x00, 0xfe]));
  });
});
