import { Counter, Gauge, type Registry } from 'prom-client';

/** What the broker reports about consumer groups at scrape time. */
export interface GroupMetricsSnapshot {
  rebalancesTotal: number;
  groups: {
    groupId: string;
    state: string;
    members: number;
    partitions: { topic: string; partition: number; lag: number }[];
  }[];
}

/**
 * Registers the consumer-group metrics, computed from the coordinator's state when scraped (lag is
 * derived from committed offsets and high watermarks then, never tracked per commit): members per
 * group, the group's state as a 0/1 gauge per state, lag per group and partition, and rebalances.
 * One scrape asks the coordinator once; the snapshot is shared by every group metric.
 */
export function registerGroupMetrics(
  registry: Registry,
  onCollectError: (error: unknown) => void,
): (collect: () => GroupMetricsSnapshot) => void {
  let collect: () => GroupMetricsSnapshot = () => ({ rebalancesTotal: 0, groups: [] });
  let snapshot: GroupMetricsSnapshot | undefined;
  const currentSnapshot = (): GroupMetricsSnapshot => {
    if (snapshot === undefined) {
      try {
        snapshot = collect();
      } catch (error) {
        snapshot = { rebalancesTotal: 0, groups: [] };
        onCollectError(error);
      }
      queueMicrotask(() => {
        snapshot = undefined;
      });
    }
    return snapshot;
  };
  const registers = [registry];
  const members: Gauge<'group'> = new Gauge({
    name: 'weir_group_members',
    help: 'Members of a consumer group.',
    labelNames: ['group'],
    registers,
    collect: () => {
      members.reset();
      for (const group of currentSnapshot().groups) members.set({ group: group.groupId }, group.members);
    },
  });
  const state: Gauge<'group' | 'state'> = new Gauge({
    name: 'weir_group_state',
    help: 'The state a consumer group is in (1 for its current state).',
    labelNames: ['group', 'state'],
    registers,
    collect: () => {
      state.reset();
      for (const group of currentSnapshot().groups)
        state.set({ group: group.groupId, state: group.state }, 1);
    },
  });
  const lag: Gauge<'group' | 'topic' | 'partition'> = new Gauge({
    name: 'weir_group_partition_lag',
    help: 'Records between a group committed offset and the high watermark, per partition.',
    labelNames: ['group', 'topic', 'partition'],
    registers,
    collect: () => {
      lag.reset();
      for (const group of currentSnapshot().groups) {
        for (const partition of group.partitions) {
          lag.set(
            { group: group.groupId, topic: partition.topic, partition: partition.partition },
            partition.lag,
          );
        }
      }
    },
  });
  const rebalances: Counter = new Counter({
    name: 'weir_group_rebalances_total',
    help: 'Rebalances that completed (reached Stable) since the broker started.',
    registers,
    collect: () => {
      rebalances.reset();
      rebalances.inc(currentSnapshot().rebalancesTotal);
    },
  });
  return (next) => {
    collect = next;
  };
}
