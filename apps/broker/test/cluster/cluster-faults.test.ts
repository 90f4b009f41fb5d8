import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { partitionForKey } from '../../src/coordination/partition-for-key';
import { pollUntil } from '../group-fixtures';
import { type BrokerCluster, startBrokerCluster } from './broker-cluster';
import { kafkaOf, kcatMetadata, kcatProduce, kcatReadAll, leadersOf } from './cluster-clients';
import { startEtcd } from './etcd-process';

const run = promisify(execFile);

const FAST_SESSIONS = { cluster: { sessionTtlSeconds: 3, controllerTtlSeconds: 3 } };
const CLUSTER_TEST_TIMEOUT_MS = 240_000;

async function cluster3(): Promise<BrokerCluster> {
  const etcd = await startEtcd();
  onTestFinished(() => etcd.stop());
  const cluster = await startBrokerCluster({ etcd, brokers: 3, config: FAST_SESSIONS });
  onTestFinished(() => cluster.stop());
  return cluster;
}

async function createTopic(cluster: BrokerCluster, topic: string, numPartitions: number): Promise<void> {
  const admin = kafkaOf(cluster).admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions }], waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
}

/** Whether every broker's Metadata lists `topic` with a live leader for each of its partitions. */
async function everyBrokerServes(
  cluster: BrokerCluster,
  topic: string,
  partitions: number,
): Promise<boolean> {
  for (const broker of cluster.brokers) {
    const leaders = await leadersOf(broker.bootstrap, topic).catch(() => []);
    if (leaders.length !== partitions || leaders.some((leader) => leader < 1)) return false;
  }
  return true;
}

