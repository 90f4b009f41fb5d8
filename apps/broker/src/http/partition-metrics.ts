import { Gauge, type Registry } from 'prom-client';
import { scrapeSnapshot } from './scrape-snapshot';

/** What the broker reports about one partition at scrape time. */
export interface PartitionStats {
  topic: string;
  partition: number;
  logStartOffset: number | bigint;
  logEndOffset: number | bigint;
  highWatermark: number | bigint;
  /**
   * The last stable offset (read_committed consumers read up to it). Collectors that know nothing
   * of transactions leave it out, which reads as "equal to the high watermark".
   */
  lastStableOffset?: number | bigint;
  sizeBytes: number;
}

const PARTITION_GAUGES: readonly { value: (stats: PartitionStats) => number; name: string; help: string }[] =
  [
    {
      value: (stats) => Number(stats.logStartOffset),
      name: 'weir_partition_log_start_offset',
      help: 'First offset still in the partition log.',
    },
    {
      value: (stats) => Number(stats.logEndOffset),
      name: 'weir_partition_log_end_offset',
      help: 'Offset the next appended record will get.',
    },
    {
      value: (stats) => Number(stats.highWatermark),
      name: 'weir_partition_high_watermark',
      help: 'Offset up to which records are committed and visible to consumers.',
    },
    {
      // A gap that stays open means a transaction left open, holding read_committed consumers back.
      value: (stats) => Number(stats.highWatermark) - Number(stats.lastStableOffset ?? stats.highWatermark),
      name: 'weir_partition_lso_gap',
      help: 'High watermark minus last stable offset: offsets held back from read_committed consumers by open transactions.',
    },
    {
      value: (stats) => stats.sizeBytes,
      name: 'weir_partition_size_bytes',
      help: 'Size of the partition log on disk.',
    },
  ];

/**
 * Registers the per-partition gauges, filled from the broker's own state each time they are
 * scraped rather than updated on every append, so the hot path pays nothing for them. One scrape
 * asks the broker once: the snapshot is shared by the gauges until the scrape's synchronous
 * collection pass ends, which also keeps the values of a partition consistent.
 */
export function registerPartitionGauges(
  registry: Registry,
  onCollectError: (error: unknown) => void,
): (collect: () => PartitionStats[]) => void {
  const { current: currentSnapshot, setSource } = scrapeSnapshot<PartitionStats>(onCollectError);
  for (const { value, name, help } of PARTITION_GAUGES) {
    const gauge: Gauge<'topic' | 'partition'> = new Gauge({
      name,
      help,
      labelNames: ['topic', 'partition'],
      registers: [registry],
      collect: () => {
        gauge.reset();
        for (const stats of currentSnapshot()) {
          gauge.set({ topic: stats.topic, partition: stats.partition }, value(stats));
        }
      },
    });
  }
  return setSource;
}
