import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMPRESSION_TYPES } from '../batch-attributes';
import { compressBytes, compressionCodec, decompressBytes } from './registry';

describe('compression registry', () => {
  it('has a codec for every Kafka compression type', () => {
    for (const type of COMPRESSION_TYPES) expect(compressionCodec(type).type).toBe(type);
  });

  it('round-trips through every codec', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...COMPRESSION_TYPES),
        fc.uint8Array({ maxLength: 2000 }),
        (type, bytes) => {
          const result = decompressBytes(type, compressBytes(type, bytes));
          if (!result.ok) throw result.error;
          expect(result.value).toEqual(Buffer.from(bytes));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('turns every failure into decompression-failed at the given offset, never an exception', () => {
    const result = decompressBytes('zstd', Buffer.from('garbage'), undefined, 61);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.kind).toBe('decompression-failed');
      expect(result.error.offset).toBe(61);
      expect(result.error.message).toMatch(/^zstd: /);
    }
  });

  it('never throws on random or mutated input, for any codec', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...COMPRESSION_TYPES),
        fc.uint8Array({ maxLength: 400 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { maxLength: 4 }),
        fc.boolean(),
        (type, bytes, flips, startFromValid) => {
          const input = Buffer.from(startFromValid ? compressBytes(type, bytes) : bytes);
          for (const [position, mask] of flips) {
            if (input.length > 0) input[position % input.length]! ^= mask;
          }
          const result = decompressBytes(type, input, 1024 * 1024);
          expect(typeof result.ok).toBe('boolean');
          if (!result.ok) expect(result.error.kind).toBe('decompression-failed');
        },
      ),
      { numRuns: 3000 },
    );
  });
});
