import { DecodeError, type DecodeResult, tryDecode } from '../codec/decode-error';
import {
  batchCompression,
  batchTimestampType,
  type CompressionType,
  encodeBatchAttributes,
  type TimestampType,
} from './batch-attributes';
import {
  BATCH_HEADER_BYTES,
  BATCH_LOG_OVERHEAD_BYTES,
  BatchLayout,
  CRC_START,
  RECORD_BATCH_MAGIC,
  type RecordBatchHeader,
  readBatchHeaderOrThrow,
  verifyBatchCrcOrThrow,
} from './batch-header';
import { asBuffer } from './buffer-view';
import { DEFAULT_MAX_DECOMPRESSED_BYTES } from './compression/compression-codec';
import { compressionCodec } from './compression/registry';
import { crc32c } from './crc32c';
import {
  type RecordFields,
  type RecordHeaderInput,
  readRecord,
  recordBodySizeBytes,
  recordSizeBytes,
  writeRecord,
} from './record';
import { RecordReader } from './record-reader';

/**
 * Full encode and decode of RecordBatch v2: what producers (the SDK) and consumers need. The broker
 * itself only uses the header functions in `batch-header.ts`.
 */

/** One record to put in a batch. */
export interface RecordInput {
  /** `null` or omitted for a record without a key. */
  key?: Uint8Array | null;
  /** `null` for a tombstone. */
  value: Uint8Array | null;
  /** An ordered list; duplicate keys are kept. */
  headers?: readonly RecordHeaderInput[];
  /** Create time in milliseconds since the epoch. */
  timestampMs: number;
  /**
   * Offset relative to the batch's base offset. Defaults to the record's index; set it only to
   * write a batch with gaps, as compaction does.
   */
  offsetDelta?: number;
}

/** Everything needed to encode a batch. Only `records` is required. */
export interface RecordBatchInput {
  records: readonly RecordInput[];
  /** Default `'none'`. */
  compression?: CompressionType;
  /** Default 0; the broker assigns the real offset on append. */
  baseOffset?: bigint;
  /** Default -1, what producers send. */
  partitionLeaderEpoch?: number;
  /** Default -1 (not idempotent). */
  producerId?: bigint;
  /** Default -1. */
  producerEpoch?: number;
  /** Default -1; idempotent producers number each partition's records from 0. */
  baseSequence?: number;
  /** Default `'create-time'`. */
  timestampType?: TimestampType;
  isTransactional?: boolean;
  isControl?: boolean;
  /**
   * Compaction's delete horizon (KIP-534). When set, the batch's base timestamp is this value
   * instead of the first record's time, and attribute bit 6 is set.
   */
  deleteHorizonMs?: number;
  /** Default: the largest record timestamp. */
  maxTimestampMs?: number;
  /** Default: the last record's offset delta. Compaction keeps the original when it drops the tail. */
  lastOffsetDelta?: number;
}

/** A decoded record with its absolute offset and timestamp. Byte fields are views, see `RecordFields`. */
export interface DecodedRecord extends RecordFields {
  /** `baseOffset + offsetDelta`. */
  offset: bigint;
  /** The record's time: base timestamp plus delta, or the batch's max timestamp for LogAppendTime. */
  timestampMs: number;
}

/** A decoded batch: its header and its records. */
export interface RecordBatch extends RecordBatchHeader {
  records: DecodedRecord[];
}

/** Options of {@link decodeRecordBatch}. */
export interface DecodeRecordBatchOptions {
  /** Where the batch starts in the buffer. Default 0. */
  offset?: number;
  /** Refuse batches whose records decompress to more than this. Default 128 MiB. */
  maxDecompressedBytes?: number;
  /** Check the CRC before decoding. Default true; turn off only for bytes already checked. */
  verifyCrc?: boolean;
}

const NO_HEADERS: readonly RecordHeaderInput[] = [];

/** Per-record body sizes, reused across calls (encoding is synchronous, so never shared). */
let bodySizeScratch = new Int32Array(1024);

/**
 * Encodes a batch. Every record is measured first, then the records are written once into a
 * buffer of the exact size (for compressed batches, a scratch buffer that is then compressed), the
 * header is filled in and the CRC-32C computed over bytes 21 to the end.
 *
 * Throws RangeError for inputs that cannot be encoded (no records, a timestamp that is not a safe
 * integer, a field out of its wire range); these are caller bugs, not data errors.
 */
