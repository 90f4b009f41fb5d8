import { rm } from 'node:fs/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import { pollUntil } from '../group-fixtures';
import { kafkaOf, kcatProduce, kcatReadAll, storedAssignment } from './cluster-clients';
import { createReplicatedTopics, startReplicatedCluster } from './replicated-cluster';
import { assignmentWhere } from './replication-workload';

const TIMEOUT_MS = 240_000;

describe('replication', { timeout: TIMEOUT_MS }, () => {
  it('replicates acks=all records to every replica and keeps them when the leader is killed', async () => {
    const cluster = await startReplicatedCluster();
    await createReplicatedTopics(cluster, ['replicated'], 1);
    const lines = Array.from({ length: 50 }, (_, index) => `k${index}:v${index}`);
    await kcatProduce(cluster.bootstrapServers.join(','), 'replicated', lines, 0);
    const before = await storedAssignment(cluster, 'replicated', 0);
    expect(before.replicas).toHaveLength(3);
    const leader = cluster.broker(before.leader);
    await leader.kill9();
    await pollUntil(async () => {
      const now = await storedAssignment(cluster, 'replicated', 0);
      return now.leader !== before.leader && now.leader > 0;
    }, 'a new leader');
    const survivor = cluster.brokers.find((broker) => broker.nodeId !== before.leader)!;
    const read = await kcatReadAll(survivor.bootstrap, 'replicated');
    expect(read.map((line) => line.split(' ')[3])).toEqual(lines.map((line) => line.split(':')[1]));
    await kcatProduce(survivor.bootstrap, 'replicated', ['after:failover'], 0);
    await leader.restart();
    await pollUntil(
      async () => (await storedAssignment(cluster, 'replicated', 0)).isr.length === 3,
      'the restarted broker to rejoin the ISR',
    );
  });

  it('takes a follower that came back on an empty disk out of the ISR until it has copied the log again', async () => {
    const cluster = await startReplicatedCluster();
    await createReplicatedTopics(cluster, ['disk-loss'], 1);
    const lines = Array.from({ length: 30 }, (_, index) => `k${index}:v${index}`);
    await kcatProduce(cluster.bootstrapServers.join(','), 'disk-loss', lines, 0);
    const before = await storedAssignment(cluster, 'disk-loss', 0);
    expect(Object.keys(before.memberStorage ?? {}).sort()).toEqual(['1', '2', '3']);
    const follower = cluster.broker(before.replicas.find((id) => id !== before.leader)!);
    const oldStorage = before.memberStorage![String(follower.nodeId)];
    await follower.kill9();
    await rm(follower.dataDir, { recursive: true, force: true });
    follower.spawn();
    await follower.waitReady();
    const after = await pollUntil(async () => {
      const now = await storedAssignment(cluster, 'disk-loss', 0);
      const storage = now.memberStorage?.[String(follower.nodeId)];
      return now.isr.length === 3 && storage !== undefined && storage !== oldStorage ? now : undefined;
    }, 'the follower back in the ISR with its new disk');
    expect(after.leader).toBe(before.leader);
    const read = await kcatReadAll(cluster.bootstrapServers.join(','), 'disk-loss');
    expect(read.map((line) => line.split(' ')[3])).toEqual(lines.map((line) => line.split(':')[1]));
  });

  it("starts a follower over at the leader's log start when what it lacks was deleted meanwhile", async () => {
    const cluster = await startReplicatedCluster();
    await createReplicatedTopics(cluster, ['moved-start'], 1);
    const bootstrap = cluster.bootstrapServers.join(',');
    await kcatProduce(bootstrap, 'moved-start', ['k:a0', 'k:a1', 'k:a2'], 0);
    const before = await storedAssignment(cluster, 'moved-start', 0);
    const follower = cluster.broker(before.replicas.find((id) => id !== before.leader)!);
    await follower.kill9();
    const later = Array.from({ length: 20 }, (_, index) => `k:b${index}`);
    await kcatProduce(bootstrap, 'moved-start', later, 0);
    const admin = kafkaOf(cluster).admin();
    await admin.connect();
    onTestFinished(() => admin.disconnect());
    // Everything the stopped follower has, and more, is deleted on the leader.
    await admin.fetchTopicMetadata({ topics: ['moved-start'] });
    await admin.deleteTopicRecords({ topic: 'moved-start', partitions: [{ partition: 0, offset: '13' }] });
    follower.spawn();
    await follower.waitReady();
    await assignmentWhere(
      cluster,
      'moved-start',
      0,
      'the follower back in the ISR',
      (a) => a.isr.length === 3,
    );
    const read = await kcatReadAll(bootstrap, 'moved-start');
    expect(read.map((line) => line.split(' ')[3])).toEqual(later.slice(10).map((line) => line.split(':')[1]));
  });
});
