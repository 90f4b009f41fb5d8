import { MetricTile, Panel, StatusBadge } from '@weir/ui';

// The numbers the overview will show once the admin gateway talks to a broker. Until then each
// one is unknown, which the tiles render as a dash rather than a misleading zero.
const plannedMetrics = ['Brokers', 'Topics', 'Partitions', 'Under-replicated'] as const;

/** The cluster health card, in its only state so far: no broker connection. */
export function OverviewPanel() {
  return (
    <Panel
      title="Cluster health"
      status={<StatusBadge tone="warning">Not connected</StatusBadge>}
      readAt={null}
    >
      <p className="max-w-prose text-sm text-zinc-600 leading-relaxed dark:text-zinc-300">
        The console is not connected to a broker yet. Once the admin gateway is in place, this panel lists
        concrete health reasons (unreachable brokers, leaderless or under-replicated partitions) along with
        brokers and throughput, each marked with the time it was read.
      </p>
      <dl className="mt-5 grid grid-cols-2 gap-3 lg:grid-cols-4">
        {plannedMetrics.map((label) => (
          <MetricTile key={label} label={label} value={null} />
        ))}
      </dl>
    </Panel>
  );
}