export function encodeRecordBatch(input: RecordBatchInput): Buffer {
  const records = input.records;
  const count = records.length;
  if (count === 0) throw new RangeError('a record batch needs at least one record');
  const baseTimestampMs = input.deleteHorizonMs ?? records[0]!.timestampMs;
  let maxTimestampMs = Number.NEGATIVE_INFINITY;
  if (bodySizeScratch.length < count) bodySizeScratch = new Int32Array(count * 2);
  const bodySizes = bodySizeScratch;
  let recordsBytes = 0;
  for (let index = 0; index < count; index++) {
    const record = records[index]!;
    const timestampMs = record.timestampMs;
    if (timestampMs > maxTimestampMs) maxTimestampMs = timestampMs;
    const bodySize = recordBodySizeBytes(
      timestampMs - baseTimestampMs,
      record.offsetDelta ?? index,
      record.key ?? null,
      record.value,
      record.headers ?? NO_HEADERS,
    );
    bodySizes[index] = bodySize;
    recordsBytes += recordSizeBytes(bodySize);
  }

  const compression = input.compression ?? 'none';
  const uncompressed = compression === 'none';
  const recordsBuffer = Buffer.allocUnsafe(uncompressed ? BATCH_HEADER_BYTES + recordsBytes : recordsBytes);
  let at = uncompressed ? BATCH_HEADER_BYTES : 0;
  for (let index = 0; index < count; index++) {
    const record = records[index]!;
    at = writeRecord(
      recordsBuffer,
      at,
      bodySizes[index]!,
      0,
      record.timestampMs - baseTimestampMs,
      record.offsetDelta ?? index,
      record.key ?? null,
      record.value,
      record.headers ?? NO_HEADERS,
    );
  }

  if (at !== recordsBuffer.length) {
    // allocUnsafe leaves unwritten bytes as whatever memory held; never ship them.
    throw new Error(`record batch encoder wrote ${at} of ${recordsBuffer.length} bytes`);
  }

  let batch: Buffer;
  if (uncompressed) {
    batch = recordsBuffer;
  } else {
    const compressed = compressionCodec(compression).compress(recordsBuffer);
    batch = Buffer.allocUnsafe(BATCH_HEADER_BYTES + compressed.length);
    compressed.copy(batch, BATCH_HEADER_BYTES);
  }

  const lastRecord = records[count - 1]!;
  writeRecordBatchHeader(batch, {
    compression,
    timestampType: input.timestampType ?? 'create-time',
    isTransactional: input.isTransactional ?? false,
    isControl: input.isControl ?? false,
    hasDeleteHorizon: input.deleteHorizonMs !== undefined,
    baseOffset: input.baseOffset ?? 0n,
    partitionLeaderEpoch: input.partitionLeaderEpoch ?? -1,
    lastOffsetDelta: input.lastOffsetDelta ?? lastRecord.offsetDelta ?? count - 1,
    baseTimestampMs,
    maxTimestampMs: input.maxTimestampMs ?? maxTimestampMs,
    producerId: input.producerId ?? -1n,
    producerEpoch: input.producerEpoch ?? -1,
    baseSequence: input.baseSequence ?? -1,
    recordCount: count,
  });
  return batch;
}

/** The header fields of a batch whose records are already in place; see {@link writeRecordBatchHeader}. */
export interface RecordBatchHeaderFields {
  compression: CompressionType;
  timestampType?: TimestampType;
  isTransactional?: boolean;
  isControl?: boolean;
  hasDeleteHorizon?: boolean;
  /** Default 0; the broker assigns the real offset on append. */
  baseOffset?: bigint;
  /** Default -1. */
  partitionLeaderEpoch?: number;
  lastOffsetDelta: number;
  baseTimestampMs: number;
  maxTimestampMs: number;
  producerId: bigint;
  producerEpoch: number;
  baseSequence: number;
  recordCount: number;
}

/**
 * Fills in the 61-byte header of `batch`, whose records section (bytes 61 to the end) is already
 * written, and computes the CRC-32C over bytes 21 to the end. Producers that encode records as they
 * arrive call this once per send; {@link encodeRecordBatch} calls it last.
 */
export function writeRecordBatchHeader(batch: Buffer, fields: RecordBatchHeaderFields): void {
  const attributes = encodeBatchAttributes({
    compression: fields.compression,
    timestampType: fields.timestampType ?? 'create-time',
    isTransactional: fields.isTransactional ?? false,
    isControl: fields.isControl ?? false,
    hasDeleteHorizon: fields.hasDeleteHorizon ?? false,
  });
  batch.writeBigInt64BE(fields.baseOffset ?? 0n, BatchLayout.baseOffset);
  batch.writeInt32BE(batch.length - BATCH_LOG_OVERHEAD_BYTES, BatchLayout.batchLength);
  batch.writeInt32BE(fields.partitionLeaderEpoch ?? -1, BatchLayout.partitionLeaderEpoch);
  batch.writeInt8(RECORD_BATCH_MAGIC, BatchLayout.magic);
  batch.writeInt16BE(attributes, BatchLayout.attributes);
  batch.writeInt32BE(fields.lastOffsetDelta, BatchLayout.lastOffsetDelta);
  writeSafeInt64(batch, fields.baseTimestampMs, BatchLayout.baseTimestamp);
  writeSafeInt64(batch, fields.maxTimestampMs, BatchLayout.maxTimestamp);
  batch.writeBigInt64BE(fields.producerId, BatchLayout.producerId);
  batch.writeInt16BE(fields.producerEpoch, BatchLayout.producerEpoch);
  batch.writeInt32BE(fields.baseSequence, BatchLayout.baseSequence);
  batch.writeInt32BE(fields.recordCount, BatchLayout.recordCount);
  batch.writeUInt32BE(crc32c(batch.subarray(CRC_START)), BatchLayout.crc);
}

