import { Counter, Gauge, type Registry } from 'prom-client';
import { scrapeSnapshot } from './scrape-snapshot';

/** One compacted partition as the log cleaner last judged it, at scrape time. */
export interface LogCleanerPartitionStats {
  topic: string;
  partition: number;
  dirtyRatio: number;
  /** When a clean of the partition last finished; undefined before the first since the start. */
  lastCleanedAtMs: number | undefined;
  removedBytesTotal: number;
  /** The last attempt to clean it failed (a storage error): the cleaner skips it a while. */
  failed: boolean;
}

/**
 * Registers the log cleaner's metrics, read from the cleaner's own record of each compacted
 * partition when scraped (nothing is counted on the cleaning path): per partition its dirty ratio,
 * the bytes its cleans removed and when it was last cleaned; for the broker the largest dirty ratio
 * as a percentage and the partitions whose last clean failed (Kafka's LogCleanerManager
 * max-dirty-percent and uncleanable-partitions-count). One scrape asks the cleaner once.
 */
export function registerLogCleanerMetrics(
  registry: Registry,
  onCollectError: (error: unknown) => void,
): (collect: () => LogCleanerPartitionStats[]) => void {
  const { current: currentSnapshot, setSource } = scrapeSnapshot<LogCleanerPartitionStats>(onCollectError);
  const registers = [registry];
  const labels = (stats: LogCleanerPartitionStats) => ({ topic: stats.topic, partition: stats.partition });
  const dirtyRatio: Gauge<'topic' | 'partition'> = new Gauge({
    name: 'weir_log_cleaner_dirty_ratio',
    help: 'Share of a compacted partition not yet cleaned (dirty bytes over cleanable bytes) when the cleaner last judged it; a clean is due at min.cleanable.dirty.ratio.',
    labelNames: ['topic', 'partition'],
    registers,
    collect: () => {
      dirtyRatio.reset();
      for (const stats of currentSnapshot()) dirtyRatio.set(labels(stats), stats.dirtyRatio);
    },
  });
  const removedBytes: Counter<'topic' | 'partition'> = new Counter({
    name: 'weir_log_cleaner_bytes_removed_total',
    help: 'Bytes the log cleaner removed from a compacted partition (read minus written) since the broker started.',
    labelNames: ['topic', 'partition'],
    registers,
    collect: () => {
      removedBytes.reset();
      for (const stats of currentSnapshot()) removedBytes.inc(labels(stats), stats.removedBytesTotal);
    },
  });
  const lastClean: Gauge<'topic' | 'partition'> = new Gauge({
    name: 'weir_log_cleaner_last_clean_timestamp_seconds',
    help: 'When a clean of a compacted partition last finished (Unix seconds); absent before its first clean since the broker started.',
    labelNames: ['topic', 'partition'],
    registers,
    collect: () => {
      lastClean.reset();
      for (const stats of currentSnapshot()) {
        if (stats.lastCleanedAtMs !== undefined) lastClean.set(labels(stats), stats.lastCleanedAtMs / 1000);
      }
    },
  });
  const maxDirtyPercent: Gauge = new Gauge({
    name: 'weir_log_cleaner_max_dirty_percent',
    help: 'The largest dirty ratio of any compacted partition on this broker, in percent (0 with none).',
    registers,
    collect: () => {
      const largest = currentSnapshot().reduce((max, stats) => Math.max(max, stats.dirtyRatio), 0);
      maxDirtyPercent.set(largest * 100);
    },
  });
  const uncleanable: Gauge = new Gauge({
    name: 'weir_log_cleaner_uncleanable_partitions',
    help: 'Compacted partitions whose last clean failed; the cleaner tries them again after log.cleaner.backoff.ms.',
    registers,
    collect: () => {
      uncleanable.set(currentSnapshot().filter((stats) => stats.failed).length);
    },
  });
  return setSource;
}
