import { DecodeError, type DecodeResult, tryDecode } from '../codec/decode-error';
import { encodeBatchAttributes } from './batch-attributes';
import { asBuffer } from './buffer-view';
import { crc32c } from './crc32c';

/**
 * The fixed 61-byte header of a RecordBatch v2, and the operations the broker's hot path needs:
 * read it, check the CRC, and rewrite the two fields the broker owns. None of these decode or
 * re-encode records.
 *
 * Number choices: `baseOffset` and `producerId` are int64 on the wire and are `bigint` here, so
 * every value round-trips exactly. Timestamps are milliseconds and are plain numbers: a date in
 * milliseconds fits 53 bits for the next 285,000 years, and a header whose timestamp is not a safe
 * integer is rejected as `'invalid-value'` rather than rounded. Everything else is 16 or 32 bits.
 */

/** Byte positions of the header fields, from the start of the batch. */
export const BatchLayout = {
  baseOffset: 0,
  batchLength: 8,
  partitionLeaderEpoch: 12,
  magic: 16,
  crc: 17,
  attributes: 21,
  lastOffsetDelta: 23,
  baseTimestamp: 27,
  maxTimestamp: 35,
  producerId: 43,
  producerEpoch: 51,
  baseSequence: 53,
  recordCount: 57,
  records: 61,
} as const;

/** Size of the header; the records section starts here. */
export const BATCH_HEADER_BYTES = 61;
/** baseOffset and batchLength: the part of the header outside `batchLength`'s count. */
export const BATCH_LOG_OVERHEAD_BYTES = 12;
/** The smallest legal `batchLength`: a header with an empty records section. */
export const MIN_BATCH_LENGTH_BYTES = BATCH_HEADER_BYTES - BATCH_LOG_OVERHEAD_BYTES;
/** The only magic this codec reads and writes. */
export const RECORD_BATCH_MAGIC = 2;
/** The CRC covers everything from the attributes to the end of the batch. */
export const CRC_START = BatchLayout.attributes;

/** The header of one RecordBatch v2, decoded. */
export interface RecordBatchHeader {
  /** Offset of the first record (int64). The broker rewrites it on append. */
  baseOffset: bigint;
  /** Bytes after this field; the whole batch is `BATCH_LOG_OVERHEAD_BYTES + batchLength` bytes. */
  batchLength: number;
  /** Leader epoch when the batch was appended; -1 from producers. The broker rewrites it. */
  partitionLeaderEpoch: number;
  magic: number;
  /** The stored CRC-32C (unsigned), as read; see {@link verifyBatchCrc} to check it. */
  crc: number;
  /** Codec, timestamp type, transactional and control bits; see `batch-attributes.ts`. */
  attributes: number;
  /** Offset delta of the last record; it survives compaction even if that record does not. */
  lastOffsetDelta: number;
  /** Timestamp of the first record in milliseconds (or the delete horizon, when that bit is set). */
  baseTimestampMs: number;
  /** Largest record timestamp, or the broker's append time for LogAppendTime batches. */
  maxTimestampMs: number;
  /** -1 unless the producer is idempotent or transactional (int64). */
  producerId: bigint;
  producerEpoch: number;
  /** Sequence number of the first record; -1 for non-idempotent batches and control batches. */
  baseSequence: number;
  recordCount: number;
}

/** An int64 that must be a safe integer, read without BigInt. */
function readSafeInt64(buffer: Buffer, at: number, what: string): number {
  const value = buffer.readInt32BE(at) * 0x100000000 + buffer.readUInt32BE(at + 4);
  if (!Number.isSafeInteger(value)) {
    throw new DecodeError('invalid-value', `${what} ${buffer.readBigInt64BE(at)} is not a safe integer`, at);
  }
  return value;
}

/**
 * Reads the header of the batch at `offset`, throwing {@link DecodeError}. Only the 61 header bytes
 * need to be present, so this also works on a header read alone from disk.
 */
