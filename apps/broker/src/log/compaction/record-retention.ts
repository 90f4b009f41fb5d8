import type { KeyOffsetMap } from './key-offset-map';

/** A record of a batch being cleaned, as the retention rules read it. */
export interface CleanedRecord {
  offset: number;
  /** Null for a record without a key, which a compacted topic cannot keep. */
  key: Uint8Array | null;
  /** True for a tombstone (null value). */
  isTombstone: boolean;
}

/** What the rules need of the batch the records are in. */
export interface CleanedBatch {
  /** A control batch: a transaction's commit or abort marker. */
  isControl: boolean;
  /** Part of a transaction that was aborted: its records are never kept. */
  isAborted: boolean;
  /** The batch is the last one its producer wrote that is still live (its sequence anchor). */
  isLastOfLiveProducer: boolean;
  /** For a control batch: whether any record of its transaction is left below it. */
  transactionHasRecords: boolean;
}

export interface RetentionContext {
  /** The keys' latest offsets, from the dirty part of the log. */
  map: KeyOffsetMap;
  /**
   * Whether tombstones (and markers of emptied transactions) in this segment are still within
   * delete.retention.ms, so consumers that read up to the log end see the delete.
   */
  retainDeletes: boolean;
}

/** What a clean keeps of one batch: the records that survive, and whether the batch stays at all. */
export interface BatchRetention {
  keptOffsets: number[];
  /**
   * Whether the batch is written even if no record survives: the last batch of a live idempotent
   * producer keeps its header, so the producer's sequence still deduplicates after the clean.
   */
  keepBatch: boolean;
}

/**
 * Kafka's LogCleaner rules for one batch. An aborted transaction's records all go. A marker stays
 * while its transaction still has records, or while deletes are retained. Otherwise a record
 * stays unless a later record has the same key (the map holds a later offset) or it is a tombstone
 * past delete.retention.ms; records beyond what the map covers are kept, since the pass did not
 * read their keys, and a record without a key cannot be compacted at all and is dropped.
 */
export function batchRetention(
  batch: CleanedBatch,
  records: readonly CleanedRecord[],
  context: RetentionContext,
): BatchRetention {
  const keepHeader = batch.isLastOfLiveProducer;
  if (batch.isControl) {
    const keep = batch.transactionHasRecords || context.retainDeletes;
    return { keptOffsets: keep ? records.map((record) => record.offset) : [], keepBatch: keep || keepHeader };
  }
  if (batch.isAborted) return { keptOffsets: [], keepBatch: keepHeader };
  const keptOffsets = records
    .filter((record) => recordSurvives(record, context))
    .map((record) => record.offset);
  return { keptOffsets, keepBatch: keptOffsets.length > 0 || keepHeader };
}

function recordSurvives(record: CleanedRecord, context: RetentionContext): boolean {
  if (record.offset > context.map.latestOffset) return true;
  if (record.key === null) return false;
  const latest = context.map.get(record.key);
  if (latest !== undefined && record.offset < latest) return false;
  return !record.isTombstone || context.retainDeletes;
}
