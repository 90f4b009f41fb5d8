import {
  BATCH_HEADER_BYTES,
  BATCH_LOG_OVERHEAD_BYTES,
  batchCompression,
  DecodeError,
  decompressBytes,
  type RecordBatchHeader,
  RecordReader,
} from '@weir/protocol';

/** No timestamp: Kafka's RecordBatch.NO_TIMESTAMP, which the time checks skip. */
export const NO_TIMESTAMP = -1;

/** The smallest record: a length, attributes, two deltas, two null lengths and a header count. */
const MIN_RECORD_BYTES = 7;

/** The timestamps a batch's records carry, as a CreateTime batch stores them (base plus delta). */
export interface RecordTimestampRange {
  /** The largest record timestamp, and {@link NO_TIMESTAMP} when none is larger (Kafka's rule). */
  maxMs: number;
  /** The smallest record timestamp other than {@link NO_TIMESTAMP}; undefined when every record has none. */
  minMs: number | undefined;
}

/**
 * Reads the timestamp of every record of a checked batch without decoding keys, values or
 * headers: each record's length, attributes and timestamp delta, then a jump to the next record.
 * A compressed batch is decompressed first, which is the costly part, so callers read a compressed
 * batch only when they must (batch-timestamps.ts). Throws {@link DecodeError} when the records do
 * not fill the batch exactly as its record count says.
 */
export function readRecordTimestamps(
  batch: Buffer,
  header: RecordBatchHeader,
  maxDecompressedBytes?: number,
): RecordTimestampRange {
  const end = BATCH_LOG_OVERHEAD_BYTES + header.batchLength;
  const compression = batchCompression(header.attributes) ?? 'none';
  let data = batch;
  let start = BATCH_HEADER_BYTES;
  let dataEnd = end;
  if (compression !== 'none') {
    const decompressed = decompressBytes(
      compression,
      batch.subarray(BATCH_HEADER_BYTES, end),
      maxDecompressedBytes,
      BATCH_HEADER_BYTES,
    );
    if (!decompressed.ok) throw decompressed.error;
    data = decompressed.value;
    start = 0;
    dataEnd = data.length;
  }
  if (header.recordCount * MIN_RECORD_BYTES > dataEnd - start) {
    throw new DecodeError(
      'invalid-length',
      `record count ${header.recordCount} does not fit in ${dataEnd - start} bytes`,
      start,
    );
  }
  const reader = new RecordReader(data, start, dataEnd);
  const baseMs = header.baseTimestampMs;
  let maxMs = NO_TIMESTAMP;
  let minMs: number | undefined;
  for (let index = 0; index < header.recordCount; index++) {
    const lengthAt = reader.position;
    const length = reader.varint();
    const bodyStart = reader.position;
    if (length < MIN_RECORD_BYTES - 1 || length > dataEnd - bodyStart) {
      throw new DecodeError('invalid-length', `record ${index} claims ${length} bytes`, lengthAt);
    }
    reader.int8();
    const timestampAt = reader.position;
    const timestampMs = baseMs + reader.varlongNumber();
    if (!Number.isSafeInteger(timestampMs)) {
      throw new DecodeError('invalid-value', `record ${index} has timestamp ${timestampMs}`, timestampAt);
    }
    reader.position = bodyStart + length;
    if (timestampMs > maxMs) maxMs = timestampMs;
    if (timestampMs !== NO_TIMESTAMP && (minMs === undefined || timestampMs < minMs)) minMs = timestampMs;
  }
  if (reader.remaining !== 0) {
    throw new DecodeError(
      'trailing-bytes',
      `${reader.remaining} bytes left after ${header.recordCount} records`,
      reader.position,
    );
  }
  return { maxMs, minMs };
}
