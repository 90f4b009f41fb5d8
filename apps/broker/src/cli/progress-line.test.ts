import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ProgressLine } from './progress-line';

describe('ProgressLine', () => {
  it('redraws in place at most every 100 ms, and erases itself', () => {
    let text = '';
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    let nowMs = 0;
    const progress = new ProgressLine(out, 4 * 1024 * 1024, () => nowMs);
    progress.update(1024 * 1024, 10);
    nowMs = 50;
    progress.update(2 * 1024 * 1024, 20);
    nowMs = 100;
    progress.update(3 * 1024 * 1024, 30);
    progress.clear();
    expect(text.split('\r\u001b[2K')).toEqual([
      '',
      '1.0 MiB of 4.0 MiB (25%), 10 records stored',
      '3.0 MiB of 4.0 MiB (75%), 30 records stored',
      '',
    ]);
  });
});
