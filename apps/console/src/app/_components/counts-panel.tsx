import { formatBytes, formatCount, MetricTile, Panel } from '@weir/ui';
import type { ReactNode } from 'react';
import type { ClusterOverview } from '../../server/api/schemas/cluster';

type CountsPanelProps = {
  counts: ClusterOverview['counts'];
  logSizeBytes: ClusterOverview['logSizeBytes'];
  asOf: ReactNode;
};

/**
 * Headline counts; unknown values render as a dash, which is different from zero. Replication
 * problems are tiles too, coloured when above zero; the health panel names the partitions.
 */
export function CountsPanel({ counts, logSizeBytes, asOf }: CountsPanelProps) {
  const count = (value: number | null | undefined) => (value == null ? null : formatCount(value));
  const attention = (value: number | null | undefined, tone: 'warning' | 'error') =>
    value != null && value > 0 ? tone : 'neutral';
  return (
    <Panel title="Resources" actions={asOf}>
      <dl className="grid grid-cols-2 gap-3 xl:grid-cols-3">
        <MetricTile label="Topics" value={count(counts?.topics)} />
        <MetricTile label="Partitions" value={count(counts?.partitions)} />
        <MetricTile label="Consumer groups" value={count(counts?.groups)} />
        <MetricTile label="Log size" value={logSizeBytes === null ? null : formatBytes(logSizeBytes)} />
        <MetricTile
          label="Under-replicated partitions"
          value={count(counts?.underReplicatedPartitions)}
          tone={attention(counts?.underReplicatedPartitions, 'warning')}
        />
        <MetricTile
          label="Offline partitions"
          value={count(counts?.offlinePartitions)}
          tone={attention(counts?.offlinePartitions, 'error')}
        />
      </dl>
      {counts ? (
        <p className="mt-3 text-xs text-zinc-500 dark:text-zinc-400">
          Topic and partition counts exclude {formatCount(counts.internalTopics)} internal topic
          {counts.internalTopics === 1 ? '' : 's'}, as Topics does.
        </p>
      ) : null}
    </Panel>
  );
}
