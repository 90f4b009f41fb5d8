import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Writer } from '../codec/writer';
import { writeZigzagVarint, zigzagVarintSizeBytes } from './zigzag-varint';

/** The exact BigInt varlong encoding from the general Writer, as the reference. */
function referenceVarlong(value: number): Buffer {
  return Buffer.from(new Writer().varlong(BigInt(value)).finish());
}

function encode(value: number): Buffer {
  const buffer = Buffer.alloc(10);
  const end = writeZigzagVarint(buffer, 0, value);
  expect(end).toBe(zigzagVarintSizeBytes(value));
  return buffer.subarray(0, end);
}

describe('zigzag varint helpers', () => {
  it('encode the boundary values exactly', () => {
    for (const value of [
      0,
      -1,
      1,
      63,
      -64,
      64,
      2 ** 31 - 1,
      -(2 ** 31),
      2 ** 48,
      -(2 ** 48) - 1,
      2 ** 52 - 1,
      2 ** 52,
      -(2 ** 52) - 1,
      Number.MAX_SAFE_INTEGER,
      Number.MIN_SAFE_INTEGER,
    ]) {
      expect(encode(value).toString('hex')).toBe(referenceVarlong(value).toString('hex'));
    }
  });

  it('agree with the BigInt reference for every safe integer', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
          fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
        ),
        (value) => {
          expect(encode(value).toString('hex')).toBe(referenceVarlong(value).toString('hex'));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
