import type { CompactionSettings } from './cleanable-range';
import type { CleanOutcome } from './partition-cleaner';

/**
 * When a partition's next clean is due, by the rules of cleanable-range.ts (Kafka's
 * LogCleanerManager): as soon as the dirty share of the log reaches min.cleanable.dirty.ratio,
 * counting only segments older than min.compaction.lag.ms, or once the oldest dirty record has
 * waited max.compaction.lag.ms, whatever the ratio.
 */
export type NextCleanDue =
  /** Due now: the next cleaner round takes the partition. */
  | { readonly kind: 'now' }
  /**
   * When the dirty ratio reaches min.cleanable.dirty.ratio; and at `latestAtMs` at the latest
   * when max.compaction.lag.ms is set and dirty records wait (undefined otherwise).
   */
  | { readonly kind: 'dirty-ratio'; readonly latestAtMs: number | undefined }
  /** The last attempt failed or was given up: the partition is judged again at `atMs` (log.cleaner.backoff.ms). */
  | { readonly kind: 'retry'; readonly atMs: number };

/**
 * The next clean after an attempt ended with `outcome` (undefined: it failed). `retryAtMs` is when
 * the cleaner looks at a partition again that it has set aside.
 */
export function nextCleanAfter(
  outcome: CleanOutcome | undefined,
  settings: Pick<CompactionSettings, 'maxCompactionLagMs'>,
  retryAtMs: number,
): NextCleanDue {
  if (outcome === undefined || outcome.kind === 'abandoned') return { kind: 'retry', atMs: retryAtMs };
  const { range } = outcome;
  if (outcome.kind === 'cleaned') {
    // A clean that stopped short of the cleanable range (its key map filled up) left dirty
    // segments that were due with the rest; what arrived meanwhile is judged next round.
    return outcome.cleanedUpToOffset < range.firstUncleanableOffset
      ? { kind: 'now' }
      : { kind: 'dirty-ratio', latestAtMs: undefined };
  }
  const waiting = range.dirtyBytes > 0 && range.oldestDirtyTimestampMs !== undefined;
  const latestAtMs =
    waiting && Number.isFinite(settings.maxCompactionLagMs)
      ? range.oldestDirtyTimestampMs! + settings.maxCompactionLagMs
      : undefined;
  return { kind: 'dirty-ratio', latestAtMs };
}