export function readBatchHeaderOrThrow(buffer: Buffer, offset: number): RecordBatchHeader {
  if (offset < 0 || buffer.length - offset < BATCH_HEADER_BYTES) {
    throw new DecodeError(
      'truncated',
      `record batch header needs ${BATCH_HEADER_BYTES} bytes, ${Math.max(0, buffer.length - offset)} left`,
      offset,
    );
  }
  const magic = buffer.readInt8(offset + BatchLayout.magic);
  if (magic !== RECORD_BATCH_MAGIC) {
    throw new DecodeError(
      'unsupported-version',
      `record batch magic ${magic}, expected 2`,
      offset + BatchLayout.magic,
    );
  }
  const batchLength = buffer.readInt32BE(offset + BatchLayout.batchLength);
  if (batchLength < MIN_BATCH_LENGTH_BYTES) {
    throw new DecodeError('invalid-length', `batch length ${batchLength}`, offset + BatchLayout.batchLength);
  }
  const recordCount = buffer.readInt32BE(offset + BatchLayout.recordCount);
  if (recordCount < 0) {
    throw new DecodeError('invalid-length', `record count ${recordCount}`, offset + BatchLayout.recordCount);
  }
  return {
    baseOffset: buffer.readBigInt64BE(offset),
    batchLength,
    partitionLeaderEpoch: buffer.readInt32BE(offset + BatchLayout.partitionLeaderEpoch),
    magic,
    crc: buffer.readUInt32BE(offset + BatchLayout.crc),
    attributes: buffer.readInt16BE(offset + BatchLayout.attributes),
    lastOffsetDelta: buffer.readInt32BE(offset + BatchLayout.lastOffsetDelta),
    baseTimestampMs: readSafeInt64(buffer, offset + BatchLayout.baseTimestamp, 'base timestamp'),
    maxTimestampMs: readSafeInt64(buffer, offset + BatchLayout.maxTimestamp, 'max timestamp'),
    producerId: buffer.readBigInt64BE(offset + BatchLayout.producerId),
    producerEpoch: buffer.readInt16BE(offset + BatchLayout.producerEpoch),
    baseSequence: buffer.readInt32BE(offset + BatchLayout.baseSequence),
    recordCount,
  };
}

/**
 * Decodes the header of the batch starting at `offset`, without touching its records or checking
 * its CRC. Fails with `'truncated'` (fewer than 61 bytes), `'unsupported-version'` (magic is not 2),
 * `'invalid-length'` (batch length or record count impossible) or `'invalid-value'` (a timestamp
 * that is not a safe integer).
 */
export function readBatchHeader(buffer: Uint8Array, offset = 0): DecodeResult<RecordBatchHeader> {
  return tryDecode(() => readBatchHeaderOrThrow(asBuffer(buffer), offset));
}

/** Throws unless the whole batch at `offset` is present and its CRC-32C matches. */
export function verifyBatchCrcOrThrow(buffer: Buffer, offset: number): number {
  if (offset < 0 || buffer.length - offset < BATCH_HEADER_BYTES) {
    throw new DecodeError('truncated', 'record batch shorter than its header', offset);
  }
  const batchLength = buffer.readInt32BE(offset + BatchLayout.batchLength);
  if (batchLength < MIN_BATCH_LENGTH_BYTES) {
    throw new DecodeError('invalid-length', `batch length ${batchLength}`, offset + BatchLayout.batchLength);
  }
  const end = offset + BATCH_LOG_OVERHEAD_BYTES + batchLength;
  if (end > buffer.length) {
    throw new DecodeError(
      'truncated',
      `record batch of ${end - offset} bytes with ${buffer.length - offset} present`,
      offset,
    );
  }
  const stored = buffer.readUInt32BE(offset + BatchLayout.crc);
  const computed = crc32c(buffer.subarray(offset + CRC_START, end));
  if (stored !== computed) {
    throw new DecodeError(
      'checksum-mismatch',
      `record batch CRC-32C is ${computed.toString(16)}, header says ${stored.toString(16)}`,
      offset + BatchLayout.crc,
    );
  }
  return computed;
}

/**
 * Checks the CRC-32C of the batch at `offset` (over bytes 21 to the end of the batch) and returns
 * it. Fails with `'checksum-mismatch'`, or `'truncated'` / `'invalid-length'` when the batch is not
 * all there.
 */
export function verifyBatchCrc(buffer: Uint8Array, offset = 0): DecodeResult<number> {
  return tryDecode(() => verifyBatchCrcOrThrow(asBuffer(buffer), offset));
}

