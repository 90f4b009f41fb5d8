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

/**
 * How a batch's records are decided: all kept, all dropped, or each by {@link recordSurvives}.
 * Whatever is decided, a live producer's last batch is written (empty if need be), so its
 * sequence still deduplicates after the clean.
 */
export type BatchRule = 'keep-all' | 'drop-all' | 'each-record';

/**
 * Kafka's LogCleaner rules for a whole batch. An aborted transaction's records all go. A marker
 * stays while its transaction still has records below it, or while deletes are retained (so a
 * consumer reading up to the log end sees the transaction end).
 */
export function batchRule(batch: CleanedBatch, retainDeletes: boolean): BatchRule {
  if (batch.isControl) return batch.transactionHasRecords || retainDeletes ? 'keep-all' : 'drop-all';
  if (batch.isAborted) return 'drop-all';
  return 'each-record';
}

/** What the per-record rule needs of the pass. */
export interface RecordRuleContext {
  /** The highest offset whose key the map read: records above it were not compared. */
  mapLatestOffset: number;
  /**
   * Whether tombstones in this segment are still within delete.retention.ms, so consumers that
   * read up to the log end see the delete.
   */
  retainDeletes: boolean;
}

/** `keyLatestOffset` of a record without a key. */
export const NO_KEY = -2;
/** `keyLatestOffset` of a key the map does not hold. */
export const KEY_NOT_IN_MAP = -1;

/**
 * Whether one record of a data batch survives: unless a later record has the same key (the map
 * holds a later offset) or it is a tombstone past delete.retention.ms. Records beyond what the map
 * covers are kept, since the pass did not read their keys, and a record without a key cannot be
 * compacted at all and is dropped. `keyLatestOffset` is the map's offset for the record's key,
 * {@link KEY_NOT_IN_MAP} or {@link NO_KEY}.
 */
export function recordSurvives(
  offset: number,
  keyLatestOffset: number,
  isTombstone: boolean,
  context: RecordRuleContext,
): boolean {
  if (offset > context.mapLatestOffset) return true;
  if (keyLatestOffset === NO_KEY) return false;
  if (offset < keyLatestOffset) return false;
  return !isTombstone || context.retainDeletes;
}
