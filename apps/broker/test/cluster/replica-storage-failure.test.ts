import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { partitionDirectoryName } from '../../src/log/log-files';
import { startBrokerCluster } from './broker-cluster';
import { kafkaOf, kcatProduce, kcatReadAll } from './cluster-clients';
import { startEtcd } from './etcd-process';
import { assignmentWhere } from './replication-workload';

const run = promisify(execFile);
const FAST = { cluster: { sessionTtlSeconds: 3, controllerTtlSeconds: 3 } };

/** The active (newest) segment file of a partition in a broker's data directory. */
async function activeSegment(dataDir: string, topic: string): Promise<string> {
  const directory = join(dataDir, 'logs', partitionDirectoryName(topic, 0));
  const logs = (await readdir(directory)).filter((name) => name.endsWith('.log')).sort();
  return join(directory, logs[logs.length - 1]!);
}

describe('a replica whose disk fails', { timeout: 300_000 }, () => {
  it('hands leadership of that partition to an in-sync replica and keeps serving the rest', async () => {
    const etcd = await startEtcd();
    onTestFinished(() => etcd.stop());
    const cluster = await startBrokerCluster({ etcd, brokers: 3, config: FAST });
    onTestFinished(() => cluster.stop());
    const admin = kafkaOf(cluster).admin();
    await admin.connect();
    onTestFinished(() => admin.disconnect());
    const topics = ['failing', 'healthy'].map((topic) => ({
      topic,
      numPartitions: 1,
      replicationFactor: 3,
      configEntries: [{ name: 'min.insync.replicas', value: '2' }],
    }));
    await admin.createTopics({ topics, waitForLeaders: true });
    const bootstrap = cluster.bootstrapServers.join(',');
    await kcatProduce(bootstrap, 'failing', ['k:before-1', 'k:before-2'], 0);
    const start = await assignmentWhere(
      cluster,
      'failing',
      0,
      'a full ISR',
      (a) => a.leader > 0 && a.isr.length === 3,
    );
    const leader = cluster.broker(start.leader);
    // An immutable segment file: the next write to it fails with EPERM, a storage error.
    const segment = await activeSegment(leader.dataDir, 'failing');
    await run('chattr', ['+i', segment]);
    onTestFinished(() => run('chattr', ['-i', segment]).then(() => undefined));
    await kcatProduce(bootstrap, 'failing', ['k:after-1', 'k:after-2', 'k:after-3'], 0);
    const moved = await assignmentWhere(
      cluster,
      'failing',
      0,
      'another leader, without the failed replica in the ISR',
      (a) => a.leader > 0 && a.leader !== leader.nodeId && !a.isr.includes(leader.nodeId),
    );
    expect(moved.leaderEpoch).toBeGreaterThan(start.leaderEpoch);
    const values = (await kcatReadAll(bootstrap, 'failing')).map((line) => line.split(' ')[3]);
    expect(values).toEqual(['before-1', 'before-2', 'after-1', 'after-2', 'after-3']);
    // The broker keeps serving its other partitions, and says which one failed.
    const ready = await leader.readiness();
    expect(ready?.status).toBe(200);
    expect(JSON.stringify(ready?.body)).toContain('failing');
    await kcatProduce(leader.bootstrap, 'healthy', ['k:still-served'], 0);
    expect((await kcatReadAll(bootstrap, 'healthy')).map((line) => line.split(' ')[3])).toEqual([
      'still-served',
    ]);
    await run('chattr', ['-i', segment]);
  });
});
