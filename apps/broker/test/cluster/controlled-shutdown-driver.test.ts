import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { controlledShutdown } from '../../src/cluster/controlled-shutdown';
import { ClusterView } from '../../src/metadata/cluster-view';
import { EtcdMetadataStore } from '../../src/metadata/etcd/etcd-metadata-store';
import type { BrokerRegistration, PartitionAssignment } from '../../src/metadata/metadata-store';
import { pollUntil } from '../group-fixtures';
import { type EtcdCluster, startEtcd } from './etcd-process';

// The controlled shutdown's driver (src/cluster/controlled-shutdown.ts) against a real etcd: its
// writes are compare-and-swaps that a concurrent writer can beat, and it must read again and win.

const quietLogger = { info: () => {}, warn: () => {}, error: () => {} };

function registration(brokerId: number): BrokerRegistration {
  return {
    brokerId,
    rack: null,
    listeners: { client: { host: '127.0.0.1', port: 9000 + brokerId }, internal: null },
    sessionId: 'chosen-by-the-store',
    registeredAtMs: Date.now(),
  };
}

describe('the controlled shutdown driver against a real etcd', { timeout: 120_000 }, () => {
  let etcd: EtcdCluster;

  beforeAll(async () => {
    etcd = await startEtcd();
  }, 60_000);

  afterAll(async () => {
    await etcd?.stop();
  });

  async function openStore(clusterName: string, brokerId: number): Promise<EtcdMetadataStore> {
    const store = new EtcdMetadataStore({
      endpoints: etcd.endpoints,
      clusterName,
      brokerId,
      requestTimeoutMs: 2000,
      sessionTtlSeconds: 5,
      controllerTtlSeconds: 5,
      logger: quietLogger,
    });
    onTestFinished(() => store.close());
    await store.load();
    await store.registerBroker(registration(brokerId));
    return store;
  }

  it('moves leadership and leaves the ISRs after it stopped following, reading again after a lost race', async () => {
    const clusterName = `shutdown-${randomBytes(4).toString('hex')}`;
    const [first, second] = [await openStore(clusterName, 1), await openStore(clusterName, 2)];
    await openStore(clusterName, 3);
    await first.createTopic(
      {
        name: 'orders',
        topicId: 'id-orders',
        partitionCount: 2,
        configs: {},
        internal: false,
        createdAtMs: 1,
      },
      [
        { topic: 'orders', partition: 0, replicas: [1, 2, 3], leader: 1, leaderEpoch: 0, isr: [1, 2, 3] },
        { topic: 'orders', partition: 1, replicas: [2, 3, 1], leader: 2, leaderEpoch: 0, isr: [2, 3, 1] },
      ],
    );
    const view = new ClusterView(1);
    onTestFinished(view.follow(first));
    await pollUntil(() => view.brokers().length === 3, 'three live brokers in the view');
    const calls: string[] = [];
    let raced = false;
    const store = {
      // The first write loses to another broker's change of the same partition (an ISR change by
      // its leader): the stored version moves on between the driver's read and its write.
      async compareAndSetAssignment(next: PartitionAssignment) {
        calls.push(`write ${next.topic}-${next.partition}`);
        if (!raced && next.partition === 1) {
          raced = true;
          const current = second.snapshot().assignments.find((a) => a.partition === 1)!;
          await second.compareAndSetAssignment({ ...current, isr: [2, 1, 3] });
        }
        return first.compareAndSetAssignment(next);
      },
    };
    const report = await controlledShutdown({
      localBrokerId: 1,
      view,
      store,
      replicas: {
        stopFollowing: async () => {
          calls.push('stop following');
        },
        whenApplied: async (revision) => {
          calls.push(`applied ${revision >= view.revision ? 'now' : 'stale'}`);
        },
      },
      minInsyncReplicasOf: () => 2,
      timeoutMs: 30_000,
      clock: { nowMs: () => Date.now() },
      logger: quietLogger,
    });
    expect(report).toEqual({ moved: 1, left: 1, stayed: 0, timedOut: false });
    expect(calls[0]).toBe('stop following');
    expect(calls.at(-1)).toBe('applied now');
    expect(calls.filter((call) => call === 'write orders-1')).toHaveLength(2);
    const stored = [...first.snapshot().assignments].sort((a, b) => a.partition - b.partition);
    expect(stored[0]).toMatchObject({ leader: 2, leaderEpoch: 1, isr: [2, 3] });
    expect(stored[1]).toMatchObject({ leader: 2, leaderEpoch: 0, isr: [2, 3] });
  });

  it('gives up at its deadline when the writes cannot be made, and says so', async () => {
    const clusterName = `shutdown-${randomBytes(4).toString('hex')}`;
    const first = await openStore(clusterName, 1);
    await openStore(clusterName, 2);
    await first.createTopic(
      { name: 'stuck', topicId: 'id-stuck', partitionCount: 1, configs: {}, internal: false, createdAtMs: 1 },
      [{ topic: 'stuck', partition: 0, replicas: [1, 2], leader: 1, leaderEpoch: 0, isr: [1, 2] }],
    );
    const view = new ClusterView(1);
    onTestFinished(view.follow(first));
    await pollUntil(() => view.brokers().length === 2, 'two live brokers in the view');
    const warnings: string[] = [];
    // Every write finds a version other than the one read (a writer that is always first).
    const store = {
      compareAndSetAssignment: (next: PartitionAssignment) =>
        first.compareAndSetAssignment({ ...next, version: next.version - 1 }),
    };
    const report = await controlledShutdown({
      localBrokerId: 1,
      view,
      store,
      replicas: { stopFollowing: async () => {}, whenApplied: async () => {} },
      minInsyncReplicasOf: () => 1,
      timeoutMs: 1000,
      clock: { nowMs: () => Date.now() },
      logger: { info: () => {}, warn: (_fields, message) => warnings.push(message) },
    });
    expect(report).toMatchObject({ moved: 0, timedOut: true });
    expect(warnings).toContain('controlled shutdown timed out; stopping anyway');
    expect(first.snapshot().assignments[0]).toMatchObject({ leader: 1, isr: [1, 2] });
  });
});
