import { MetricTile, Panel } from '@weir/ui';
import type { ReactNode } from 'react';
import type { ClusterOverview } from '../../server/api/schemas/cluster';
import { formatBytesPerSecond, formatPerSecond } from './format-rate';

type ThroughputPanelProps = { throughput: ClusterOverview['throughput']; asOf: ReactNode };

/** Produce and consume rates averaged over the broker's sampling window. */
export function ThroughputPanel({ throughput, asOf }: ThroughputPanelProps) {
  const value = (format: (rate: number) => string, rate: number | undefined) =>
    rate === undefined ? null : format(rate);
  return (
    <Panel title="Throughput" actions={asOf}>
      <dl className="grid grid-cols-2 gap-3 xl:grid-cols-4">
        <MetricTile
          label="Produce (records)"
          value={value(formatPerSecond, throughput?.recordsInPerSecond)}
        />
        <MetricTile
          label="Produce (bytes)"
          value={value(formatBytesPerSecond, throughput?.bytesInPerSecond)}
        />
        <MetricTile
          label="Consume (records)"
          value={value(formatPerSecond, throughput?.recordsOutPerSecond)}
        />
        <MetricTile
          label="Consume (bytes)"
          value={value(formatBytesPerSecond, throughput?.bytesOutPerSecond)}
        />
      </dl>
      {throughput ? (
        <p className="mt-3 text-xs text-zinc-500 dark:text-zinc-400">
          Averaged over the last {Math.round(throughput.windowMs / 1000)} s;{' '}
          {formatPerSecond(throughput.requestsPerSecond)} requests.
        </p>
      ) : null}
    </Panel>
  );
}
