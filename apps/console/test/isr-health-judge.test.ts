import { judgePartition, PARTITION_HEALTH_STATES } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { partitionReplicationStateSchema } from '../src/server/api/schemas/replication';
import { createBrokerReachability } from '../src/server/cluster/broker-reachability';
import { type ReplicationHealthSources, readReplicationHealth } from '../src/server/services/isr-health';

/*
 * The ISR page's judgement is the SDK's (packages/protocol/src/client/health, where its rules are
 * tested): these check that the console reads the cluster into it and shows its rows and words.
 */

const brokers = [
  { nodeId: 1, host: '127.0.0.1', port: 9001, rack: null },
  { nodeId: 2, host: '127.0.0.1', port: 9002, rack: null },
];

const partitions = [
  { partition: 0, leaderId: 1, replicaNodes: [1, 2, 3], isrNodes: [1, 2, 3] },
  { partition: 1, leaderId: 2, replicaNodes: [1, 2, 3], isrNodes: [2, 1] },
];

function sources(answer: (nodeId: number) => Promise<[]>): ReplicationHealthSources {
  return {
    admin: {
      describeCluster: async () => ({ clusterId: 'c', controllerId: 1, brokers }),
      listTopics: async () => ['orders'],
      describeTopics: async () => [{ name: 'orders', partitions }],
      describeConfigs: async () => [
        { name: 'orders', configs: [{ name: 'min.insync.replicas', value: '2' }] },
      ],
    } as never,
    ask: (broker) => answer(broker.nodeId),
    reachability: createBrokerReachability(),
  };
}

describe('the ISR page’s judgement', () => {
  it('is the SDK’s, row for row, with the brokers that did not answer named', async () => {
    const health = await readReplicationHealth(
      sources((nodeId) => (nodeId === 1 ? Promise.resolve([]) : Promise.reject(new Error('refused')))),
      {},
      () => 7,
    );
    const registered = new Set([1, 2]);
    expect(health.partitions).toEqual([judgePartition('orders', partitions[1]!, 2, registered, undefined)]);
    expect(health.partitions[0]!.states).toEqual(['at-min-isr', 'under-replicated', 'non-preferred-leader']);
    expect(health.partitions[0]!.reasons).toContain("broker 3's session ended");
    expect(health).toMatchObject({
      asOfMs: 7,
      partitionCount: 2,
      topicCount: 1,
      answeredBrokers: [1],
      unansweredBrokers: [{ brokerId: 2, detail: 'refused' }],
      counts: { offline: 0, underMinIsr: 0, atMinIsr: 1, underReplicated: 1, nonPreferredLeader: 1 },
    });
  });

  it('filters by state with the SDK’s state names', () => {
    expect(partitionReplicationStateSchema.options).toEqual([...PARTITION_HEALTH_STATES]);
  });
});
