import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Admin, Client } from '@weir/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { partitionDirectoryName } from '../../src/log/log-files';
import { pollUntil } from '../group-fixtures';
import { kafkaOf, kcatProduce, storedClusterEvents } from './cluster-clients';
import { createReplicatedTopics, startReplicatedCluster } from './replicated-cluster';
import { anomalyCounts, assignmentWhere, finalRead, startReplicationWorkload } from './replication-workload';

// Network faults between brokers, and between a broker and etcd (the nemesis of broker-cluster.ts:
// nft drops between per-broker loopback addresses, a black-holing proxy in front of etcd).

const TIMEOUT_MS = 600_000;
/** Short sessions and a short lag time, so a cut shows within seconds. */
const FAULT_CLUSTER = {
  hosts: 'per-broker',
  etcdProxies: true,
  config: { replication: { replicaLagTimeMaxMs: 3000 } },
} as const;

/** The bytes of every segment file of a partition in a broker's data directory, by file name. */
async function segmentFiles(dataDir: string, topic: string): Promise<Map<string, Buffer>> {
  const directory = join(dataDir, 'logs', partitionDirectoryName(topic, 0));
  const files = new Map<string, Buffer>();
  for (const name of (await readdir(directory)).filter((file) => file.endsWith('.log')).sort()) {
    files.set(name, await readFile(join(directory, name)));
  }
  return files;
}

