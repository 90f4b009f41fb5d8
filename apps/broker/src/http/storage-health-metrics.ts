import { Gauge, type Registry } from 'prom-client';

/** How many of the broker's partitions cannot fully serve, by why, at scrape time. */
export interface StorageHealthStats {
  /** Partitions whose log is offline (damaged or failed storage): neither reads nor writes. */
  offline: number;
  /** Partitions out of disk space: reads served, writes refused until space is freed. */
  writeDegraded: number;
}

/**
 * Registers `weir_partitions_offline` and `weir_partitions_write_degraded`, read from the broker
 * when scraped. Alert on either being above 0: the broker stays ready (`/ready` answers 200 and
 * lists them) because it still serves everything else.
 */
export function registerStorageHealthGauges(
  registry: Registry,
  onCollectError: (error: unknown) => void,
): (collect: () => StorageHealthStats) => void {
  let collect: () => StorageHealthStats = () => ({ offline: 0, writeDegraded: 0 });
  const gaugeOf = (name: string, help: string, value: (stats: StorageHealthStats) => number) => {
    const gauge: Gauge = new Gauge({
      name,
      help,
      registers: [registry],
      collect: () => {
        try {
          gauge.set(value(collect()));
        } catch (error) {
          gauge.reset();
          onCollectError(error);
        }
      },
    });
  };
  gaugeOf(
    'weir_partitions_offline',
    'Partitions whose log is offline after a storage error or damage found at start; they serve neither reads nor writes until repaired (weir log check / repair).',
    (stats) => stats.offline,
  );
  gaugeOf(
    'weir_partitions_write_degraded',
    'Partitions refusing writes because the disk ran out of space; they serve reads and accept writes again by themselves once space is freed.',
    (stats) => stats.writeDegraded,
  );
  return (next) => {
    collect = next;
  };
}
