import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gzipCodec } from './gzip';

const LIMIT = 16 * 1024 * 1024;

describe('gzip codec', () => {
  it('writes a gzip stream (magic 1f 8b) and round-trips random bytes', () => {
    expect(gzipCodec.compress(Buffer.from('x')).subarray(0, 2).toString('hex')).toBe('1f8b');
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), (bytes) => {
        expect(gzipCodec.decompress(gzipCodec.compress(bytes), LIMIT)).toEqual(Buffer.from(bytes));
      }),
      { numRuns: 50 },
    );
  });

  it('also accepts a bare zlib stream, as librdkafka does', () => {
    expect(gzipCodec.decompress(deflateSync(Buffer.from('zlib framing')), LIMIT).toString()).toBe(
      'zlib framing',
    );
  });

  it('refuses truncated input and output beyond the limit', () => {
    const compressed = gzipCodec.compress(Buffer.alloc(10_000, 0x41));
    expect(() => gzipCodec.decompress(compressed.subarray(0, compressed.length - 4), LIMIT)).toThrow();
    expect(() => gzipCodec.decompress(compressed, 9_999)).toThrow();
    expect(gzipCodec.decompress(compressed, 10_000)).toHaveLength(10_000);
  });
});
