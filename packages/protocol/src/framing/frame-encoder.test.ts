import { describe, expect, it } from 'vitest';
import { encodeFrame, frameParts, frameSizePrefix } from './frame-encoder';

describe('frame encoding', () => {
  it('prefixes one payload with its int32 size', () => {
    expect(encodeFrame(Buffer.from('abc')).toString('hex')).toBe('00000003616263');
    expect(encodeFrame(new Uint8Array(0)).toString('hex')).toBe('00000000');
  });

  it('frames a list of buffers as their concatenation', () => {
    const frame = encodeFrame([Buffer.from('ab'), new Uint8Array(0), Uint8Array.of(0x63)]);
    expect(frame.toString('hex')).toBe('00000003616263');
  });

  it('returns the prefix and the original parts without copying them', () => {
    const first = Buffer.from('hello');
    const second = Uint8Array.of(1, 2, 3);
    const parts = frameParts([first, second]);
    expect(parts).toHaveLength(3);
    expect(Buffer.from(parts[0]!).toString('hex')).toBe('00000008');
    expect(parts[1]).toBe(first);
    expect(parts[2]).toBe(second);
  });

  it('writes big-endian sizes and rejects sizes an int32 cannot hold', () => {
    expect(frameSizePrefix(0x01020304).toString('hex')).toBe('01020304');
    expect(frameSizePrefix(0x7fffffff).toString('hex')).toBe('7fffffff');
    expect(() => frameSizePrefix(-1)).toThrow(RangeError);
    expect(() => frameSizePrefix(2 ** 31)).toThrow(RangeError);
    expect(() => frameSizePrefix(1.5)).toThrow(RangeError);
  });
});
