import { Gauge, type Registry } from 'prom-client';

/** What the broker reports about one partition at scrape time. */
export interface PartitionStats {
  topic: string;
  partition: number;
  logStartOffset: number | bigint;
  logEndOffset: number | bigint;
  highWatermark: number | bigint;
  sizeBytes: number;
}

type PartitionGaugeField = Exclude<keyof PartitionStats, 'topic' | 'partition'>;

const PARTITION_GAUGES: readonly { field: PartitionGaugeField; name: string; help: string }[] = [
  {
    field: 'logStartOffset',
    name: 'weir_partition_log_start_offset',
    help: 'First offset still in the partition log.',
  },
  {
    field: 'logEndOffset',
    name: 'weir_partition_log_end_offset',
    help: 'Offset the next appended record will get.',
  },
  {
    field: 'highWatermark',
    name: 'weir_partition_high_watermark',
    help: 'Offset up to which records are committed and visible to consumers.',
  },
  { field: 'sizeBytes', name: 'weir_partition_size_bytes', help: 'Size of the partition log on disk.' },
];

/**
 * Registers the per-partition gauges, filled from the broker's own state each time they are
 * scraped rather than updated on every append, so the hot path pays nothing for them. One scrape
 * asks the broker once: the snapshot is shared by the four gauges until the scrape's synchronous
 * collection pass ends, which also keeps the four values of a partition consistent.
 */
export function registerPartitionGauges(
  registry: Registry,
  onCollectError: (error: unknown) => void,
): (collect: () => PartitionStats[]) => void {
  let collect: () => PartitionStats[] = () => [];
  let snapshot: PartitionStats[] | undefined;
  const currentSnapshot = (): PartitionStats[] => {
    if (snapshot === undefined) {
      try {
        snapshot = collect();
      } catch (error) {
        snapshot = [];
        onCollectError(error);
      }
      queueMicrotask(() => {
        snapshot = undefined;
      });
    }
    return snapshot;
  };
  for (const { field, name, help } of PARTITION_GAUGES) {
    const gauge: Gauge<'topic' | 'partition'> = new Gauge({
      name,
      help,
      labelNames: ['topic', 'partition'],
      registers: [registry],
      collect: () => {
        gauge.reset();
        for (const stats of currentSnapshot()) {
          gauge.set({ topic: stats.topic, partition: stats.partition }, Number(stats[field]));
        }
      },
    });
  }
  return (next) => {
    collect = next;
  };
}
