import { describe, expect, it, onTestFinished } from 'vitest';
import { pollUntil } from '../group-fixtures';
import type { BrokerCluster, ClusterBroker } from './broker-cluster';
import { kafkaOf, type StoredAssignment } from './cluster-clients';
import { createReplicatedTopics, startReplicatedCluster } from './replicated-cluster';
import { anomalyCounts, assignmentWhere, finalRead, startReplicationWorkload } from './replication-workload';

const TIMEOUT_MS = 600_000;

function leaderOf(cluster: BrokerCluster, assignment: StoredAssignment): ClusterBroker {
  return cluster.broker(assignment.leader);
}

describe('replication under faults', { timeout: TIMEOUT_MS }, () => {
  it('loses nothing acknowledged over 10 rounds of kill -9 of the busiest partition leader', async () => {
    const cluster = await startReplicatedCluster();
    await createReplicatedTopics(cluster, ['kills'], 2);
    const workload = await startReplicationWorkload(cluster, { topic: 'kills', partitions: [0, 1] });
    onTestFinished(() => workload.stop());
    for (let round = 0; round < 10; round++) {
      const before = await assignmentWhere(
        cluster,
        'kills',
        0,
        'a full ISR',
        (a) => a.leader > 0 && a.isr.length === 3,
      );
      const acknowledgedBefore = workload.acknowledged();
      const victim = leaderOf(cluster, before);
      await victim.kill9();
      await assignmentWhere(
        cluster,
        'kills',
        0,
        `a leader after broker ${victim.nodeId} died`,
        (a) => a.leader > 0 && a.leader !== victim.nodeId,
      );
      await pollUntil(
        () => workload.acknowledged() >= acknowledgedBefore + 10,
        'acknowledgements from the new leader',
        { timeoutMs: 60_000 },
      );
      victim.spawn();
      await victim.waitReady();
    }
    await workload.stop();
    const report = await finalRead(cluster, 'kills', [0, 1], workload.recorder);
    expect(anomalyCounts(report), JSON.stringify(report.anomalies.slice(0, 5))).toEqual({});
    expect(report.stats.sends.ok).toBeGreaterThan(100);
  });

  it('acknowledges nothing from a leader paused past its session, and loses nothing', async () => {
    const cluster = await startReplicatedCluster();
    await createReplicatedTopics(cluster, ['zombie'], 1);
    const workload = await startReplicationWorkload(cluster, { topic: 'zombie', partitions: [0] });
    onTestFinished(() => workload.stop());
    for (let round = 0; round < 3; round++) {
      const before = await assignmentWhere(
        cluster,
        'zombie',
        0,
        'a full ISR',
        (a) => a.leader > 0 && a.isr.length === 3,
      );
      const victim = leaderOf(cluster, before);
      victim.pause();
      try {
        await assignmentWhere(
          cluster,
          'zombie',
          0,
          'a leader replacing the paused one',
          (a) => a.leader > 0 && a.leader !== victim.nodeId,
        );
        const acknowledged = workload.acknowledged();
        await pollUntil(
          () => workload.acknowledged() >= acknowledged + 10,
          'acknowledgements from the new leader',
          { timeoutMs: 60_000 },
        );
      } finally {
        victim.resume();
      }
    }
    await workload.stop();
    const report = await finalRead(cluster, 'zombie', [0], workload.recorder);
    expect(anomalyCounts(report), JSON.stringify(report.anomalies.slice(0, 5))).toEqual({});
  });

  it('shrinks the ISR when followers stop, refuses acks=all below min ISR without writing, and expands it again', async () => {
    const cluster = await startReplicatedCluster();
    await createReplicatedTopics(cluster, ['shrink'], 1);
    const start = await assignmentWhere(
      cluster,
      'shrink',
      0,
      'a full ISR',
      (a) => a.leader > 0 && a.isr.length === 3,
    );
    const [first, second] = start.replicas
      .filter((id) => id !== start.leader)
      .map((id) => cluster.broker(id));
    const producer = kafkaOf(cluster).producer({ idempotent: false, retry: { retries: 0 } });
    await producer.connect();
    onTestFinished(() => producer.disconnect());
    const send = (value: string) =>
      producer.send({ topic: 'shrink', acks: -1, timeout: 5000, messages: [{ value, partition: 0 }] });
    await send('all-three');
    await first!.kill9();
    await assignmentWhere(
      cluster,
      'shrink',
      0,
      'the ISR without the first follower',
      (a) => a.isr.length === 2 && !a.isr.includes(first!.nodeId),
    );
    await send('two-of-three');
    await second!.kill9();
    const alone = await assignmentWhere(
      cluster,
      'shrink',
      0,
      'the leader alone in the ISR',
      (a) => a.isr.length === 1,
    );
    expect(alone).toMatchObject({ leader: start.leader, isr: [start.leader], elr: [second!.nodeId] });
    await expect(send('refused')).rejects.toMatchObject({ cause: { type: 'NOT_ENOUGH_REPLICAS' } });
    first!.spawn();
    second!.spawn();
    await Promise.all([first!.waitReady(), second!.waitReady()]);
    await assignmentWhere(cluster, 'shrink', 0, 'the ISR expanded again', (a) => a.isr.length === 3);
    await send('after');
    const workloadRecorder = (await startReplicationWorkload(cluster, { topic: 'shrink', partitions: [] }))
      .recorder;
    for (const value of ['all-three', 'two-of-three', 'after']) {
      workloadRecorder.recordSend({ type: 'send', process: 'test', status: 'ok', partition: 0, value });
    }
    const report = await finalRead(cluster, 'shrink', [0], workloadRecorder);
    expect(anomalyCounts(report), JSON.stringify(report.anomalies.slice(0, 5))).toEqual({});
    expect(report.stats.valuesRead).toBe(3);
  });
});
