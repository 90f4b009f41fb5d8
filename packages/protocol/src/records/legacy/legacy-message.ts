import { crc32 } from '@node-rs/crc32';
import { DecodeError, type DecodeResult, tryDecode } from '../../codec/decode-error';
import { COMPRESSION_TYPES, type CompressionType, type TimestampType } from '../batch-attributes';
import { asBuffer } from '../buffer-view';

/**
 * Kafka's message formats before RecordBatch: magic 0 (Kafka 0.8–0.9) and magic 1 (0.10, KIP-31
 * and KIP-32 add the timestamp and relative offsets in compressed sets). Produce v0–v2 carry them
 * and Fetch v0–v3 must answer in them (docs/kafka-compat.md §6.6). A message set is a run of
 *
 *   offset int64 · message_size int32 · crc uint32 (IEEE CRC-32 of what follows) · magic int8 ·
 *   attributes int8 (bits 0–2 codec, bit 3 LogAppendTime in magic 1) · timestamp int64 (magic 1
 *   only) · key bytes · value bytes
 *
 * where a compressed message's value is a whole inner message set compressed with its codec.
 */

export type LegacyMagic = 0 | 1;

/** One message of a legacy message set. Key and value are views into the decoded buffer. */
export interface LegacyMessage {
  offset: bigint;
  magic: LegacyMagic;
  /** The codec of a wrapper message's value; `'none'` for a plain message. */
  compression: CompressionType;
  timestampType: TimestampType;
  /** -1 (no timestamp) in magic 0. */
  timestampMs: number;
  key: Buffer | null;
  value: Buffer | null;
}

/** What {@link writeLegacyMessage} writes. */
export interface LegacyMessageInput {
  offset: bigint;
  magic: LegacyMagic;
  compression?: CompressionType;
  timestampType?: TimestampType;
  timestampMs?: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
}

/** Offset and size: the prefix before each message, as before each batch. */
const LOG_OVERHEAD_BYTES = 12;
const CRC_BYTES = 4;
const LOG_APPEND_TIME_FLAG = 0x08;
const CODEC_MASK = 0x07;

/** The bytes a message occupies after its size field: crc, magic, attributes, timestamp, key and value. */
function messageBodyBytes(magic: LegacyMagic, keyBytes: number, valueBytes: number): number {
  return CRC_BYTES + 2 + (magic === 1 ? 8 : 0) + 4 + keyBytes + 4 + valueBytes;
}

/** The size of a message with its offset and size prefix. */
export function legacyMessageSizeBytes(message: Pick<LegacyMessageInput, 'magic' | 'key' | 'value'>): number {
  return (
    LOG_OVERHEAD_BYTES + messageBodyBytes(message.magic, message.key?.length ?? 0, message.value?.length ?? 0)
  );
}

/** Writes one message at `at` and returns the position after it. `target` must have room. */
export function writeLegacyMessage(target: Buffer, at: number, message: LegacyMessageInput): number {
  const keyBytes = message.key?.length ?? 0;
  const valueBytes = message.value?.length ?? 0;
  const bodyBytes = messageBodyBytes(message.magic, keyBytes, valueBytes);
  target.writeBigInt64BE(message.offset, at);
  target.writeInt32BE(bodyBytes, at + 8);
  const crcAt = at + LOG_OVERHEAD_BYTES;
  let position = crcAt + CRC_BYTES;
  target.writeInt8(message.magic, position++);
  let attributes = COMPRESSION_TYPES.indexOf(message.compression ?? 'none');
  if (message.magic === 1 && message.timestampType === 'log-append-time') attributes |= LOG_APPEND_TIME_FLAG;
  target.writeInt8(attributes, position++);
  if (message.magic === 1) {
    target.writeBigInt64BE(BigInt(message.timestampMs ?? -1), position);
    position += 8;
  }
  position = writeBytesField(target, position, message.key);
  position = writeBytesField(target, position, message.value);
  target.writeUInt32BE(crc32(target.subarray(crcAt + CRC_BYTES, position)), crcAt);
  return position;
}

function writeBytesField(target: Buffer, at: number, bytes: Uint8Array | null): number {
  if (bytes === null) {
    target.writeInt32BE(-1, at);
    return at + 4;
  }
  target.writeInt32BE(bytes.length, at);
  target.set(bytes, at + 4);
  return at + 4 + bytes.length;
}

/** Encodes messages as one message set. */
export function encodeLegacyMessageSet(messages: readonly LegacyMessageInput[]): Buffer {
  let sizeBytes = 0;
  for (const message of messages) sizeBytes += legacyMessageSizeBytes(message);
  const buffer = Buffer.allocUnsafe(sizeBytes);
  let at = 0;
  for (const message of messages) at = writeLegacyMessage(buffer, at, message);
  return buffer;
}

