import type { Admin, CurrentPlacement, DrainCandidate } from '@weir/protocol';

/** What a reassignment command reads before it plans: placement, brokers and log sizes. */
export interface ClusterPlacement {
  placements: CurrentPlacement[];
  /** The ISR of each partition, by `topic-partition`. */
  isrOf: Map<string, readonly number[]>;
  brokers: DrainCandidate[];
  /** A replica's log size as its broker reports it (DescribeLogDirs); undefined when not reported. */
  sizeBytesOf(topic: string, partition: number, brokerId: number): number | undefined;
}

/**
 * Reads every topic's placement (internal topics too: they can be moved like any other), the
 * brokers with their racks, and every broker's log sizes, in three requests.
 */
export async function readClusterPlacement(admin: Admin): Promise<ClusterPlacement> {
  const names = await admin.listTopics({ includeInternal: true });
  const [topics, cluster, logDirs] = await Promise.all([
    names.length === 0 ? [] : admin.describeTopics(names),
    admin.describeCluster(),
    admin.describeLogDirs(),
  ]);
  const placements: CurrentPlacement[] = [];
  const isrOf = new Map<string, readonly number[]>();
  for (const topic of topics) {
    for (const partition of topic.partitions) {
      placements.push({
        topic: topic.name,
        partition: partition.partition,
        replicas: partition.replicaNodes,
        leader: partition.leaderId,
      });
      isrOf.set(`${topic.name}-${partition.partition}`, partition.isrNodes);
    }
  }
  const sizes = new Map<string, number>();
  for (const dir of logDirs) {
    for (const replica of dir.replicas) {
      sizes.set(`${replica.topic}\u0000${replica.partition}\u0000${dir.brokerId}`, replica.sizeBytes);
    }
  }
  return {
    placements,
    isrOf,
    brokers: cluster.brokers.map((broker) => ({
      brokerId: broker.nodeId,
      ...(broker.rack === null ? {} : { rack: broker.rack }),
    })),
    sizeBytesOf: (topic, partition, brokerId) => sizes.get(`${topic}\u0000${partition}\u0000${brokerId}`),
  };
}
