import {
  BATCH_HEADER_BYTES,
  batchCompression,
  batchTimestampType,
  decodeRecordBatch,
  encodeRecordBatch,
  isControlBatch,
  isTransactionalBatch,
  type RecordBatch,
  writeRecordBatchHeader,
} from '@weir/protocol';

/**
 * One batch as a clean rewrites it (Kafka's MemoryRecords.filterTo): only the records at
 * `keptOffsets`, each at its own offset (the offset deltas stay, so the partition gets holes and
 * no offset changes), with the batch's base offset, last offset delta, producer id, epoch and base
 * sequence kept, so the producer's last sequence and the next batch's offset are as before. A batch
 * that keeps every record is returned as it is. One that keeps none is left out, unless
 * `keepEmpty` (a live producer's last batch), which keeps its header with no records. The max
 * timestamp is the survivors' (the time index is rebuilt from it); LogAppendTime batches keep
 * theirs, as does an empty header. `decoded` is the batch already decoded, when the caller has it.
 */
export function cleanedBatch(
  batch: Buffer,
  keptOffsets: ReadonlySet<number>,
  keepEmpty: boolean,
  decoded?: RecordBatch,
): Buffer | undefined {
  const header = decoded ?? decodeOrThrow(batch);
  const kept = header.records.filter((record) => keptOffsets.has(Number(record.offset)));
  if (kept.length === header.records.length) return batch;
  const compression = batchCompression(header.attributes);
  if (compression === undefined) throw new Error(`batch at ${header.baseOffset} has an unknown codec`);
  const timestampType = batchTimestampType(header.attributes);
  const common = {
    compression,
    timestampType,
    isTransactional: isTransactionalBatch(header.attributes),
    isControl: isControlBatch(header.attributes),
    baseOffset: header.baseOffset,
    partitionLeaderEpoch: header.partitionLeaderEpoch,
    lastOffsetDelta: header.lastOffsetDelta,
    producerId: header.producerId,
    producerEpoch: header.producerEpoch,
    baseSequence: header.baseSequence,
  };
  if (kept.length === 0) {
    if (!keepEmpty) return undefined;
    const empty = Buffer.alloc(BATCH_HEADER_BYTES);
    writeRecordBatchHeader(empty, {
      ...common,
      baseTimestampMs: header.baseTimestampMs,
      maxTimestampMs: header.maxTimestampMs,
      recordCount: 0,
    });
    return empty;
  }
  return encodeRecordBatch({
    ...common,
    records: kept.map((record) => ({
      key: record.key,
      value: record.value,
      headers: record.headers,
      timestampMs: record.timestampMs,
      offsetDelta: Number(record.offset - header.baseOffset),
    })),
    ...(timestampType === 'log-append-time' ? { maxTimestampMs: header.maxTimestampMs } : {}),
  });
}

function decodeOrThrow(batch: Buffer): RecordBatch {
  const decoded = decodeRecordBatch(batch);
  // The log validated every batch on append and recovery; one that no longer decodes is corrupt.
  if (!decoded.ok) throw decoded.error;
  return decoded.value;
}