/**
 * Whether `bytes` start with a legacy message rather than a RecordBatch: both begin with an offset
 * and a size, and the magic byte sits at byte 16 in both layouts.
 */
export function legacyMagicOf(bytes: Uint8Array): LegacyMagic | undefined {
  if (bytes.length <= 16) return undefined;
  const magic = bytes[16];
  return magic === 0 || magic === 1 ? magic : undefined;
}

/**
 * Decodes a whole message set: every message must be complete, carry magic 0 or 1 and match its
 * CRC. Fails with `'truncated'`, `'invalid-length'`, `'unsupported-version'` (another magic),
 * `'checksum-mismatch'` or `'invalid-value'` (a codec id Kafka does not define, or zstd, which
 * these formats cannot carry).
 */
export function decodeLegacyMessageSet(bytes: Uint8Array): DecodeResult<LegacyMessage[]> {
  return tryDecode(() => decodeMessages(asBuffer(bytes)));
}

function decodeMessages(buffer: Buffer): LegacyMessage[] {
  const messages: LegacyMessage[] = [];
  let at = 0;
  while (at < buffer.length) {
    if (buffer.length - at < LOG_OVERHEAD_BYTES) {
      throw new DecodeError('truncated', 'message set ends inside a message prefix', at);
    }
    const bodyBytes = buffer.readInt32BE(at + 8);
    const end = at + LOG_OVERHEAD_BYTES + bodyBytes;
    if (bodyBytes < messageBodyBytes(0, 0, 0)) {
      throw new DecodeError('invalid-length', `message size ${bodyBytes}`, at + 8);
    }
    if (end > buffer.length) throw new DecodeError('truncated', 'message set ends inside a message', at);
    messages.push(decodeMessage(buffer, at, end));
    at = end;
  }
  return messages;
}

function decodeMessage(buffer: Buffer, at: number, end: number): LegacyMessage {
  const crcAt = at + LOG_OVERHEAD_BYTES;
  let position = crcAt + CRC_BYTES;
  const magic = buffer.readInt8(position++);
  if (magic !== 0 && magic !== 1) {
    throw new DecodeError('unsupported-version', `message magic ${magic}`, position - 1);
  }
  if (end - crcAt < messageBodyBytes(magic, 0, 0)) {
    throw new DecodeError('invalid-length', `message size ${end - crcAt} for magic ${magic}`, at + 8);
  }
  const storedCrc = buffer.readUInt32BE(crcAt);
  if (crc32(buffer.subarray(crcAt + CRC_BYTES, end)) !== storedCrc) {
    throw new DecodeError('checksum-mismatch', 'message CRC-32 does not match', crcAt);
  }
  const attributes = buffer.readInt8(position++);
  const compression = COMPRESSION_TYPES[attributes & CODEC_MASK];
  if (compression === undefined || compression === 'zstd') {
    throw new DecodeError('invalid-value', `message codec id ${attributes & CODEC_MASK}`, position - 1);
  }
  let timestampMs = -1;
  if (magic === 1) {
    const timestamp = buffer.readBigInt64BE(position);
    if (timestamp < BigInt(Number.MIN_SAFE_INTEGER) || timestamp > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new DecodeError('invalid-value', `message timestamp ${timestamp}`, position);
    }
    timestampMs = Number(timestamp);
    position += 8;
  }
  const key = readBytesField(buffer, position, end);
  position = key.next;
  const value = readBytesField(buffer, position, end);
  if (value.next !== end)
    throw new DecodeError('trailing-bytes', 'bytes after the message value', value.next);
  return {
    offset: buffer.readBigInt64BE(at),
    magic,
    compression,
    timestampType:
      magic === 1 && (attributes & LOG_APPEND_TIME_FLAG) !== 0 ? 'log-append-time' : 'create-time',
    timestampMs,
    key: key.bytes,
    value: value.bytes,
  };
}

function readBytesField(buffer: Buffer, at: number, end: number): { bytes: Buffer | null; next: number } {
  if (end - at < 4) throw new DecodeError('truncated', 'message ends inside a length', at);
  const length = buffer.readInt32BE(at);
  if (length === -1) return { bytes: null, next: at + 4 };
  if (length < 0 || length > end - at - 4)
    throw new DecodeError('invalid-length', `bytes length ${length}`, at);
  return { bytes: buffer.subarray(at + 4, at + 4 + length), next: at + 4 + length };
}
