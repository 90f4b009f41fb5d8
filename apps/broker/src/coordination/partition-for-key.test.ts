import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { javaStringHashCode, partitionForKey } from './partition-for-key';

describe('partitionForKey', () => {
  it("matches Java's String.hashCode", () => {
    expect(javaStringHashCode('')).toBe(0);
    expect(javaStringHashCode('hello')).toBe(99_162_322);
    expect(javaStringHashCode('test')).toBe(3_556_498);
    // Overflows to Integer.MIN_VALUE, whose Math.abs stays negative: Kafka's Utils.abs maps it to 0.
    expect(javaStringHashCode('polygenelubricants')).toBe(-2_147_483_648);
    expect(partitionForKey('polygenelubricants', 50)).toBe(0);
    expect(partitionForKey('test', 50)).toBe(3_556_498 % 50);
    // Non-BMP characters hash as two UTF-16 code units, as in Java.
    expect(javaStringHashCode('😀')).toBe((0xd83d * 31 + 0xde00) | 0);
  });

  it('always lands inside the partition range', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 1000 }), (key, partitions) => {
        const partition = partitionForKey(key, partitions);
        expect(partition).toBeGreaterThanOrEqual(0);
        expect(partition).toBeLessThan(partitions);
      }),
    );
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses %s partitions', (partitionCount) => {
    expect(() => partitionForKey('g', partitionCount)).toThrow(RangeError);
  });
});
