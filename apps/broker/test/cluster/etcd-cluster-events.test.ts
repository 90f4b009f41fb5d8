import { randomBytes } from 'node:crypto';
import { ErrorCode } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import type {
  EtcdMetadataStore,
  EtcdMetadataStoreOptions,
} from '../../src/metadata/etcd/etcd-metadata-store';
import type { PartitionAssignment } from '../../src/metadata/metadata-store';
import { pollUntil } from '../group-fixtures';
import { assignments, openEtcdStore, registration, topic, useEtcd } from './etcd-store-fixture';

describe('the replication timeline in etcd', { timeout: 120_000 }, () => {
  const etcd = useEtcd();
  const openStore = (
    brokerId: number,
    clusterName: string,
    options: Partial<EtcdMetadataStoreOptions> = {},
  ) => openEtcdStore(etcd(), brokerId, clusterName, options);

  const freshName = () => `events-${randomBytes(4).toString('hex')}`;

  function assignmentOf(store: EtcdMetadataStore, name: string, partition: number): PartitionAssignment {
    const found = store.snapshot().assignments.find((a) => a.topic === name && a.partition === partition);
    if (found === undefined) throw new Error(`${name}-${partition} is not in the image`);
    return found;
  }

  it('writes the events of an assignment change with it, stamps the change times, and a refused write records nothing', async () => {
    let nowMs = 1_000_000;
    const store = await openStore(1, freshName(), { now: () => nowMs });
    await store.createTopic(topic('orders', 2), assignments('orders', 2, [1, 2, 3]));
    const read = assignmentOf(store, 'orders', 0);
    const written = await store.compareAndSetAssignment(
      { ...read, leader: 2, leaderEpoch: 1, isr: [2, 3] },
      undefined,
      'leader-not-live',
    );
    expect(written).toMatchObject({ isrChangedAtMs: 1_000_000, leaderChangedAtMs: 1_000_000 });
    const events = await store.listClusterEvents({ limit: 10 });
    expect(events.map((event) => event.kind).sort()).toEqual(['isr-shrink', 'leader-change']);
    expect(events.find((event) => event.kind === 'leader-change')).toMatchObject({
      topic: 'orders',
      partition: 0,
      leader: 2,
      previousLeader: 1,
      leaderEpoch: 1,
      cause: 'leader-not-live',
    });
    // The same version again is stale: refused, and no event is written for it.
    nowMs += 1000;
    await expect(
      store.compareAndSetAssignment({ ...read, leader: 3, leaderEpoch: 1 }, undefined, 'leader-not-live'),
    ).rejects.toMatchObject({ code: ErrorCode.INVALID_UPDATE_VERSION });
    expect(await store.listClusterEvents({ limit: 10 })).toHaveLength(2);
    // Events are never part of the image: it holds the placement only.
    expect(Object.keys(store.snapshot())).not.toContain('events');
  });

  it('reads newest first, filtered by time, topic, partition and broker, up to the limit', async () => {
    let nowMs = 2_000_000;
    const store = await openStore(1, freshName(), { now: () => nowMs });
    await store.createTopic(topic('orders', 2), assignments('orders', 2, [1, 2, 3]));
    for (const partition of [0, 1]) {
      nowMs += 1000;
      const read = assignmentOf(store, 'orders', partition);
      await store.compareAndSetAssignment({ ...read, isr: [1, 2] }, undefined, 'follower-lagging');
      nowMs += 1000;
      const shrunk = assignmentOf(store, 'orders', partition);
      await store.compareAndSetAssignment({ ...shrunk, isr: [1, 2, 3] }, undefined, 'follower-caught-up');
    }
    const all = await store.listClusterEvents({ limit: 100 });
    expect(all.map((event) => [event.kind, event.partition, event.atMs])).toEqual([
      ['isr-expand', 1, 2_004_000],
      ['isr-shrink', 1, 2_003_000],
      ['isr-expand', 0, 2_002_000],
      ['isr-shrink', 0, 2_001_000],
    ]);
    expect(await store.listClusterEvents({ limit: 1 })).toEqual([all[0]]);
    expect((await store.listClusterEvents({ partition: 0, limit: 10 })).map((e) => e.atMs)).toEqual([
      2_002_000, 2_001_000,
    ]);
    expect(
      (await store.listClusterEvents({ sinceMs: 2_002_000, untilMs: 2_003_000, limit: 10 })).map(
        (e) => e.atMs,
      ),
    ).toEqual([2_003_000, 2_002_000]);
    expect(await store.listClusterEvents({ topic: 'other', limit: 10 })).toEqual([]);
    expect(await store.listClusterEvents({ brokerId: 3, limit: 10 })).toHaveLength(4);
    expect(await store.listClusterEvents({ brokerId: 2, limit: 10 })).toHaveLength(0);
  });

  it('records a broker session starting and stopping', async () => {
    const name = freshName();
    const store = await openStore(1, name);
    const registered = await store.registerBroker(registration(1));
    await store.unregisterBroker(1, registered.sessionId);
    const events = await store.listClusterEvents({ brokerId: 1, limit: 10 });
    expect(events.map((event) => [event.kind, event.sessionId, event.detail])).toEqual([
      ['broker-session-ended', registered.sessionId, 'stopped'],
      ['broker-session-started', registered.sessionId, undefined],
    ]);
  });

  it('prunes events older than the retention, then the oldest beyond the count', async () => {
    let nowMs = 3_000_000;
    const store = await openStore(1, freshName(), { now: () => nowMs });
    await store.createTopic(topic('orders', 1), assignments('orders', 1, [1, 2, 3]));
    for (let round = 0; round < 5; round++) {
      nowMs += 1000;
      const read = assignmentOf(store, 'orders', 0);
      await store.compareAndSetAssignment(
        { ...read, leader: read.leader === 1 ? 2 : 1, leaderEpoch: read.leaderEpoch + 1 },
        undefined,
        'preferred-election',
      );
    }
    // Events at 3_001_000 .. 3_005_000; now is 3_005_000.
    expect(await store.pruneClusterEvents({ retentionMs: 2500, maxCount: 100 })).toBe(2);
    expect((await store.listClusterEvents({ limit: 10 })).map((e) => e.atMs)).toEqual([
      3_005_000, 3_004_000, 3_003_000,
    ]);
    expect(await store.pruneClusterEvents({ retentionMs: 60_000, maxCount: 1 })).toBe(2);
    expect((await store.listClusterEvents({ limit: 10 })).map((e) => e.atMs)).toEqual([3_005_000]);
  });

  it('reads only the kinds asked for, and writes the controller’s own events only while it holds the title', async () => {
    const name = freshName();
    const store = await openStore(1, name);
    await store.createTopic(topic('orders', 1), assignments('orders', 1, [1, 2, 3]));
    const read = assignmentOf(store, 'orders', 0);
    await store.compareAndSetAssignment({ ...read, isr: [1, 2] }, undefined, 'follower-lagging');
    // Stamped when written, so events sort by when they were appended.
    const ended = () => ({
      atMs: Date.now(),
      kind: 'broker-session-ended' as const,
      brokerId: 9,
      sessionId: 's9',
      detail: 'session expired',
    });
    // Not registered, so not the controller: the fenced write is refused and records nothing.
    await expect(store.appendClusterEvents([ended()], 'controller')).rejects.toMatchObject({
      code: ErrorCode.NOT_CONTROLLER,
    });
    await store.registerBroker(registration(1));
    await pollUntil(() => store.snapshot().controllerId === 1, 'broker 1 to be controller');
    await pollUntil(
      () =>
        store.appendClusterEvents([ended()], 'controller').then(
          () => true,
          () => false,
        ),
      'the controller’s fenced write',
    );
    const sessions = await store.listClusterEvents({
      limit: 10,
      kinds: ['broker-session-started', 'broker-session-ended'],
    });
    expect(sessions.map((event) => [event.kind, event.brokerId])).toEqual([
      ['broker-session-ended', 9],
      ['broker-session-started', 1],
    ]);
    expect((await store.listClusterEvents({ limit: 10, kinds: ['isr-shrink'] })).map((e) => e.kind)).toEqual([
      'isr-shrink',
    ]);
  });
});
