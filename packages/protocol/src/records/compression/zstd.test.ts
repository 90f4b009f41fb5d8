import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Compressor } from 'zstd-napi';
import { zstdCodec } from './zstd';

const LIMIT = 16 * 1024 * 1024;
const sampleInput = Buffer.from('zstd frames for kafka '.repeat(500));

describe('zstd codec', () => {
  it('writes a zstd frame and round-trips random bytes', () => {
    expect(zstdCodec.compress(sampleInput).readUInt32LE(0)).toBe(0xfd2fb528);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70_000 }), (bytes) => {
        expect(zstdCodec.decompress(zstdCodec.compress(bytes), LIMIT)).toEqual(Buffer.from(bytes));
      }),
      { numRuns: 40 },
    );
  });

  it('decodes frames without a content size (as streaming writers produce) and concatenated frames', () => {
    const streaming = new Compressor();
    streaming.setParameters({ contentSizeFlag: false });
    const large = Buffer.from(Array.from({ length: 500_000 }, (_, index) => (index * 31) % 253));
    // Buffer#equals: a deep toEqual over half a megabyte is needlessly slow.
    expect(zstdCodec.decompress(streaming.compress(large), LIMIT).equals(large)).toBe(true);
    const twoFrames = Buffer.concat([
      zstdCodec.compress(Buffer.from('one ')),
      zstdCodec.compress(Buffer.from('two')),
    ]);
    expect(zstdCodec.decompress(twoFrames, LIMIT).toString()).toBe('one two');
  });

  it('refuses a frame cut at any point, empty input and trailing garbage', () => {
    const frame = zstdCodec.compress(sampleInput);
    for (let cut = 0; cut < frame.length; cut++) {
      expect(() => zstdCodec.decompress(frame.subarray(0, cut), LIMIT), `cut ${cut}`).toThrow();
    }
    expect(() => zstdCodec.decompress(Buffer.concat([frame, Buffer.from('junk')]), LIMIT)).toThrow();
  });

  it('refuses output beyond the limit, announced or not', () => {
    const announced = zstdCodec.compress(Buffer.alloc(100_000));
    expect(() => zstdCodec.decompress(announced, 99_999)).toThrow(/exceeds the limit/);
    const streaming = new Compressor();
    streaming.setParameters({ contentSizeFlag: false });
    const unannounced = streaming.compress(Buffer.alloc(100_000));
    expect(() => zstdCodec.decompress(unannounced, 99_999)).toThrow(/exceeds the limit/);
    expect(zstdCodec.decompress(unannounced, 100_000)).toHaveLength(100_000);
  });
});