describe('replication across network partitions', { timeout: TIMEOUT_MS }, () => {
  it('a leader cut off from the other brokers shrinks its ISR below min ISR and acknowledges nothing it cannot replicate', async () => {
    const cluster = await startReplicatedCluster(FAULT_CLUSTER);
    await createReplicatedTopics(cluster, ['cut-brokers'], 1);
    const workload = await startReplicationWorkload(cluster, { topic: 'cut-brokers', partitions: [0] });
    onTestFinished(() => workload.stop());
    const start = await assignmentWhere(
      cluster,
      'cut-brokers',
      0,
      'a full ISR',
      (a) => a.leader > 0 && a.isr.length === 3,
    );
    await pollUntil(() => workload.acknowledged() >= 20, 'acknowledgements before the cut');
    cluster.isolateFromBrokers(cluster.broker(start.leader));
    // The leader still reaches etcd: it stays the leader, and the followers' silence shrinks its ISR.
    await assignmentWhere(
      cluster,
      'cut-brokers',
      0,
      'the leader alone in the ISR',
      (a) => a.isr.length === 1,
    );
    const acknowledgedWhileAlone = workload.acknowledged();
    // Below min ISR the isolated leader refuses acks=all outright: a probe that does not retry is
    // answered NOT_ENOUGH_REPLICAS, and the workload (whose sends retry) gets no more acknowledgements
    // than the few that were in flight when the ISR shrank.
    const probe = kafkaOf(cluster, 'min-isr-probe').producer({ idempotent: false, retry: { retries: 0 } });
    await probe.connect();
    onTestFinished(() => probe.disconnect());
    let refusals = 0;
    await pollUntil(
      async () => {
        const refused = await probe
          .send({
            topic: 'cut-brokers',
            acks: -1,
            timeout: 5000,
            messages: [{ value: 'probe', partition: 0 }],
          })
          .then(
            () => false,
            (error: unknown) =>
              (error as { cause?: { type?: string } }).cause?.type === 'NOT_ENOUGH_REPLICAS',
          );
        if (refused) refusals += 1;
        return refusals >= 3;
      },
      'three NOT_ENOUGH_REPLICAS answers from the isolated leader',
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    expect(workload.acknowledged()).toBeLessThanOrEqual(acknowledgedWhileAlone + 10);
    cluster.healAll();
    await assignmentWhere(cluster, 'cut-brokers', 0, 'the ISR healed', (a) => a.isr.length === 3);
    await pollUntil(
      () => workload.acknowledged() >= acknowledgedWhileAlone + 20,
      'acknowledgements after the heal',
      {
        timeoutMs: 60_000,
      },
    );
    await workload.stop();
    const report = await finalRead(cluster, 'cut-brokers', [0], workload.recorder);
    expect(anomalyCounts(report), JSON.stringify(report.anomalies.slice(0, 5))).toEqual({});
  });

  it('a leader cut off from etcd, not from clients, is replaced and fenced, and rejoins as a follower', async () => {
    const cluster = await startReplicatedCluster(FAULT_CLUSTER);
    await createReplicatedTopics(cluster, ['cut-etcd'], 1);
    const workload = await startReplicationWorkload(cluster, { topic: 'cut-etcd', partitions: [0] });
    onTestFinished(() => workload.stop());
    const start = await assignmentWhere(
      cluster,
      'cut-etcd',
      0,
      'a full ISR',
      (a) => a.leader > 0 && a.isr.length === 3,
    );
    await pollUntil(() => workload.acknowledged() >= 20, 'acknowledgements before the cut');
    const victim = cluster.broker(start.leader);
    cluster.isolateFromEtcd(victim);
    await assignmentWhere(
      cluster,
      'cut-etcd',
      0,
      'a new leader',
      (a) => a.leader > 0 && a.leader !== victim.nodeId,
    );
    // Once the victim knows its session is lost, its Metadata leaves it out: its view still names it
    // leader, and a client asking only it would otherwise come straight back.
    await pollUntil(async () => {
      const client = new Client({ bootstrapServers: [victim.bootstrap], clientId: 'fenced-metadata' });
      try {
        const metadata = await new Admin(client).describeCluster();
        return (
          metadata.brokers.length > 0 && metadata.brokers.every((broker) => broker.nodeId !== victim.nodeId)
        );
      } catch {
        return false;
      } finally {
        client.close();
      }
    }, 'the fenced victim leaving itself out of Metadata');
    const acknowledged = workload.acknowledged();
    // A kcat run that met the cut's stale metadata fails only after its message.timeout.ms (20 s),
    // and runs that do were seen to alternate with ones that succeed, so 20 more acknowledgements
    // can take well over a minute on a loaded machine; the bound is about liveness, not speed.
    await pollUntil(
      () => workload.acknowledged() >= acknowledged + 20,
      'acknowledgements from the new leader',
      {
        timeoutMs: 150_000,
      },
    ).catch((error: unknown) => {
      const recent = workload.recorder.operations
        .slice(-30)
        .map((operation) =>
          operation.type === 'send' ? `${operation.value}:${operation.status}` : operation.type,
        );
      throw new Error(`${String(error)}; the last operations: ${recent.join(' ')}`);
    });
    cluster.reconnectToEtcd(victim);
    await assignmentWhere(
      cluster,
      'cut-etcd',
      0,
      'the old leader back in the ISR',
      (a) => a.isr.length === 3,
    );
    await workload.stop();
    const report = await finalRead(cluster, 'cut-etcd', [0], workload.recorder);
    const events = (await storedClusterEvents(cluster)).filter(
      (e) => e.topic === 'cut-etcd' || e.topic === undefined,
    );
    expect(
      anomalyCounts(report),
      `${JSON.stringify(report.anomalies.slice(0, 5))}\nvictim ${victim.nodeId}; events ${JSON.stringify(events)}\n${victim.process.output().slice(-15_000)}`,
    ).toEqual({});
  });

  it('a leader that appended unreplicated records and died truncates them as a follower; they are never served', async () => {
    const cluster = await startReplicatedCluster(FAULT_CLUSTER);
    await createReplicatedTopics(cluster, ['divergent'], 1);
    const bootstrap = cluster.bootstrapServers.join(',');
    await kcatProduce(bootstrap, 'divergent', ['k:acked-1', 'k:acked-2'], 0);
    const start = await assignmentWhere(
      cluster,
      'divergent',
      0,
      'a full ISR',
      (a) => a.leader > 0 && a.isr.length === 3,
    );
    const oldLeader = cluster.broker(start.leader);
    // Cut off from its followers, the leader takes acks=1 records nobody else gets.
    cluster.isolateFromBrokers(oldLeader);
    const producer = kafkaOf(cluster).producer({ retry: { retries: 0 } });
    await producer.connect();
    onTestFinished(() => producer.disconnect());
    await producer.send({
      topic: 'divergent',
      acks: 1,
      messages: ['unreplicated-1', 'unreplicated-2', 'unreplicated-3'].map((value) => ({
        value,
        partition: 0,
      })),
    });
    await oldLeader.kill9();
    // Healed only once another broker leads: a dead process's kernel keeps retransmitting what it
    // had sent, so a fetch answer in flight could still reach a follower of the old epoch.
    const next = await assignmentWhere(
      cluster,
      'divergent',
      0,
      'a new leader',
      (a) => a.leader > 0 && a.leader !== oldLeader.nodeId,
    );
    cluster.healAll();
    expect(next.leaderEpoch).toBeGreaterThan(start.leaderEpoch);
    await kcatProduce(bootstrap, 'divergent', ['k:after-1', 'k:after-2', 'k:after-3', 'k:after-4'], 0);
    oldLeader.spawn();
    await oldLeader.waitReady();
    await assignmentWhere(
      cluster,
      'divergent',
      0,
      'the old leader back in the ISR',
      (a) => a.isr.length === 3,
    );
    const recorder = (await startReplicationWorkload(cluster, { topic: 'divergent', partitions: [] }))
      .recorder;
    for (const value of ['acked-1', 'acked-2', 'after-1', 'after-2', 'after-3', 'after-4']) {
      recorder.recordSend({ type: 'send', process: 'test', status: 'ok', partition: 0, value });
    }
    // The acks=1 records were acknowledged by a leader that lost them: that is what acks=1 risks.
    for (const value of ['unreplicated-1', 'unreplicated-2', 'unreplicated-3']) {
      recorder.recordSend({ type: 'send', process: 'acks-1', status: 'unknown', partition: 0, value });
    }
    const report = await finalRead(cluster, 'divergent', [0], recorder);
    expect(anomalyCounts(report), JSON.stringify(report.anomalies.slice(0, 5))).toEqual({});
    expect(report.stats.valuesRead).toBe(6);
    // Every replica holds the same batches, byte for byte: the old leader's tail is gone.
    await Promise.all(cluster.brokers.map((broker) => broker.stop()));
    const copies = await Promise.all(
      cluster.brokers.map((broker) => segmentFiles(broker.dataDir, 'divergent')),
    );
    for (const copy of copies.slice(1)) expect(copy).toEqual(copies[0]);
    const joined = Buffer.concat([...copies[0]!.values()]).toString('latin1');
    expect(joined).not.toContain('unreplicated');
    expect(joined).toContain('after-4');
  });
});
