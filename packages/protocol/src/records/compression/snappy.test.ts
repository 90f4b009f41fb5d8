import fc from 'fast-check';
import { compressSync } from 'snappy';
import { describe, expect, it } from 'vitest';
import { requireUntyped } from '../../../test/records/kafkajs-internals';
import { snappyCodec } from './snappy';

/** snappyjs is a pure-JavaScript implementation (kafkajs-snappy's), independent of ours. */
const snappyjs = requireUntyped<{ compress(input: Buffer): Buffer; uncompress(input: Buffer): Buffer }>(
  'snappyjs',
);

const XERIAL_HEADER_HEX = '82534e415050590000000001' + '00000001';
const LIMIT = 16 * 1024 * 1024;

/** Wraps raw blocks in xerial framing by hand. */
function xerial(blocks: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from(XERIAL_HEADER_HEX, 'hex')];
  for (const block of blocks) {
    const length = Buffer.alloc(4);
    length.writeInt32BE(block.length);
    parts.push(length, block);
  }
  return Buffer.concat(parts);
}

describe('snappy codec', () => {
  it('writes the xerial framing the Java client writes: magic, version 1, compatible 1, sized blocks', () => {
    const input = Buffer.alloc(1000, 0x61);
    const output = snappyCodec.compress(input);
    expect(output.subarray(0, 16).toString('hex')).toBe(XERIAL_HEADER_HEX);
    const blockLength = output.readInt32BE(16);
    expect(output.length).toBe(20 + blockLength);
    expect(snappyjs.uncompress(output.subarray(20))).toEqual(input);
  });

  it('splits input into 32 KiB blocks', () => {
    const input = Buffer.from(Array.from({ length: 80 * 1024 }, (_, index) => (index * 7) % 251));
    const output = snappyCodec.compress(input);
    const blocks: Buffer[] = [];
    for (let at = 16; at < output.length; ) {
      const length = output.readInt32BE(at);
      blocks.push(snappyjs.uncompress(output.subarray(at + 4, at + 4 + length)));
      at += 4 + length;
    }
    expect(blocks.map((block) => block.length)).toEqual([32 * 1024, 32 * 1024, 16 * 1024]);
    expect(Buffer.concat(blocks)).toEqual(input);
  });

  it('round-trips random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70_000 }), (bytes) => {
        expect(snappyCodec.decompress(snappyCodec.compress(bytes), LIMIT)).toEqual(Buffer.from(bytes));
      }),
      { numRuns: 40 },
    );
  });

  it('decodes raw (unframed) snappy, as kafkajs-snappy writes it, from two implementations', () => {
    const input = Buffer.from('kafkajs-snappy writes raw blocks '.repeat(20));
    expect(snappyCodec.decompress(snappyjs.compress(input), LIMIT)).toEqual(input);
    expect(snappyCodec.decompress(compressSync(input), LIMIT)).toEqual(input);
  });

  it('decodes hand-framed xerial data with several blocks and with none', () => {
    const parts = [Buffer.from('first block '), Buffer.from('second block')];
    expect(
      snappyCodec.decompress(xerial(parts.map((part) => snappyjs.compress(part))), LIMIT).toString(),
    ).toBe('first block second block');
    expect(snappyCodec.decompress(xerial([]), LIMIT)).toHaveLength(0);
  });

  it('refuses truncated framing and lying block lengths', () => {
    const framed = snappyCodec.compress(Buffer.alloc(5000, 0x62));
    for (let cut = 17; cut < framed.length; cut++) {
      expect(() => snappyCodec.decompress(framed.subarray(0, cut), LIMIT), `cut ${cut}`).toThrow();
    }
    const lying = Buffer.from(framed);
    lying.writeInt32BE(1_000_000, 16);
    expect(() => snappyCodec.decompress(lying, LIMIT)).toThrow(/block length/);
  });

  it('refuses a block whose announced size passes the limit before decompressing it', () => {
    // A raw block announcing 256 MiB (varint 80 80 80 80 01) followed by nothing useful.
    const bomb = Buffer.from('808080800100', 'hex');
    expect(() => snappyCodec.decompress(bomb, LIMIT)).toThrow(/exceeds the limit/);
    expect(() => snappyCodec.decompress(xerial([bomb]), LIMIT)).toThrow(/exceeds the limit/);
  });
});