describe('cluster mode under faults', { timeout: CLUSTER_TEST_TIMEOUT_MS }, () => {
  it('keeps serving while etcd is killed and restarted under load, and its watch resumes without missing a change', async () => {
    const cluster = await cluster3();
    await createTopic(cluster, 'steady', 3);
    const producer = kafkaOf(cluster).producer({ idempotent: true });
    await producer.connect();
    onTestFinished(() => producer.disconnect());
    const acknowledged: string[] = [];
    let sending = true;
    const load = (async () => {
      for (let index = 0; sending; index++) {
        await producer.send({
          topic: 'steady',
          acks: -1,
          messages: [{ key: `k${index}`, value: `v${index}` }],
        });
        acknowledged.push(`v${index}`);
      }
    })();
    await pollUntil(() => acknowledged.length >= 20, 'the load to run');
    await cluster.etcd.member(0).kill9();
    // The data path does not need etcd: records keep being acknowledged while it is down.
    const whileDown = acknowledged.length;
    await pollUntil(() => acknowledged.length >= whileDown + 50, 'records acknowledged with etcd down');
    await cluster.etcd.member(0).restart();
    await createTopic(cluster, 'after-restart', 3);
    await pollUntil(
      () => everyBrokerServes(cluster, 'after-restart', 3),
      'every broker to see the new topic',
    );
    sending = false;
    await load;
    const read = await kcatReadAll(cluster.broker(1).bootstrap, 'steady');
    expect(read.map((line) => line.split(' ')[3]).sort()).toEqual([...acknowledged].sort());
    for (const broker of cluster.brokers) expect((await broker.readiness())?.status).toBe(200);
  });

  it('stops leading while its session is lost (etcd paused past the TTL) and leads again once registered', async () => {
    const cluster = await cluster3();
    await createTopic(cluster, 'fenced', 3);
    const broker = cluster.broker(1);
    const partition = (await leadersOf(broker.bootstrap, 'fenced')).indexOf(1);
    expect(partition).toBeGreaterThanOrEqual(0);
    await kcatProduce(broker.bootstrap, 'fenced', ['before:before'], partition);
    cluster.etcd.member(0).pause();
    try {
      // The broker notices the lost lease itself (nothing tells it): /ready names etcd, and a
      // produce to the partition it led is refused instead of acknowledged.
      await pollUntil(
        async () => JSON.stringify((await broker.readiness())?.body ?? {}).includes('unreachable'),
        'broker 1 to report etcd unreachable',
        { timeoutMs: 30_000 },
      );
      const refused = await pollUntil(
        async () => {
          const producer = kafkaOf(cluster, 'fenced-check').producer({ retry: { retries: 0 } });
          await producer.connect().catch(() => undefined);
          try {
            await producer.send({ topic: 'fenced', acks: -1, messages: [{ partition, value: 'during' }] });
            return undefined;
          } catch (error) {
            return String(error);
          } finally {
            await producer.disconnect().catch(() => undefined);
          }
        },
        'a produce to be refused',
        { timeoutMs: 30_000, intervalMs: 500 },
      );
      expect(refused).toMatch(/leader|not the leader|metadata|not available/i);
    } finally {
      cluster.etcd.member(0).resume();
    }
    await pollUntil(() => everyBrokerServes(cluster, 'fenced', 3), 'the partitions to be led again', {
      timeoutMs: 60_000,
      intervalMs: 500,
    });
    await pollUntil(
      () =>
        kcatProduce(cluster.broker(2).bootstrap, 'fenced', ['after:after'], partition).then(
          () => true,
          () => false,
        ),
      'a produce to succeed again',
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    const read = await kcatReadAll(cluster.broker(3).bootstrap, 'fenced');
    const values = read.filter((line) => line.startsWith(`${partition} `)).map((line) => line.split(' ')[3]);
    expect(values).toContain('before');
    expect(values).toContain('after');
  });

  it('runs a kafkajs group and a kcat group over the cluster, and committed offsets survive a restart of the coordinator’s broker', async () => {
    const cluster = await cluster3();
    await createTopic(cluster, 'grouped', 6);
    const lines = Array.from({ length: 60 }, (_, index) => `k${index}:v${index}`);
    await kcatProduce(cluster.broker(1).bootstrap, 'grouped', lines);

    const kafka = kafkaOf(cluster);
    const consumer = kafka.consumer({ groupId: 'js-group', sessionTimeout: 10_000, heartbeatInterval: 500 });
    await consumer.connect();
    await consumer.subscribe({ topic: 'grouped', fromBeginning: true });
    const seen = new Set<string>();
    await consumer.run({ eachMessage: async ({ message }) => void seen.add(String(message.value)) });
    await pollUntil(() => seen.size === 60, 'the kafkajs group to read every record', { timeoutMs: 60_000 });
    await consumer.stop();
    await consumer.disconnect();

    const admin = kafka.admin();
    await admin.connect();
    onTestFinished(() => admin.disconnect());
    const committed = async () =>
      (await admin.fetchOffsets({ groupId: 'js-group', topics: ['grouped'] }))[0]!.partitions
        .map((entry) => Number(entry.offset))
        .reduce((sum, offset) => sum + Math.max(offset, 0), 0);
    expect(await committed()).toBe(60);

    const offsets = (await kcatMetadata(cluster.broker(1).bootstrap, '__consumer_offsets')).topics[0]!;
    const coordinatorPartition = partitionForKey('js-group', offsets.partitions.length);
    const coordinator = offsets.partitions.find((entry) => entry.partition === coordinatorPartition)!.leader;
    await cluster.broker(coordinator).kill9();
    await cluster.broker(coordinator).restart();
    expect(await pollUntil(() => committed().catch(() => undefined), 'the offsets after the restart')).toBe(
      60,
    );

    // kcat's balanced consumer (librdkafka's group protocol) reads everything too.
    const { stdout } = await run(
      'kcat',
      [
        '-b',
        cluster.bootstrap,
        '-X',
        'broker.address.family=v4',
        '-G',
        'kcat-group',
        '-X',
        'auto.offset.reset=earliest',
        '-e',
        '-q',
        '-f',
        '%s\\n',
        'grouped',
      ],
      { timeout: 90_000 },
    );
    expect(new Set(stdout.split('\n').filter((line) => line.length > 0)).size).toBe(60);
  });

  it('says where it is trying while etcd is unreachable at start, with /ready 503 naming etcd, and starts once etcd is up', async () => {
    const etcd = await startEtcd();
    onTestFinished(() => etcd.stop());
    await etcd.member(0).stop();
    const cluster = await startBrokerCluster({ etcd, brokers: 1, config: FAST_SESSIONS, waitReady: false });
    onTestFinished(() => cluster.stop());
    const broker = cluster.broker(1);
    await broker.waitLive();
    const readiness = await pollUntil(async () => {
      const answer = await broker.readiness();
      return answer?.status === 503 && JSON.stringify(answer.body).includes('etcd') ? answer : undefined;
    }, '/ready to name etcd');
    expect(JSON.stringify(readiness.body)).toContain(etcd.endpoints[0]);
    await etcd.member(0).restart();
    await broker.waitReady();
  });
});
