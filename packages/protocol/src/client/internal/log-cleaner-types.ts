/** When a compacted partition's next clean is due (WeirDescribeLogCleaner). */
export type LogCleanerNextClean =
  /** Due: the cleaner's next round takes it. */
  | { readonly kind: 'now' }
  /**
   * Once the dirty ratio reaches min.cleanable.dirty.ratio (counting records older than
   * min.compaction.lag.ms); by `latestAtMs` at the latest when max.compaction.lag.ms is set.
   */
  | { readonly kind: 'dirty-ratio'; readonly latestAtMs: number | null }
  /** The last attempt failed or was given up; the cleaner tries again at `atMs`. */
  | { readonly kind: 'retry'; readonly atMs: number };

/** How the cleaner's last look at a partition ended. */
export type LogCleanerOutcome = 'cleaned' | 'not-due' | 'abandoned' | 'failed';

/** One compacted partition on one broker, as that broker's log cleaner last judged it. */
export interface LogCleanerPartitionState {
  /** The broker holding this replica: each broker cleans its own. */
  readonly brokerId: number;
  readonly topic: string;
  readonly partition: number;
  /** Whether {@link brokerId} leads the partition. */
  readonly leader: boolean;
  /** Where the dirty part starts (the cleaner checkpoint); null before the first clean. */
  readonly cleanedUpToOffset: bigint | null;
  /** Dirty bytes over cleanable bytes, 0 to 1. */
  readonly dirtyRatio: number;
  readonly minCleanableDirtyRatio: number;
  readonly lastCleanedAtMs: number | null;
  readonly lastOutcome: LogCleanerOutcome;
  readonly lastError: string | null;
  /** What the last finished clean removed (bytes read minus written); null before one. */
  readonly lastCleanRemovedBytes: bigint | null;
  /** Removed by this broker's cleans since it started. */
  readonly removedBytesTotal: bigint;
  readonly nextCleanDue: LogCleanerNextClean;
}
