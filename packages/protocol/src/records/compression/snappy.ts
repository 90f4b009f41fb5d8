import { compressSync, uncompressSync } from 'snappy';
import { asBuffer } from '../buffer-view';
import { type CompressionCodec, checkOutputSize } from './compression-codec';

/**
 * Snappy (id 2).
 *
 * Kafka's Java client writes snappy through snappy-java's `SnappyOutputStream`, the "xerial"
 * framing: an 8-byte magic (0x82 'SNAPPY' 0x00), an int32 version and an int32 minimum
 * compatible version (both 1, big-endian), then blocks of [int32 big-endian compressed length,
 * raw snappy block], each block holding up to 32 KiB of input. We write the same framing, so Java
 * consumers and brokers read our batches exactly as they read the Java producer's.
 *
 * On decode we accept both the xerial framing and a bare raw snappy block, because kafkajs-snappy
 * writes raw blocks and librdkafka, snappy-java and kafkajs-snappy all accept either. The two are
 * told apart by the magic. A valid raw block cannot begin with it: after a length varint of
 * 0x82 0x53, the byte 'N' (0x4e) would be a copy element, and a block cannot start with a copy
 * because nothing has been written yet to copy from.
 */

const XERIAL_MAGIC = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00]);
const XERIAL_VERSION = 1;
const XERIAL_MIN_COMPATIBLE_VERSION = 1;
const XERIAL_HEADER_BYTES = 16;
const XERIAL_BLOCK_INPUT_BYTES = 32 * 1024;

function compressXerial(input: Uint8Array): Buffer {
  const view = asBuffer(input);
  const blocks: Buffer[] = [];
  let totalBytes = XERIAL_HEADER_BYTES;
  for (let start = 0; start < view.length; start += XERIAL_BLOCK_INPUT_BYTES) {
    const block = compressSync(view.subarray(start, start + XERIAL_BLOCK_INPUT_BYTES));
    blocks.push(block);
    totalBytes += 4 + block.length;
  }
  const output = Buffer.allocUnsafe(totalBytes);
  XERIAL_MAGIC.copy(output, 0);
  output.writeInt32BE(XERIAL_VERSION, 8);
  output.writeInt32BE(XERIAL_MIN_COMPATIBLE_VERSION, 12);
  let at = XERIAL_HEADER_BYTES;
  for (const block of blocks) {
    output.writeInt32BE(block.length, at);
    block.copy(output, at + 4);
    at += 4 + block.length;
  }
  return output;
}

/**
 * The uncompressed length a raw snappy block announces in its leading varint. Read before
 * decompressing so a lying length cannot make the native code allocate it.
 */
function rawUncompressedLength(block: Buffer): number {
  let length = 0;
  let multiplier = 1;
  for (let index = 0; index < 5 && index < block.length; index++) {
    const byte = block[index]!;
    length += (byte & 0x7f) * multiplier;
    if ((byte & 0x80) === 0) return length;
    multiplier *= 128;
  }
  throw new Error('snappy block length varint is truncated or too long');
}

function uncompressRaw(block: Buffer, maxOutputBytes: number): Buffer {
  checkOutputSize(rawUncompressedLength(block), maxOutputBytes);
  return uncompressSync(block, { asBuffer: true }) as Buffer;
}

function isXerialFramed(input: Buffer): boolean {
  return input.length >= XERIAL_HEADER_BYTES && input.compare(XERIAL_MAGIC, 0, 8, 0, 8) === 0;
}

function uncompressXerial(input: Buffer, maxOutputBytes: number): Buffer {
  const blocks: Buffer[] = [];
  let totalBytes = 0;
  let at = XERIAL_HEADER_BYTES;
  while (at < input.length) {
    if (input.length - at < 4) throw new Error(`xerial block length truncated at byte ${at}`);
    const blockLength = input.readInt32BE(at);
    at += 4;
    if (blockLength < 0 || blockLength > input.length - at) {
      throw new Error(`xerial block length ${blockLength} with ${input.length - at} bytes left`);
    }
    const block = uncompressRaw(input.subarray(at, at + blockLength), maxOutputBytes - totalBytes);
    blocks.push(block);
    totalBytes += block.length;
    at += blockLength;
  }
  return blocks.length === 1 ? blocks[0]! : Buffer.concat(blocks, totalBytes);
}

export const snappyCodec: CompressionCodec = {
  type: 'snappy',
  compress: compressXerial,
  decompress: (input, maxOutputBytes) => {
    const view = asBuffer(input);
    return isXerialFramed(view)
      ? uncompressXerial(view, maxOutputBytes)
      : uncompressRaw(view, maxOutputBytes);
  },
};
