import { defineApi } from '../../../schema/api';
import { field, struct } from '../../../schema/struct';
import { array, bool, float64, int16, int32, int64, string } from '../../../schema/types';

/**
 * WeirDescribeLogCleaner (key 32015, Weir only), version 0: the log cleaner's state of the
 * compacted partitions the answering broker holds, leaders and followers alike (each broker
 * cleans its own replicas, docs/architecture.md §4), as it last judged each: the dirty ratio
 * against min.cleanable.dirty.ratio, the last clean and what it removed, and when the next is due.
 * A partition the cleaner has not looked at yet has no row. Numbers it does not have are -1.
 * Served only by the internal listener.
 */
export const WeirDescribeLogCleaner = defineApi({
  apiKey: 32015,
  name: 'WeirDescribeLogCleaner',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    /** Only these topics; null for every topic. */
    topics: field(array(string), { nullable: '0+', default: null }),
  },
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
    /** The answering broker, whose replicas the rows describe. */
    brokerId: field(int32, { default: -1 }),
    partitions: field(
      array(
        struct({
          topic: field(string),
          partition: field(int32),
          /** Whether the answering broker leads the partition. */
          leader: field(bool),
          /** The cleaner checkpoint: where the dirty part starts; -1 before the first clean. */
          cleanedUpToOffset: field(int64, { default: -1n }),
          dirtyRatio: field(float64),
          minCleanableDirtyRatio: field(float64),
          lastCleanedAtMs: field(int64, { default: -1n }),
          /** cleaned, not-due, abandoned or failed: how the last look at the partition ended. */
          lastOutcome: field(string),
          lastError: field(string, { nullable: '0+', default: null }),
          lastCleanRemovedBytes: field(int64, { default: -1n }),
          removedBytesTotal: field(int64),
          /** now, dirty-ratio (when the ratio is reached) or retry (after a failed attempt). */
          nextCleanDue: field(string),
          /** dirty-ratio: the latest time by max.compaction.lag.ms; retry: when; else -1. */
          nextCleanDueAtMs: field(int64, { default: -1n }),
        }),
      ),
    ),
  },
});
