import { randomBytes } from 'node:crypto';
import { ErrorCode } from '@weir/protocol';
import { Etcd3 } from 'etcd3';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { EtcdConnection } from '../../src/metadata/etcd/etcd-connection';
import {
  EtcdMetadataStore,
  type EtcdMetadataStoreOptions,
} from '../../src/metadata/etcd/etcd-metadata-store';
import type { BrokerSessionEvent, PlacementChange } from '../../src/metadata/metadata-store';
import { pollUntil } from '../group-fixtures';
import { startEtcd } from './etcd-process';
import { assignments, openEtcdStore, quietLogger, registration, topic, useEtcd } from './etcd-store-fixture';

describe('the etcd metadata store against a real etcd', { timeout: 120_000 }, () => {
  const etcd = useEtcd();
  let clusterName: string;

  const openStore = (brokerId: number, options: Partial<EtcdMetadataStoreOptions> = {}) =>
    openEtcdStore(etcd(), brokerId, clusterName, options);

  beforeAll(() => {
    clusterName = `store-${randomBytes(4).toString('hex')}`;
  });

  it('brings a change written through one broker to every other broker’s image, in order, before the writer’s promise resolves', async () => {
    clusterName = `store-${randomBytes(4).toString('hex')}`;
    const first = await openStore(1);
    const second = await openStore(2);
    expect(second.clusterId()).toBe(first.clusterId());
    const seen: PlacementChange[] = [];
    second.watch((changes) => seen.push(...changes));
    await first.createTopic(topic('orders', 3), assignments('orders', 3, [1]));
    // The writer's own image has it at once.
    expect(first.snapshot().topics.map((t) => t.name)).toEqual(['orders']);
    await pollUntil(
      () => second.snapshot().assignments.length === 3,
      'the other image to have the partitions',
    );
    expect(seen.filter((change) => change.kind === 'topic')).toHaveLength(1);
    await first.addAcls([
      {
        resourceType: 'TOPIC',
        resourceName: 'orders',
        patternType: 'LITERAL',
        principal: 'User:alice',
        host: '*',
        operation: 'READ',
        permission: 'ALLOW',
      },
    ]);
    await pollUntil(() => second.listAcls().length === 1, 'the ACL on the other broker');
    await second.putUserCredential('alice', 'SCRAM-SHA-256', {
      salt: 's',
      iterations: 4096,
      storedKey: 'a',
      serverKey: 'b',
    });
    await pollUntil(() => first.getUser('alice') !== undefined, 'the user on the first broker');
    await first.deleteTopic('orders');
    await pollUntil(() => second.snapshot().assignments.length === 0, 'the deletion on the other broker');
    expect(second.snapshot().topics).toEqual([]);
  });

  it('creates a topic with more partitions than one etcd transaction holds', async () => {
    clusterName = `store-${randomBytes(4).toString('hex')}`;
    const store = await openStore(1);
    await store.createTopic(topic('wide', 300), assignments('wide', 300, [1]));
    expect(store.snapshot().topics[0]?.partitionCount).toBe(300);
    expect(store.snapshot().assignments).toHaveLength(300);
  });

  it('hands out producer id blocks that never overlap, from brokers allocating at once', async () => {
    clusterName = `store-${randomBytes(4).toString('hex')}`;
    const stores = [await openStore(1), await openStore(2), await openStore(3)];
    const blocks = await Promise.all(
      stores.flatMap((store) => Array.from({ length: 8 }, () => store.allocateProducerIdBlock(1000))),
    );
    const starts = blocks.map((block) => block.firstProducerId).sort((a, b) => a - b);
    expect(new Set(starts).size).toBe(24);
    for (let index = 1; index < starts.length; index++)
      expect(starts[index]! - starts[index - 1]!).toBe(1000);
  });

  it('refuses a stale assignment write, and a controller write from a broker that is not the controller', async () => {
    clusterName = `store-${randomBytes(4).toString('hex')}`;
    const store = await openStore(1);
    await store.createTopic(topic('t', 1), assignments('t', 1, [1]));
    const read = store.snapshot().assignments[0]!;
    const written = await store.compareAndSetAssignment({ ...read, leaderEpoch: 1 });
    expect(written.version).toBeGreaterThan(read.version);
    await expect(store.compareAndSetAssignment({ ...read, leaderEpoch: 2 })).rejects.toMatchObject({
      code: ErrorCode.INVALID_UPDATE_VERSION,
    });
    // Not registered, so never a candidate: the fence refuses before anything is sent.
    await expect(
      store.compareAndSetAssignment({ ...written, leaderEpoch: 2 }, 'controller'),
    ).rejects.toMatchObject({
      code: ErrorCode.NOT_CONTROLLER,
    });
  });

  it('elects one controller among registered brokers, and another at once when it stops cleanly', async () => {
    clusterName = `store-${randomBytes(4).toString('hex')}`;
    const first = await openStore(1);
    const second = await openStore(2);
    const one = await first.registerBroker(registration(1, 40001));
    await second.registerBroker(registration(2, 40002));
    await pollUntil(() => first.snapshot().controllerId === 1, 'broker 1 to be controller');
    await first.createTopic(topic('t', 1), assignments('t', 1, [1]));
    const read = first.snapshot().assignments[0]!;
    await first.compareAndSetAssignment({ ...read, leaderEpoch: 1 }, 'controller');
    await first.unregisterBroker(1, one.sessionId);
    await pollUntil(() => second.snapshot().controllerId === 2, 'broker 2 to take over');
    await pollUntil(
      () =>
        second
          .snapshot()
          .brokers.map((broker) => broker.brokerId)
          .join() === '2',
      'broker 1’s registration to end with its stop',
    );
  });

  it('refuses a second live broker with the same node id, naming the other’s address; a restart on the same address takes over', async () => {
    clusterName = `store-${randomBytes(4).toString('hex')}`;
    const first = await openStore(1);
    const stored = await first.registerBroker(registration(7, 40007));
    expect(stored.sessionId).not.toBe('chosen-by-the-store');
    const impostor = await openStore(2);
    await expect(impostor.registerBroker(registration(7, 40070))).rejects.toThrow(
      /broker id 7 is already registered by a live broker at 127\.0\.0\.1:40007/,
    );
    // The same address means the same machine's ports: the registration before it is a dead process's.
    const restarted = await openStore(3);
    const again = await restarted.registerBroker(registration(7, 40007));
    expect(again.sessionId).not.toBe(stored.sessionId);
    await pollUntil(
      () => first.snapshot().brokers.find((broker) => broker.brokerId === 7)?.sessionId === again.sessionId,
      'the new registration in the image',
    );
  });

  it('refuses a cluster id other than the stored one, naming both', async () => {
    clusterName = `store-${randomBytes(4).toString('hex')}`;
    const first = await openStore(1, { clusterId: 'cluster-a' });
    expect(first.clusterId()).toBe('cluster-a');
    const other = new EtcdMetadataStore({
      endpoints: etcd().endpoints,
      clusterName,
      clusterId: 'cluster-b',
      brokerId: 2,
      requestTimeoutMs: 2000,
      sessionTtlSeconds: 2,
      controllerTtlSeconds: 2,
      logger: quietLogger,
    });
    onTestFinished(() => other.close());
    await expect(other.load()).rejects.toMatchObject({
      code: ErrorCode.INCONSISTENT_CLUSTER_ID,
      message: expect.stringMatching(/cluster-a[\s\S]*cluster-b/),
    });
  });

  it('refuses an oversized value with a named error, and the next call goes through at once', async () => {
    clusterName = `store-${randomBytes(4).toString('hex')}`;
    const store = await openStore(1);
    const huge = { 'x.config': 'y'.repeat(300 * 1024) };
    await expect(
      store.createTopic({ ...topic('big', 1), configs: huge }, assignments('big', 1, [1])),
    ).rejects.toMatchObject({
      code: ErrorCode.INVALID_REQUEST,
      message: expect.stringContaining('topics/big'),
    });
    await store.createTopic(topic('small', 1), assignments('small', 1, [1]));
    expect(store.snapshot().topics.map((t) => t.name)).toEqual(['small']);
  });

  it('reports a watch that starts below the compacted revision, so the image lists again', async () => {
    clusterName = `store-${randomBytes(4).toString('hex')}`;
    const connection = new EtcdConnection({
      endpoints: etcd().endpoints,
      prefix: `/weir/${clusterName}/`,
      requestTimeoutMs: 2000,
    });
    onTestFinished(() => connection.close());
    const first = await connection.txn([], [{ put: 'k', value: '1' }]);
    const last = await connection.txn([], [{ put: 'k', value: '2' }]);
    const admin = new Etcd3({ hosts: etcd().endpoints });
    onTestFinished(() => admin.close());
    await admin.kv.compact({ revision: String(last.revision) });
    let compacted = false;
    const stop = await connection.watch('', first.revision - 1, {
      onEvents: () => {},
      onCompacted: () => {
        compacted = true;
      },
    });
    onTestFinished(() => stop());
    await pollUntil(() => compacted, 'the compacted watch to be reported');
  });

  it('tells the broker its session is lost when etcd stops answering past the TTL, and registers it again after', async () => {
    clusterName = `store-${randomBytes(4).toString('hex')}`;
    const store = await openStore(1);
    const events: BrokerSessionEvent[] = [];
    store.onSession((event) => events.push(event));
    const first = await store.registerBroker(registration(1, 40011));
    etcd().member(0).pause();
    try {
      await pollUntil(() => events.some((event) => event.kind === 'lost'), 'the session to be lost', {
        timeoutMs: 20_000,
      });
    } finally {
      etcd().member(0).resume();
    }
    const again = await pollUntil(
      () => events.find((event) => event.kind === 'registered'),
      'the broker to be registered again',
      { timeoutMs: 20_000 },
    );
    expect(again.kind === 'registered' && again.registration.sessionId).not.toBe(first.sessionId);
  });
});

