import type { ClusterView } from '../metadata/cluster-view';
import type { LocalReplicaState } from '../replica/partition-types';

/** One partition led here whose ISR is short of something, and by how much. */
export interface PartitionIsrShortfall {
  topic: string;
  partition: number;
  isrCount: number;
  replicaCount: number;
  minInsyncReplicas: number;
}

/** One follower of a partition led here and how far it is behind. */
export interface FollowerLagStats {
  topic: string;
  partition: number;
  follower: number;
  lagRecords: number;
  lagMs: number;
}

/** What this broker can say about replication, as of the moment it is asked. */
export interface ReplicationHealth {
  /** Led here, |ISR| < |replicas| (Kafka's UnderReplicatedPartitions). */
  underReplicated: PartitionIsrShortfall[];
  /** Led here, |ISR| < min.insync.replicas: acks=all is refused (Kafka's UnderMinIsrPartitionCount). */
  underMinIsr: PartitionIsrShortfall[];
  /** Led here, |ISR| = min.insync.replicas: one more loss refuses acks=all (AtMinIsrPartitionCount). */
  atMinIsr: PartitionIsrShortfall[];
  /**
   * `topic-partition` names of the partitions without a live leader, in the whole cluster (Kafka's
   * OfflinePartitionsCount); only the controller counts them, so summing over brokers counts each
   * once. Undefined on every other broker.
   */
  leaderless: string[] | undefined;
  /** Every follower of every partition led here. */
  followerLags: FollowerLagStats[];
}

export interface ReplicationHealthSources {
  replicas: { localReplicas(): { topic: string; partition: number; state: LocalReplicaState }[] };
  /** The cluster view in cluster mode; a standalone broker has no controller and no leaderless count. */
  view: Pick<ClusterView, 'controllerId' | 'topics' | 'assignmentsOf' | 'isLive'> | undefined;
  localBrokerId: number;
}

/**
 * Reads replication health from the replica layer's state of the partitions led here and, on the
 * controller, from the cluster view's assignments (docs/architecture.md §9). Computed when asked
 * (a scrape, a `/ready`), never tracked per append.
 */
export function replicationHealth(sources: ReplicationHealthSources): ReplicationHealth {
  const underReplicated: PartitionIsrShortfall[] = [];
  const underMinIsr: PartitionIsrShortfall[] = [];
  const atMinIsr: PartitionIsrShortfall[] = [];
  const followerLags: FollowerLagStats[] = [];
  for (const { topic, partition, state } of sources.replicas.localReplicas()) {
    if (state.role !== 'leader') continue;
    const shortfall: PartitionIsrShortfall = {
      topic,
      partition,
      isrCount: state.isr.length,
      replicaCount: state.replicas.length,
      minInsyncReplicas: state.minInsyncReplicas,
    };
    if (shortfall.isrCount < shortfall.replicaCount) underReplicated.push(shortfall);
    if (shortfall.isrCount < shortfall.minInsyncReplicas) underMinIsr.push(shortfall);
    else if (shortfall.isrCount === shortfall.minInsyncReplicas) atMinIsr.push(shortfall);
    for (const follower of state.followers) {
      followerLags.push({
        topic,
        partition,
        follower: follower.brokerId,
        lagRecords: follower.lagRecords,
        lagMs: follower.lagMs,
      });
    }
  }
  return { underReplicated, underMinIsr, atMinIsr, leaderless: leaderlessPartitions(sources), followerLags };
}

function leaderlessPartitions({ view, localBrokerId }: ReplicationHealthSources): string[] | undefined {
  if (view === undefined || view.controllerId !== localBrokerId) return undefined;
  const leaderless: string[] = [];
  for (const topic of view.topics()) {
    for (const assignment of view.assignmentsOf(topic.name)) {
      // A leader whose session ended counts too: until the controller's next pass elects another,
      // nobody serves the partition.
      if (assignment !== undefined && (assignment.leader === -1 || !view.isLive(assignment.leader))) {
        leaderless.push(`${assignment.topic}-${assignment.partition}`);
      }
    }
  }
  return leaderless;
}
