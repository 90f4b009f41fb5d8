import { ErrorCode } from '@weir/protocol';
import { CoordinatorShard } from '../coordination/coordinator-shard';
import type { ShardLifecycle } from '../coordination/coordinator-shards';
import type { Group } from './group';
import { GroupLoader } from './group-persistence';
import type { GroupScheduler } from './group-scheduler';
import type { GroupLogSource, GroupStore, ReplayReport } from './offsets-topic';
import type { Rebalancer } from './rebalancer';

/** The groups of one `__consumer_offsets` partition while this broker leads it. */
export class GroupShard extends CoordinatorShard {
  readonly groups = new Map<string, Group>();
}

export interface GroupShardLifecycleDeps {
  /** Where shards are replayed from. */
  source(): GroupLogSource;
  /** Where a shard that replayed outdated records rewrites its state. */
  store(): GroupStore;
  scheduler: GroupScheduler;
  rebalancer: Rebalancer;
  /** Starts the session timers of a loaded consumer-protocol group's members. */
  armConsumerGroup(group: Group): void;
  /** Told what each replay read, for the log. */
  onReplayed(shard: GroupShard, report: ReplayReport): void;
  /** Told when a replay's outdated records were rewritten in the current layout, for the log. */
  onUpgraded(shard: GroupShard, upgrade: { outdated: number; rewritten: number }): void;
}

/**
 * How the group coordinator gains and loses a partition: a replay rebuilds the partition's groups
 * (loaded members get a fresh session, so they have that long to show up again), and a shard that
 * loses its partition answers its parked JoinGroup and SyncGroup requests with NOT_COORDINATOR (the
 * clients look for the new coordinator), stops its timers and marks its groups Dead, as Kafka
 * unloads a partition's groups.
 */
export function groupShardLifecycle(deps: GroupShardLifecycleDeps): ShardLifecycle<GroupShard, GroupLoader> {
  return {
    create: (partition, leaderEpoch) => new GroupShard(partition, leaderEpoch),
    async replay(shard) {
      const loader = new GroupLoader();
      const report = await deps
        .source()
        .replay(shard.partition, shard.leaderEpoch, (record) => loader.apply(record));
      deps.onReplayed(shard, report);
      if (report.outdated > 0) {
        // The one-time upgrade from Weir's earlier layout (offsets-records.ts): the live state is
        // written again in Kafka's, before the shard serves, so no commit can land in between and
        // be overwritten by it; compaction then removes the outdated records it supersedes.
        const records = loader.records();
        await deps.store().write(shard.partition, shard.leaderEpoch, records, { durable: true });
        deps.onUpgraded(shard, { outdated: report.outdated, rewritten: records.length });
      }
      return loader;
    },
    install(shard, loader) {
      for (const group of loader.build(deps.scheduler.nowMs())) {
        shard.groups.set(group.groupId, group);
        for (const member of group.members.values()) deps.rebalancer.armSession(group, member);
        deps.armConsumerGroup(group);
      }
    },
    drop(shard) {
      const nowMs = deps.scheduler.nowMs();
      for (const group of shard.groups.values()) {
        deps.rebalancer.shutDownGroup(group, ErrorCode.NOT_COORDINATOR);
        group.consumer?.markDead();
        group.transitionTo('Dead', nowMs);
      }
      shard.groups.clear();
    },
  };
}
