import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { pollUntil } from '../group-fixtures';
import { startBrokerCluster } from './broker-cluster';
import { kafkaOf, leadersOf } from './cluster-clients';
import { startEtcd } from './etcd-process';

const run = promisify(execFile);

describe('transactions across a cluster', { timeout: 240_000 }, () => {
  it('commits and aborts a kafkajs transaction over partitions on all three brokers; read_committed kcat agrees', async () => {
    const etcd = await startEtcd();
    onTestFinished(() => etcd.stop());
    const cluster = await startBrokerCluster({ etcd, brokers: 3 });
    onTestFinished(() => cluster.stop());
    const kafka = kafkaOf(cluster, 'cluster-txn');
    const admin = kafka.admin();
    await admin.connect();
    onTestFinished(() => admin.disconnect());
    await admin.createTopics({ topics: [{ topic: 'ledger', numPartitions: 3 }], waitForLeaders: true });
    const leaders = await pollUntil(async () => {
      const found = await leadersOf(cluster.bootstrap, 'ledger');
      return found.length === 3 && found.every((leader) => leader > 0) ? found : undefined;
    }, 'ledger led by three brokers');
    expect(new Set(leaders).size).toBe(3);

    const producer = kafka.producer({
      transactionalId: 'ledger-writer',
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await producer.connect();
    onTestFinished(() => producer.disconnect());
    const send = async (outcome: 'commit' | 'abort') => {
      const transaction = await producer.transaction();
      await transaction.send({
        topic: 'ledger',
        messages: [0, 1, 2].map((partition) => ({ partition, value: `${outcome}-${partition}` })),
      });
      await (outcome === 'commit' ? transaction.commit() : transaction.abort());
    };
    await send('commit');
    await send('abort');
    await send('commit');

    // A kafkajs read_committed consumer sees the committed records only, on every partition.
    const consumer = kafka.consumer({ groupId: 'ledger-reader', readUncommitted: false });
    await consumer.connect();
    onTestFinished(() => consumer.disconnect());
    await consumer.subscribe({ topic: 'ledger', fromBeginning: true });
    const seen: string[] = [];
    await consumer.run({ eachMessage: async ({ message }) => void seen.push(String(message.value)) });
    await pollUntil(() => seen.length >= 6, 'the committed records', { timeoutMs: 60_000 });
    await consumer.stop();
    expect(seen.sort()).toEqual(['commit-0', 'commit-0', 'commit-1', 'commit-1', 'commit-2', 'commit-2']);

    const { stdout } = await run(
      'kcat',
      [
        '-b',
        cluster.bootstrap,
        '-X',
        'broker.address.family=v4',
        '-X',
        'isolation.level=read_committed',
        '-C',
        '-t',
        'ledger',
        '-o',
        'beginning',
        '-e',
        '-q',
        '-f',
        '%s\\n',
      ],
      { timeout: 60_000 },
    );
    expect(
      stdout
        .split('\n')
        .filter((line) => line.length > 0)
        .sort(),
    ).toEqual(seen);
  });
});
