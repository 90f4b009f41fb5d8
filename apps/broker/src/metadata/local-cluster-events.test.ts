import { ErrorCode } from '@weir/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../test/log-fixtures';
import { createStorageIo } from '../log/storage';
import { LocalMetadataStore } from './local-metadata-store';

describe('the standalone store’s replication timeline', () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  let nowMs = 10_000_000;
  const open = async (maxCount = 50_000) => {
    const store = new LocalMetadataStore(createStorageIo(), directory.path, {
      clusterId: 'cluster-a',
      brokerId: 1,
      eventsRetention: { retentionMs: 60_000, maxCount },
      now: () => nowMs,
    });
    await store.load();
    return store;
  };
  beforeEach(async () => {
    directory = await temporaryDirectory('weir-events-');
  });
  afterEach(async () => {
    await directory.cleanup();
  });

  async function withTopic(store: LocalMetadataStore) {
    await store.createTopic(
      { name: 'orders', topicId: 'id', partitionCount: 1, configs: {}, internal: false, createdAtMs: 1 },
      [{ topic: 'orders', partition: 0, replicas: [1], leader: 1, leaderEpoch: 0, isr: [1] }],
    );
    return store.snapshot().assignments[0]!;
  }

  it('records an assignment change’s events with its cause, none for a refused one, and keeps them across a restart', async () => {
    const store = await open();
    const read = await withTopic(store);
    nowMs += 1000;
    const written = await store.compareAndSetAssignment(
      { ...read, leaderEpoch: 1 },
      undefined,
      'preferred-election',
    );
    expect(written.leaderChangedAtMs).toBe(nowMs);
    await expect(
      store.compareAndSetAssignment({ ...read, leaderEpoch: 2 }, undefined, 'preferred-election'),
    ).rejects.toMatchObject({ code: ErrorCode.INVALID_UPDATE_VERSION });
    const events = await store.listClusterEvents({ limit: 10 });
    expect(events).toEqual([
      expect.objectContaining({
        kind: 'leader-change',
        leaderEpoch: 1,
        cause: 'preferred-election',
        atMs: nowMs,
      }),
    ]);
    const reopened = await open();
    expect(await reopened.listClusterEvents({ limit: 10 })).toEqual(events);
    expect(reopened.snapshot().assignments[0]!.leaderChangedAtMs).toBe(nowMs);
  });

  it('keeps only the newest events within the count and the retention', async () => {
    const store = await open(2);
    let read = await withTopic(store);
    for (let round = 1; round <= 4; round++) {
      nowMs += 1000;
      read = await store.compareAndSetAssignment(
        { ...read, leaderEpoch: round },
        undefined,
        'preferred-election',
      );
    }
    expect((await store.listClusterEvents({ limit: 10 })).map((e) => e.leaderEpoch)).toEqual([4, 3]);
    nowMs += 120_000;
    await store.pruneClusterEvents();
    expect(await (await open(2)).listClusterEvents({ limit: 10 })).toEqual([]);
  });
});
