import { xxh32 } from '@node-rs/xxhash';
import { compressFrameSync, decompressFrameSync } from 'lz4-napi';
import { asBuffer } from '../buffer-view';
import { type CompressionCodec, checkOutputSize } from './compression-codec';

/**
 * LZ4 (id 3) in the LZ4 *frame* format (magic 0x184D2204), which is what Kafka clients write for
 * magic-2 batches.
 *
 * History: Kafka's first LZ4 writer computed the frame descriptor's header checksum over the magic
 * bytes too (KAFKA-3160). Since message format v1 (Kafka 0.10) clients write the standard checksum,
 * and RecordBatch v2 never carries the broken one, so frames with a wrong header checksum are
 * rejected here, as the Java client rejects them for v1+.
 *
 * We write frames with independent blocks and no content checksum, as the Java client does. On
 * decode, lz4-napi (lz4_flex) verifies the header checksum and any block or content checksums, but
 * it treats the end of input at a block boundary as the end of the frame, so a frame cut short
 * would decode to partial data without an error. {@link checkFrameStructure} walks the frame first
 * and refuses anything that does not end with a complete end mark.
 */

const FRAME_MAGIC = 0x184d2204;
const FLG_VERSION_MASK = 0xc0;
const FLG_VERSION_01 = 0x40;
const FLG_RESERVED_MASK = 0x02;
const FLG_BLOCK_CHECKSUM = 0x10;
const FLG_CONTENT_SIZE = 0x08;
const FLG_CONTENT_CHECKSUM = 0x04;
const FLG_DICTIONARY_ID = 0x01;
const BD_RESERVED_MASK = 0x8f;
const BLOCK_UNCOMPRESSED_FLAG = 0x80000000;

/** Block maximum sizes by the BD byte's 3-bit index; indexes 0–3 are reserved. */
const BLOCK_MAX_SIZE_BYTES: readonly number[] = [
  0,
  0,
  0,
  0,
  64 * 1024,
  256 * 1024,
  1024 * 1024,
  4 * 1024 * 1024,
];

/**
 * Checks that `frame` is exactly one complete LZ4 frame: a valid descriptor, blocks whose sizes fit
 * the buffer and the block maximum, an end mark, and the content checksum when the flags announce
 * one. Throws on anything else.
 */
export function checkFrameStructure(frame: Buffer): void {
  if (frame.length < 7) throw new Error('lz4 frame shorter than its header');
  if (frame.readUInt32LE(0) !== FRAME_MAGIC) throw new Error('not an lz4 frame (bad magic)');
  const flags = frame[4]!;
  const descriptor = frame[5]!;
  if ((flags & FLG_VERSION_MASK) !== FLG_VERSION_01) throw new Error('unsupported lz4 frame version');
  if ((flags & FLG_RESERVED_MASK) !== 0 || (descriptor & BD_RESERVED_MASK) !== 0) {
    throw new Error('lz4 frame reserved bits set');
  }
  const blockMaxSizeBytes = BLOCK_MAX_SIZE_BYTES[(descriptor >> 4) & 0x07]!;
  if (blockMaxSizeBytes === 0) throw new Error('lz4 frame block size index is reserved');
  let at = headerChecksumPosition(frame) + 1;
  const blockChecksumBytes = (flags & FLG_BLOCK_CHECKSUM) !== 0 ? 4 : 0;
  for (;;) {
    if (frame.length - at < 4) throw new Error('lz4 frame ends before its end mark');
    const blockWord = frame.readUInt32LE(at);
    at += 4;
    if (blockWord === 0) break;
    const blockSizeBytes = (blockWord & ~BLOCK_UNCOMPRESSED_FLAG) >>> 0;
    if (blockSizeBytes > blockMaxSizeBytes) throw new Error(`lz4 block of ${blockSizeBytes} bytes`);
    at += blockSizeBytes + blockChecksumBytes;
    if (at > frame.length) throw new Error('lz4 block runs past the end of the frame');
  }
  if ((flags & FLG_CONTENT_CHECKSUM) !== 0) at += 4;
  if (at !== frame.length) {
    throw new Error(at > frame.length ? 'lz4 content checksum truncated' : 'bytes after the lz4 frame');
  }
}

/**
 * Where the frame descriptor's header checksum byte is: after the magic, FLG and BD, and the
 * optional content size and dictionary id. The frame must be at least 7 bytes long.
 */
export function headerChecksumPosition(frame: Buffer): number {
  const flags = frame[4]!;
  return 6 + ((flags & FLG_CONTENT_SIZE) !== 0 ? 8 : 0) + ((flags & FLG_DICTIONARY_ID) !== 0 ? 4 : 0);
}

/**
 * A copy of `frame` with its header checksum computed the standard way (xxHash32 of the descriptor,
 * second byte) or the way Kafka 0.8's writer did and magic 0 messages still carry (KAFKA-3160:
 * the hash also covered the 4 magic bytes). Magic 0 LZ4 is read and written through this.
 */
export function withHeaderChecksum(frame: Buffer, kind: 'standard' | 'kafka-0.8'): Buffer {
  if (frame.length < 7 || frame.readUInt32LE(0) !== FRAME_MAGIC)
    throw new Error('not an lz4 frame (bad magic)');
  const at = headerChecksumPosition(frame);
  if (at >= frame.length) throw new Error('lz4 frame shorter than its header');
  const copy = Buffer.from(frame);
  copy[at] = (xxh32(copy.subarray(kind === 'standard' ? 4 : 0, at), 0) >>> 8) & 0xff;
  return copy;
}

export const lz4Codec: CompressionCodec = {
  type: 'lz4',
  compress: (input) => compressFrameSync(asBuffer(input)),
  decompress: (input, maxOutputBytes) => {
    const frame = asBuffer(input);
    checkFrameStructure(frame);
    // lz4_flex grows its output block by block and does not trust the announced content size, so
    // the size can only be checked afterwards; LZ4's format caps the ratio at about 255:1.
    const output = decompressFrameSync(frame);
    checkOutputSize(output.length, maxOutputBytes);
    return output;
  },
};