/** Writes a safe integer as int64 without BigInt. */
function writeSafeInt64(buffer: Buffer, value: number, at: number): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`timestamp ${value} is not a safe integer`);
  const high = Math.floor(value / 0x100000000);
  buffer.writeInt32BE(high, at);
  buffer.writeUInt32BE(value - high * 0x100000000, at + 4);
}

/** The smallest encoded record: length, attributes, two deltas, null key, null value, no headers. */
const MIN_RECORD_BYTES = 7;

function decodeRecordBatchOrThrow(buffer: Buffer, options: DecodeRecordBatchOptions): RecordBatch {
  const start = options.offset ?? 0;
  const header = readBatchHeaderOrThrow(buffer, start);
  const end = start + BATCH_LOG_OVERHEAD_BYTES + header.batchLength;
  if (end > buffer.length) {
    throw new DecodeError('truncated', `record batch of ${end - start} bytes is cut short`, start);
  }
  if (options.verifyCrc ?? true) verifyBatchCrcOrThrow(buffer, start);
  const recordsStart = start + BATCH_HEADER_BYTES;
  const compression = batchCompression(header.attributes);
  if (compression === undefined) {
    throw new DecodeError(
      'invalid-value',
      `unknown compression codec ${header.attributes & 0x07}`,
      start + BatchLayout.attributes,
    );
  }
  let data = buffer;
  let dataStart = recordsStart;
  let dataEnd = end;
  if (compression !== 'none') {
    try {
      data = compressionCodec(compression).decompress(
        buffer.subarray(recordsStart, end),
        options.maxDecompressedBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES,
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new DecodeError('decompression-failed', `${compression}: ${reason}`, recordsStart);
    }
    dataStart = 0;
    dataEnd = data.length;
  }
  // Every record takes at least MIN_RECORD_BYTES, so a larger count is a lie; refuse it before
  // allocating an array for it.
  if (header.recordCount * MIN_RECORD_BYTES > dataEnd - dataStart) {
    throw new DecodeError(
      'invalid-length',
      `record count ${header.recordCount} does not fit in ${dataEnd - dataStart} bytes`,
      start + BatchLayout.recordCount,
    );
  }
  const reader = new RecordReader(data, dataStart, dataEnd);
  const records: DecodedRecord[] = new Array(header.recordCount);
  const baseOffset = header.baseOffset;
  const baseTimestampMs = header.baseTimestampMs;
  const logAppendTimeMs =
    batchTimestampType(header.attributes) === 'log-append-time' ? header.maxTimestampMs : undefined;
  for (let index = 0; index < header.recordCount; index++) {
    const fields = readRecord(reader);
    records[index] = {
      offset: baseOffset + BigInt(fields.offsetDelta),
      timestampMs: logAppendTimeMs ?? baseTimestampMs + fields.timestampDelta,
      attributes: fields.attributes,
      timestampDelta: fields.timestampDelta,
      offsetDelta: fields.offsetDelta,
      key: fields.key,
      value: fields.value,
      headers: fields.headers,
    };
  }
  if (reader.remaining !== 0) {
    throw new DecodeError(
      'trailing-bytes',
      `${reader.remaining} bytes left after ${header.recordCount} records`,
      reader.position,
    );
  }
  return { ...header, records };
}

/**
 * Decodes a whole batch: header, CRC check, decompression and every record. Never throws: a short,
 * lying or corrupt batch gives a `DecodeError` of kind `'truncated'`, `'invalid-length'`,
 * `'invalid-varint'`, `'invalid-value'`, `'unsupported-version'`, `'checksum-mismatch'`,
 * `'decompression-failed'` or `'trailing-bytes'`.
 *
 * Record keys, values and header values are views: into `buffer` for an uncompressed batch, into a
 * fresh decompressed buffer otherwise.
 */
export function decodeRecordBatch(
  buffer: Uint8Array,
  options: DecodeRecordBatchOptions = {},
): DecodeResult<RecordBatch> {
  return tryDecode(() => decodeRecordBatchOrThrow(asBuffer(buffer), options));
}
