import { Admin, Client, Producer } from '@weir/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { pollUntil } from '../group-fixtures';
import { startBrokerCluster } from './broker-cluster';
import { storedAssignment } from './cluster-clients';
import { startEtcd } from './etcd-process';

const TIMEOUT_MS = 180_000;

/**
 * DescribeLogDirs on a three-broker cluster through the SDK, without a broker id: each broker
 * answers for itself, so a partition with three replicas is in three directories, the leader's and
 * the followers', with the same size once the followers caught up and no lag.
 */
describe('DescribeLogDirs on a cluster', { timeout: TIMEOUT_MS }, () => {
  it("answers every broker's directory, with the followers' replicas caught up to the leader", async () => {
    const etcd = await startEtcd();
    onTestFinished(() => etcd.stop());
    const cluster = await startBrokerCluster({ etcd, brokers: 3 });
    onTestFinished(() => cluster.stop());
    const client = new Client({ bootstrapServers: cluster.bootstrapServers, clientId: 'log-dirs-cluster' });
    onTestFinished(() => client.close());
    const admin = new Admin(client);
    await admin.createTopics([{ name: 'replicated', partitions: 1, replicationFactor: 3 }]);
    await pollUntil(async () => {
      const assignment = await storedAssignment(cluster, 'replicated', 0);
      return assignment.leader > 0 && assignment.isr.length === 3 ? assignment : undefined;
    }, 'a full ISR on replicated-0');
    const producer = new Producer(client, { lingerMs: 0, acks: -1 });
    await producer.send({
      topic: 'replicated',
      messages: Array.from({ length: 50 }, (_, i) => ({ value: `r${i}` })),
    });
    await producer.close();

    const filter = { topics: [{ topic: 'replicated', partitions: [0] }] };
    const dirs = await pollUntil(async () => {
      const answered = await admin.describeLogDirs(undefined, filter);
      const sizes = answered.map((dir) => dir.replicas[0]?.sizeBytes);
      return sizes.length === 3 && sizes.every((size) => size !== undefined && size === sizes[0])
        ? answered
        : undefined;
    }, 'three replicas of replicated-0 of the same size');
    expect(dirs.map((dir) => dir.brokerId)).toEqual([1, 2, 3]);
    expect(new Set(dirs.map((dir) => dir.path)).size).toBe(3);
    for (const dir of dirs) {
      expect(dir.replicas).toEqual([
        {
          topic: 'replicated',
          partition: 0,
          sizeBytes: dirs[0]!.replicas[0]!.sizeBytes,
          offsetLag: 0,
          isFuture: false,
        },
      ]);
    }
    expect(dirs[0]!.replicas[0]!.sizeBytes).toBeGreaterThan(50 * 2);
  });
});
