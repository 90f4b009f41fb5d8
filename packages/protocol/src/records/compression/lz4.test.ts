import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requireUntyped } from '../../../test/records/kafkajs-internals';
import { checkFrameStructure, lz4Codec } from './lz4';

/** node-lz4 (kafkajs-lz4's library) is an independent implementation of the frame format. */
const nodeLz4 = requireUntyped<{
  encode(input: Buffer, options?: Record<string, unknown>): Buffer;
  decode(input: Buffer): Buffer;
}>('lz4');
const xxhash = requireUntyped<{ h32(input: Buffer, seed: number): { toNumber(): number } }>('xxhashjs');

const LIMIT = 16 * 1024 * 1024;
const sampleInput = Buffer.from('lz4 frames for kafka '.repeat(200));

describe('lz4 codec', () => {
  it('writes a standard LZ4 frame: magic, version 01, independent blocks, no content checksum', () => {
    const frame = lz4Codec.compress(sampleInput);
    expect(frame.readUInt32LE(0)).toBe(0x184d2204);
    const flags = frame[4]!;
    expect(flags & 0xc0).toBe(0x40);
    expect(flags & 0x20).toBe(0x20);
    expect(flags & 0x04).toBe(0);
    // The header checksum is the standard one: xxh32 of the descriptor only (not the magic, KAFKA-3160).
    expect(frame[6]).toBe((xxhash.h32(frame.subarray(4, 6), 0).toNumber() >>> 8) & 0xff);
    expect(nodeLz4.decode(frame)).toEqual(sampleInput);
  });

  it('round-trips random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70_000 }), (bytes) => {
        expect(lz4Codec.decompress(lz4Codec.compress(bytes), LIMIT)).toEqual(Buffer.from(bytes));
      }),
      { numRuns: 40 },
    );
  });

  it('decodes frames from node-lz4 with and without a content checksum, and with 64 KiB blocks', () => {
    const large = Buffer.from(Array.from({ length: 200_000 }, (_, index) => (index * 13) % 97));
    // node-lz4's block checksums are computed over the wrong bytes, so that option is covered below.
    for (const options of [{}, { streamChecksum: false }, { blockMaxSize: 64 * 1024 }]) {
      expect(lz4Codec.decompress(nodeLz4.encode(large, options), LIMIT).equals(large)).toBe(true);
    }
  });

  it('decodes a frame with block checksums, and refuses one whose block checksum is wrong', () => {
    // Rebuild one of our frames with the block-checksum flag: xxh32 of each block's stored bytes.
    const frame = lz4Codec.compress(sampleInput);
    const descriptor = Buffer.from([frame[4]! | 0x10, frame[5]!]);
    const parts = [
      frame.subarray(0, 4),
      descriptor,
      Buffer.from([(xxhash.h32(descriptor, 0).toNumber() >>> 8) & 0xff]),
    ];
    let at = 7;
    for (;;) {
      const word = frame.readUInt32LE(at);
      if (word === 0) break;
      const block = frame.subarray(at, at + 4 + (word & 0x7fffffff));
      const checksum = Buffer.alloc(4);
      checksum.writeUInt32LE(xxhash.h32(block.subarray(4), 0).toNumber());
      parts.push(block, checksum);
      at += block.length;
    }
    parts.push(Buffer.alloc(4));
    const withBlockChecksums = Buffer.concat(parts);
    expect(lz4Codec.decompress(withBlockChecksums, LIMIT)).toEqual(sampleInput);
    withBlockChecksums[withBlockChecksums.length - 5]! ^= 0x01;
    expect(() => lz4Codec.decompress(withBlockChecksums, LIMIT)).toThrow();
  });

  it('refuses a frame cut at any point, although the underlying decoder would return partial data', () => {
    const frame = nodeLz4.encode(Buffer.from(Array.from({ length: 300_000 }, (_, index) => index % 256)), {
      blockMaxSize: 64 * 1024,
    });
    for (let cut = 0; cut < frame.length; cut += cut < 40 ? 1 : 997) {
      expect(() => lz4Codec.decompress(frame.subarray(0, cut), LIMIT), `cut ${cut}`).toThrow();
    }
    expect(() => lz4Codec.decompress(frame.subarray(0, frame.length - 1), LIMIT)).toThrow();
  });

  it('refuses the broken header checksum of pre-0.10 Kafka (computed over the magic too)', () => {
    const frame = Buffer.from(lz4Codec.compress(sampleInput));
    frame[6] = (xxhash.h32(frame.subarray(0, 6), 0).toNumber() >>> 8) & 0xff;
    expect(() => lz4Codec.decompress(frame, LIMIT)).toThrow();
  });

  it('refuses a wrong content checksum, bytes after the frame and a reserved block size', () => {
    const withChecksum = Buffer.from(nodeLz4.encode(sampleInput));
    withChecksum[withChecksum.length - 1]! ^= 0x01;
    expect(() => lz4Codec.decompress(withChecksum, LIMIT)).toThrow();
    const frame = lz4Codec.compress(sampleInput);
    expect(() => checkFrameStructure(Buffer.concat([frame, Buffer.from([0])]))).toThrow(
      /after the lz4 frame/,
    );
    const reserved = Buffer.from(frame);
    reserved[5] = 0x30;
    expect(() => checkFrameStructure(reserved)).toThrow(/reserved/);
  });

  it('refuses output beyond the limit', () => {
    expect(() => lz4Codec.decompress(lz4Codec.compress(Buffer.alloc(10_000)), 9_999)).toThrow(
      /exceeds the limit/,
    );
  });
});
