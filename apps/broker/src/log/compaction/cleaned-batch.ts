import {
  BATCH_HEADER_BYTES,
  BATCH_LOG_OVERHEAD_BYTES,
  BatchLayout,
  batchCompression,
  batchTimestampType,
  compressionCodec,
  crc32c,
  type RecordBatchHeader,
} from '@weir/protocol';
import type { BatchRecords } from './batch-records';

/**
 * One batch as a clean rewrites it (Kafka's MemoryRecords.filterTo): only the records whose `keep`
 * flag is set, each copied byte for byte, so it keeps its offset and timestamp deltas (the
 * partition gets holes and no offset changes), under the batch's own header: base offset, last
 * offset delta, producer id, epoch and base sequence stay, so the producer's last sequence and the
 * next batch's offset are as before. Only the record count, the length, the max timestamp (the
 * survivors', from which the time index is rebuilt; LogAppendTime batches keep theirs) and the CRC
 * change. A compressed batch is compressed again with its codec.
 *
 * `records` is the batch loaded (BatchRecords.load), `keptCount` how many flags are set, at least
 * one and fewer than all.
 */
export function cleanedBatch(
  body: Buffer,
  header: RecordBatchHeader,
  records: BatchRecords,
  keep: Uint8Array,
  keptCount: number,
): Buffer {
  const compression = batchCompression(header.attributes);
  if (compression === undefined) throw new Error(`batch at ${header.baseOffset} has an unknown codec`);
  const { data, recordStart, recordEnd, timestampDelta } = records;
  let keptBytes = 0;
  let maxTimestampDelta = Number.NEGATIVE_INFINITY;
  for (let index = 0; index < records.count; index++) {
    if (keep[index] === 0) continue;
    keptBytes += recordEnd[index]! - recordStart[index]!;
    if (timestampDelta[index]! > maxTimestampDelta) maxTimestampDelta = timestampDelta[index]!;
  }
  const uncompressed = compression === 'none';
  const recordsBuffer = Buffer.allocUnsafe(uncompressed ? BATCH_HEADER_BYTES + keptBytes : keptBytes);
  let at = uncompressed ? BATCH_HEADER_BYTES : 0;
  for (let index = 0; index < records.count; index++) {
    if (keep[index] === 0) continue;
    at += data.copy(recordsBuffer, at, recordStart[index]!, recordEnd[index]!);
  }
  let batch = recordsBuffer;
  if (!uncompressed) {
    const compressed = compressionCodec(compression).compress(recordsBuffer);
    batch = Buffer.allocUnsafe(BATCH_HEADER_BYTES + compressed.length);
    compressed.copy(batch, BATCH_HEADER_BYTES);
  }
  const maxTimestampMs =
    batchTimestampType(header.attributes) === 'log-append-time'
      ? header.maxTimestampMs
      : header.baseTimestampMs + maxTimestampDelta;
  return withHeader(batch, body, keptCount, maxTimestampMs);
}

/**
 * The header alone of a batch none of whose records survive, kept for a live idempotent
 * producer's last batch so its sequence still deduplicates after the clean (Kafka keeps such a
 * batch empty for the same reason). Its timestamps are the original batch's.
 */
export function emptiedBatch(body: Buffer, header: RecordBatchHeader): Buffer {
  return withHeader(Buffer.allocUnsafe(BATCH_HEADER_BYTES), body, 0, header.maxTimestampMs);
}

/** Fills `batch`'s header from `source`'s, with its own length, count, max timestamp and CRC. */
function withHeader(batch: Buffer, source: Buffer, recordCount: number, maxTimestampMs: number): Buffer {
  source.copy(batch, 0, 0, BATCH_HEADER_BYTES);
  batch.writeInt32BE(batch.length - BATCH_LOG_OVERHEAD_BYTES, BatchLayout.batchLength);
  batch.writeBigInt64BE(BigInt(maxTimestampMs), BatchLayout.maxTimestamp);
  batch.writeInt32BE(recordCount, BatchLayout.recordCount);
  batch.writeUInt32BE(crc32c(batch.subarray(BatchLayout.attributes)), BatchLayout.crc);
  return batch;
}
