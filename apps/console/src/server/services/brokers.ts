import type { Admin } from '@weir/protocol';
import type { BrokerList } from '../api/schemas/brokers';

/** Brokers with the partitions they lead and hold, from one metadata read of every topic. */
export async function listBrokers(
  admin: Pick<Admin, 'describeCluster' | 'listTopics' | 'describeTopics'>,
  now: () => number,
): Promise<BrokerList> {
  const cluster = await admin.describeCluster();
  const names = await admin.listTopics({ includeInternal: true });
  const topics = names.length === 0 ? [] : await admin.describeTopics(names);
  const asOfMs = now();
  const leaders = new Map<number, number>();
  const replicas = new Map<number, number>();
  for (const topic of topics) {
    for (const partition of topic.partitions) {
      leaders.set(partition.leaderId, (leaders.get(partition.leaderId) ?? 0) + 1);
      for (const nodeId of partition.replicaNodes) replicas.set(nodeId, (replicas.get(nodeId) ?? 0) + 1);
    }
  }
  return {
    asOfMs,
    clusterId: cluster.clusterId,
    controllerId: cluster.controllerId,
    brokers: [...cluster.brokers]
      .sort((left, right) => left.nodeId - right.nodeId)
      .map((broker) => ({
        nodeId: broker.nodeId,
        host: broker.host,
        port: broker.port,
        rack: broker.rack,
        isController: broker.nodeId === cluster.controllerId,
        leaderCount: leaders.get(broker.nodeId) ?? 0,
        replicaCount: replicas.get(broker.nodeId) ?? 0,
      })),
  };
}
