import { Counter, Gauge, type Registry } from 'prom-client';
import type { ReplicationHealth } from '../cluster/replication-health';

/** The replication events the broker counts as they happen. */
export interface ReplicationCounters {
  /** ISR changes this broker stored that removed a member (Kafka's IsrShrinksPerSec). */
  isrShrinksTotal: Counter;
  /** ISR changes this broker stored that added a member (Kafka's IsrExpandsPerSec). */
  isrExpandsTotal: Counter;
  /**
   * Leader changes the controller stored, by the reason it elected, and elections this broker made
   * on demand or for the rebalance, by their cause (Kafka's LeaderElectionRateAndTimeMs).
   */
  leaderElectionsTotal: Counter<'reason'>;
  /** Of those, elections of an out-of-sync replica (Kafka's UncleanLeaderElectionsPerSec). */
  uncleanLeaderElectionsTotal: Counter;
}

const EMPTY_HEALTH: ReplicationHealth = {
  underReplicated: [],
  underMinIsr: [],
  atMinIsr: [],
  leaderless: undefined,
  followerLags: [],
};

/**
 * Registers the replication gauges, read from the broker when scraped (one read per scrape, shared
 * by the gauges like the partition gauges), and the replication counters. Alert on
 * `weir_partitions_under_min_isr` and `weir_partitions_leaderless` above 0: acks=all writes are
 * refused, or nothing is served, there.
 */
export function registerReplicationMetrics(
  registry: Registry,
  onCollectError: (error: unknown) => void,
): { counters: ReplicationCounters; setCollector: (collect: () => ReplicationHealth) => void } {
  const registers = [registry];
  let collect: () => ReplicationHealth = () => EMPTY_HEALTH;
  let snapshot: ReplicationHealth | undefined;
  const currentSnapshot = (): ReplicationHealth => {
    if (snapshot === undefined) {
      try {
        snapshot = collect();
      } catch (error) {
        snapshot = EMPTY_HEALTH;
        onCollectError(error);
      }
      queueMicrotask(() => {
        snapshot = undefined;
      });
    }
    return snapshot;
  };
  const countOf = (name: string, help: string, value: (health: ReplicationHealth) => number): void => {
    const gauge: Gauge = new Gauge({
      name,
      help,
      registers,
      collect: () => {
        gauge.set(value(currentSnapshot()));
      },
    });
  };
  // Kafka's UnderReplicatedPartitions.
  countOf(
    'weir_partitions_under_replicated',
    'Partitions led by this broker whose ISR is smaller than their replica set.',
    (health) => health.underReplicated.length,
  );
  // Kafka's UnderMinIsrPartitionCount.
  countOf(
    'weir_partitions_under_min_isr',
    'Partitions led by this broker whose ISR is below min.insync.replicas: produces with acks=all get NOT_ENOUGH_REPLICAS.',
    (health) => health.underMinIsr.length,
  );
  // Kafka's AtMinIsrPartitionCount.
  countOf(
    'weir_partitions_at_min_isr',
    'Partitions led by this broker whose ISR has exactly min.insync.replicas members: one more loss refuses acks=all.',
    (health) => health.atMinIsr.length,
  );
  // Kafka's OfflinePartitionsCount, which only the active controller reports.
  countOf(
    'weir_partitions_leaderless',
    'Partitions of the cluster without a live leader, counted by the controller only (0 on other brokers).',
    (health) => health.leaderless?.length ?? 0,
  );
  const lagGauge = (
    name: string,
    help: string,
    value: (lag: ReplicationHealth['followerLags'][number]) => number,
  ): void => {
    const gauge: Gauge<'topic' | 'partition' | 'follower'> = new Gauge({
      name,
      help,
      labelNames: ['topic', 'partition', 'follower'],
      registers,
      collect: () => {
        gauge.reset();
        for (const lag of currentSnapshot().followerLags) {
          gauge.set({ topic: lag.topic, partition: lag.partition, follower: lag.follower }, value(lag));
        }
      },
    });
  };
  // Kafka's per-replica lag (kafka.server:type=FetcherLagMetrics on the follower; here the leader's view).
  lagGauge(
    'weir_replica_lag_records',
    "Records a follower is behind the leader's log end, on the partition's leader.",
    (lag) => lag.lagRecords,
  );
  lagGauge(
    'weir_replica_lag_ms',
    'Milliseconds since a follower was last caught up with the leader, on the partition leader.',
    (lag) => lag.lagMs,
  );
  const counters: ReplicationCounters = {
    isrShrinksTotal: new Counter({
      name: 'weir_isr_shrinks_total',
      help: 'ISR changes stored by this broker that removed a member: as leader (a follower fell behind) or as controller (a member broker is not live).',
      registers,
    }),
    isrExpandsTotal: new Counter({
      name: 'weir_isr_expands_total',
      help: 'ISR changes stored by this broker as leader that added a caught-up follower.',
      registers,
    }),
    leaderElectionsTotal: new Counter({
      name: 'weir_leader_elections_total',
      help: 'Partition leader changes stored by this broker as controller or for ElectLeaders, by reason (leader-not-live, offline-partition, unclean, preferred-election, auto-leader-rebalance).',
      labelNames: ['reason'],
      registers,
    }),
    uncleanLeaderElectionsTotal: new Counter({
      name: 'weir_unclean_leader_elections_total',
      help: 'Leader elections of an out-of-sync replica (unclean.leader.election.enable): acknowledged records may be lost.',
      registers,
    }),
  };
  return {
    counters,
    setCollector: (next) => {
      collect = next;
    },
  };
}
