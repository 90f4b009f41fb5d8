import type { Admin, PartitionMetadata } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { clusterOverview } from '../src/server/services/cluster-overview';
import { readPartitionHealth, replicationReason } from '../src/server/services/partition-health';

type MetadataAdmin = Pick<Admin, 'listTopics' | 'describeTopics'>;

function partition(index: number, leaderId: number, replicas: number[], isr: number[]): PartitionMetadata {
  return {
    partition: index,
    leaderId,
    replicaNodes: replicas,
    isrNodes: isr,
    offlineReplicas: leaderId < 0 ? replicas : [],
    errorCode: 0,
  };
}

/** Metadata of a three-broker cluster with one healthy, one under-replicated and one offline partition. */
const admin: MetadataAdmin = {
  listTopics: async () => ['orders', '__consumer_offsets'],
  describeTopics: async () => [
    {
      name: 'orders',
      isInternal: false,
      partitions: [
        partition(0, 1, [1, 2, 3], [1, 2, 3]),
        partition(1, 2, [1, 2, 3], [2]),
        partition(2, -1, [3], []),
      ],
    },
    { name: '__consumer_offsets', isInternal: true, partitions: [partition(0, 1, [1, 2], [1])] },
  ],
};

describe('partition health', () => {
  it('counts offline partitions (no leader) apart from under-replicated ones (ISR < replicas)', async () => {
    const health = await readPartitionHealth(admin);
    expect(health.offline).toEqual(['orders-2']);
    expect(health.underReplicated.map((entry) => entry.name)).toEqual(['orders-1', '__consumer_offsets-0']);
  });

  it('names the under-replicated partitions and their ISR sizes in the health reason', async () => {
    const reason = replicationReason(await readPartitionHealth(admin));
    expect(reason).toEqual({
      check: 'replication',
      ok: false,
      detail: '2 under-replicated: orders-1 (ISR 1 of 3), __consumer_offsets-0 (ISR 1 of 2)',
    });
  });

  it('puts the counts in the overview and reports a failed metadata read as a reason', async () => {
    const describeBroker = async () => ({
      nodeId: 1,
      clusterId: 'c',
      version: 'v',
      startedAtMs: 0,
      listeners: [],
      checks: [{ name: 'storage', ok: true, detail: 'recovered' }],
      topicCount: 1,
      internalTopicCount: 1,
      partitionCount: 4,
      groupCount: 0,
      connectionCount: 0,
      logSizeBytes: 0n,
      throughput: {
        windowMs: 60_000,
        bytesInPerSecond: 0,
        recordsInPerSecond: 0,
        bytesOutPerSecond: 0,
        recordsOutPerSecond: 0,
        requestsPerSecond: 0,
      },
    });
    const now = () => 1;
    const overview = await clusterOverview(
      { describeBroker, readPartitionHealth: () => readPartitionHealth(admin) },
      'broker:9093',
      now,
    );
    expect(overview.counts).toMatchObject({ underReplicatedPartitions: 2, offlinePartitions: 1 });
    expect(overview.health.status).toBe('degraded');
    expect(overview.health.reasons[0]?.check).toBe('replication');

    const failing = await clusterOverview(
      {
        describeBroker,
        readPartitionHealth: () => {
          throw new Error('metadata timed out');
        },
      },
      'broker:9093',
      now,
    );
    expect(failing.counts).toMatchObject({ underReplicatedPartitions: null, offlinePartitions: null });
    expect(failing.health.reasons[0]).toMatchObject({ check: 'replication', ok: false });
    expect(failing.health.reasons[0]?.detail).toContain('metadata timed out');
  });
});
