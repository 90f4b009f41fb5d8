import zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32c } from './crc32c';

describe('crc32c', () => {
  it('matches the CRC-32C check value for "123456789"', () => {
    expect(crc32c(Buffer.from('123456789', 'ascii'))).toBe(0xe3069283);
  });

  it('matches other published CRC-32C vectors (RFC 3720 appendix B.4)', () => {
    expect(crc32c(Buffer.alloc(32, 0x00))).toBe(0x8a9136aa);
    expect(crc32c(Buffer.alloc(32, 0xff))).toBe(0x62a8ab43);
    expect(crc32c(Buffer.from(Array.from({ length: 32 }, (_, index) => index)))).toBe(0x46dd794e);
    expect(crc32c(new Uint8Array(0))).toBe(0);
  });

  it('is not the IEEE CRC-32 that zlib computes', () => {
    const input = Buffer.from('123456789', 'ascii');
    const ieee = (zlib as unknown as { crc32?: (data: Uint8Array) => number }).crc32;
    expect(crc32c(input)).not.toBe(0xcbf43926);
    if (ieee) expect(crc32c(input)).not.toBe(ieee(input));
  });

  it('continues from a previous value, so pieces give the same result as the whole', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(200), (bytes, cutAt) => {
        const cut = Math.min(cutAt, bytes.length);
        const whole = crc32c(bytes);
        expect(crc32c(bytes.subarray(cut), crc32c(bytes.subarray(0, cut)))).toBe(whole);
        expect(whole).toBeGreaterThanOrEqual(0);
        expect(whole).toBeLessThanOrEqual(0xffffffff);
      }),
    );
  });
});