/**
 * What the broker does with every produced batch before storing it: decode the header, check that
 * the whole batch is present, and check the CRC. Records are neither decoded nor decompressed.
 */
export function checkBatch(buffer: Uint8Array, offset = 0): DecodeResult<RecordBatchHeader> {
  return tryDecode(() => {
    const view = asBuffer(buffer);
    const header = readBatchHeaderOrThrow(view, offset);
    verifyBatchCrcOrThrow(view, offset);
    return header;
  });
}

/** Total size in bytes of a batch, from its header. */
export function batchSizeBytes(header: Pick<RecordBatchHeader, 'batchLength'>): number {
  return BATCH_LOG_OVERHEAD_BYTES + header.batchLength;
}

/** Offset of the batch's last record (`baseOffset + lastOffsetDelta`). */
export function batchLastOffset(header: Pick<RecordBatchHeader, 'baseOffset' | 'lastOffsetDelta'>): bigint {
  return header.baseOffset + BigInt(header.lastOffsetDelta);
}

/**
 * Rewrites the base offset (bytes 0–7) of the batch at `offset`, in place. The CRC does not cover
 * these bytes, so the batch stays valid: this is how the broker assigns offsets without re-encoding.
 */
export function setBatchBaseOffset(batch: Uint8Array, baseOffset: bigint, offset = 0): void {
  asBuffer(batch).writeBigInt64BE(baseOffset, offset + BatchLayout.baseOffset);
}

/**
 * Rewrites the partition leader epoch (bytes 12–15) of the batch at `offset`, in place. Outside the
 * CRC, like the base offset.
 */
export function setBatchPartitionLeaderEpoch(
  batch: Uint8Array,
  partitionLeaderEpoch: number,
  offset = 0,
): void {
  asBuffer(batch).writeInt32BE(partitionLeaderEpoch, offset + BatchLayout.partitionLeaderEpoch);
}

/**
 * Rewrites the max timestamp of the CreateTime batch at `offset` and recomputes the CRC, which
 * covers it. The broker does this when a producer's header does not hold the largest of its
 * records' timestamps (docs/kafka-compat.md §6.3), so the time index and retention see the right
 * time. The caller has already checked the batch.
 */
export function setBatchMaxTimestamp(batch: Uint8Array, maxTimestampMs: number, offset = 0): number {
  if (!Number.isSafeInteger(maxTimestampMs)) throw new RangeError(`max timestamp ${maxTimestampMs}`);
  const view = asBuffer(batch);
  view.writeBigInt64BE(BigInt(maxTimestampMs), offset + BatchLayout.maxTimestamp);
  return rewriteBatchCrc(view, offset);
}

/** Recomputes the CRC-32C of the batch at `offset` after a field it covers changed; returns it. */
function rewriteBatchCrc(view: Buffer, offset: number): number {
  const end = offset + BATCH_LOG_OVERHEAD_BYTES + view.readInt32BE(offset + BatchLayout.batchLength);
  const crc = crc32c(view.subarray(offset + CRC_START, end));
  view.writeUInt32BE(crc, offset + BatchLayout.crc);
  return crc;
}

/**
 * Marks the batch at `offset` as LogAppendTime and sets its max timestamp to the broker's append
 * time, for topics with `message.timestamp.type=LogAppendTime`. Unlike the offset and epoch these
 * fields are inside the CRC, so the CRC is recomputed (over the batch bytes, without decoding
 * records), as Kafka's broker does. The caller has already checked the batch.
 */
export function setBatchLogAppendTime(batch: Uint8Array, appendTimeMs: number, offset = 0): void {
  if (!Number.isSafeInteger(appendTimeMs)) throw new RangeError(`append time ${appendTimeMs}`);
  const view = asBuffer(batch);
  const attributes = view.readInt16BE(offset + BatchLayout.attributes);
  const logAppendTimeBit = encodeBatchAttributes({ timestampType: 'log-append-time' });
  view.writeInt16BE(attributes | logAppendTimeBit, offset + BatchLayout.attributes);
  view.writeBigInt64BE(BigInt(appendTimeMs), offset + BatchLayout.maxTimestamp);
  rewriteBatchCrc(view, offset);
}