describe('the etcd metadata store when etcd loses its quorum', { timeout: 120_000 }, () => {
  it('fails a write within its deadline with a retriable error naming etcd, and works again once the quorum is back', async () => {
    const etcd = await startEtcd({ members: 3 });
    onTestFinished(() => etcd.stop());
    const store = new EtcdMetadataStore({
      endpoints: etcd.endpoints,
      clusterName: `quorum-${randomBytes(4).toString('hex')}`,
      brokerId: 1,
      requestTimeoutMs: 1500,
      sessionTtlSeconds: 5,
      controllerTtlSeconds: 5,
      logger: quietLogger,
    });
    onTestFinished(() => store.close());
    await store.load();
    await etcd.member(1).kill9();
    await etcd.member(2).kill9();
    const failure = await store
      .createTopic(topic('lost', 1), assignments('lost', 1, [1]))
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: ErrorCode.REQUEST_TIMED_OUT, retriable: true });
    expect(String((failure as Error).message)).toContain(etcd.endpoints[0]);
    await etcd.member(1).restart();
    await etcd.member(2).restart();
    await pollUntil(
      () =>
        store.createTopic(topic('back', 1), assignments('back', 1, [1])).then(
          () => true,
          () => false,
        ),
      'a write to succeed once the quorum is back',
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(store.snapshot().topics.map((t) => t.name)).toContain('back');
  });
});
