import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCode, WeirError } from '@weir/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../test/log-fixtures';
import { registrationFor } from '../../test/replica-fixtures';
import { createStorageIo, StorageError, type StorageIo } from '../log/storage';
import { ClusterView } from './cluster-view';
import { LocalMetadataStore } from './local-metadata-store';
import type { NewPartitionAssignment, PlacementChange } from './metadata-store';

const BROKER = 3;

function topic(name: string, partitionCount = 1) {
  return { name, topicId: `id-${name}`, partitionCount, configs: {}, internal: false, createdAtMs: 1 };
}

/** Every partition on this broker, led by it from epoch 0, as a standalone broker places them. */
function onThisBroker(name: string, count: number, first = 0): NewPartitionAssignment[] {
  return Array.from({ length: count }, (_, index) => ({
    topic: name,
    partition: first + index,
    replicas: [BROKER],
    leader: BROKER,
    leaderEpoch: 0,
    isr: [BROKER],
  }));
}

function create(store: LocalMetadataStore, name: string, partitionCount = 1): Promise<void> {
  return store.createTopic(topic(name, partitionCount), onThisBroker(name, partitionCount));
}

function topicNames(store: LocalMetadataStore): string[] {
  return store.snapshot().topics.map((entry) => entry.name);
}

/** The real file system, counting whole-catalogue replacements and failing them on demand. */
function countingIo(): { io: StorageIo; writes: () => number; failNext: () => void } {
  const real = createStorageIo();
  let writes = 0;
  let failing = false;
  const io: StorageIo = {
    ...real,
    async writeFileAtomic(path, data) {
      writes++;
      if (failing) {
        failing = false;
        throw new StorageError('write', path, 'EIO');
      }
      await real.writeFileAtomic(path, data);
    },
  };
  return { io, writes: () => writes, failNext: () => (failing = true) };
}

describe('LocalMetadataStore', () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  const open = async (io: StorageIo = createStorageIo(), brokerId = BROKER) => {
    const store = new LocalMetadataStore(io, directory.path, { clusterId: 'cluster-a', brokerId });
    await store.load();
    return store;
  };
  beforeEach(async () => {
    directory = await temporaryDirectory('weir-metadata-');
  });
  afterEach(async () => {
    await directory.cleanup();
  });

  it('writes concurrent changes together, and every one is durable when its promise resolves', async () => {
    const counting = countingIo();
    const store = await open(counting.io);
    const before = counting.writes();
    await Promise.all(Array.from({ length: 200 }, (_, index) => create(store, `t-${index}`)));
    // The first change is written alone; the 199 that queued behind it share the next write(s).
    expect(counting.writes() - before).toBeLessThanOrEqual(3);
    expect(topicNames(store)).toHaveLength(200);

    const reloaded = await open();
    expect(topicNames(reloaded).sort()).toEqual(
      Array.from({ length: 200 }, (_, index) => `t-${index}`).sort(),
    );
    expect(reloaded.snapshot().assignments.find((entry) => entry.topic === 't-150')).toEqual({
      topic: 't-150',
      partition: 0,
      replicas: [BROKER],
      leader: BROKER,
      leaderEpoch: 0,
      isr: [BROKER],
      version: 0,
    });
    expect(reloaded.clusterId()).toBe('cluster-a');
  });

  it('refuses a duplicate alone while the rest of its batch is written', async () => {
    const store = await open();
    await create(store, 'taken');
    const results = await Promise.allSettled([
      create(store, 'fresh-1'),
      create(store, 'taken'),
      create(store, 'fresh-2'),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const refused = (results[1] as PromiseRejectedResult).reason;
    expect(refused).toBeInstanceOf(WeirError);
    expect((refused as WeirError).code).toBe(ErrorCode.TOPIC_ALREADY_EXISTS);
    expect(topicNames(store)).toEqual(['taken', 'fresh-1', 'fresh-2']);
  });

  it('keeps the old catalogue when a write fails, and fails every change that write carried', async () => {
    const counting = countingIo();
    const store = await open(counting.io);
    const seen: PlacementChange[] = [];
    store.watch((changes) => seen.push(...changes));
    await create(store, 'kept');
    counting.failNext();
    await expect(create(store, 'lost')).rejects.toBeInstanceOf(StorageError);
    expect(topicNames(store)).toEqual(['kept']);
    // A change that is not durable is never announced.
    expect(seen.filter((change) => change.kind === 'topic').map((change) => change.name)).toEqual(['kept']);
    await create(store, 'after');
    expect(topicNames(await open())).toEqual(['kept', 'after']);
  });

  it('announces every change in order before it resolves, so a view fed by the watch equals a reload', async () => {
    const store = await open();
    const view = new ClusterView(BROKER);
    view.follow(store);
    const revisions: number[] = [];
    store.watch((_changes, revision) => revisions.push(revision));
    await create(store, 'orders', 2);
    // Resolved: the view already has it.
    expect(view.assignmentsOf('orders').map((entry) => entry.partition)).toEqual([0, 1]);
    await store.addPartitions('orders', onThisBroker('orders', 2, 2));
    await store.setTopicConfigs('orders', { 'retention.ms': '1000' });
    await create(store, 'doomed');
    await store.deleteTopic('doomed');
    expect(revisions).toEqual([...revisions].sort((left, right) => left - right));
    expect(new Set(revisions).size).toBe(revisions.length);
    expect(view.revision).toBe(revisions.at(-1));

    const reloaded = await open();
    const fresh = new ClusterView(BROKER);
    fresh.follow(reloaded);
    expect(fresh.topics()).toEqual(view.topics());
    expect(fresh.topic('orders')).toMatchObject({ partitionCount: 4, configs: { 'retention.ms': '1000' } });
    expect(fresh.assignmentsOf('orders')).toEqual(view.assignmentsOf('orders'));
    expect(fresh.topic('doomed')).toBeUndefined();
    expect(fresh.assignmentsOf('doomed')).toEqual([]);
  });

  it('compares and swaps an assignment on its version: one writer wins, the other is refused', async () => {
    const store = await open();
    await create(store, 'orders');
    const read = store.snapshot().assignments[0]!;
    const moved = { ...read, leaderEpoch: 1, isr: [BROKER] };
    const written = await store.compareAndSetAssignment(moved);
    expect(written).toMatchObject({ leaderEpoch: 1, version: read.version + 1 });
    // A second writer that read the same version loses.
    await expect(store.compareAndSetAssignment({ ...read, leaderEpoch: 2 })).rejects.toMatchObject({
      code: ErrorCode.INVALID_UPDATE_VERSION,
    });
    await expect(store.compareAndSetAssignment({ ...read, partition: 7 })).rejects.toMatchObject({
      code: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    });
    expect((await open()).snapshot().assignments[0]).toEqual(written);
  });

  it('places every partition of a file written before assignments on this broker, and refuses another broker id', async () => {
    await writeFile(
      join(directory.path, 'metadata.json'),
      JSON.stringify({
        version: 1,
        clusterId: 'old',
        nextProducerId: 0,
        topics: [
          { name: 'legacy', topicId: 'x', partitionCount: 2, configs: {}, internal: false, createdAtMs: 1 },
        ],
      }),
    );
    const store = await open();
    expect(
      store.snapshot().assignments.map(({ partition, replicas, leader, leaderEpoch }) => ({
        partition,
        replicas,
        leader,
        leaderEpoch,
      })),
    ).toEqual([
      { partition: 0, replicas: [BROKER], leader: BROKER, leaderEpoch: 0 },
      { partition: 1, replicas: [BROKER], leader: BROKER, leaderEpoch: 0 },
    ]);
    // The first write records the owner; another broker id is refused with both ids named.
    await create(store, 'next');
    expect(JSON.parse(await readFile(join(directory.path, 'metadata.json'), 'utf8')).brokerId).toBe(BROKER);
    await expect(open(createStorageIo(), BROKER + 1)).rejects.toThrow(
      `belongs to broker ${BROKER}, but this broker's nodeId is ${BROKER + 1}`,
    );
  });

  it('keeps broker registrations in memory: announced, never written, ended only by their own session', async () => {
    const store = await open();
    const view = new ClusterView(BROKER);
    view.follow(store);
    await store.registerBroker(registrationFor(BROKER, 'first'));
    expect(view.brokers().map((broker) => broker.sessionId)).toEqual(['first']);
    expect(view.endpoint(BROKER, 'client')).toEqual({
      nodeId: BROKER,
      host: '127.0.0.1',
      port: 9092,
      rack: null,
    });
    expect(view.endpoint(BROKER, 'internal')).toBeUndefined();
    await store.registerBroker(registrationFor(BROKER, 'second'));
    await store.unregisterBroker(BROKER, 'first');
    expect(view.isLive(BROKER)).toBe(true);
    await store.unregisterBroker(BROKER, 'second');
    expect(view.isLive(BROKER)).toBe(false);
    await expect(store.registerBroker(registrationFor(BROKER + 1))).rejects.toMatchObject({
      code: ErrorCode.INVALID_REQUEST,
    });
    await create(store, 'written');
    expect(await readFile(join(directory.path, 'metadata.json'), 'utf8')).not.toContain('sessionId');
  });

  it('keeps client quotas per entity, default (null) names apart from absent types, across a reload', async () => {
    const store = await open();
    const before = store.listClientQuotas();
    await store.alterClientQuotas([
      { entity: { user: 'alice', clientId: null }, set: { producer_byte_rate: 1024 }, remove: [] },
      { entity: { user: 'alice' }, set: { consumer_byte_rate: 2048, request_percentage: 50 }, remove: [] },
      { entity: { clientId: null }, set: { request_percentage: 200 }, remove: [] },
    ]);
    expect(store.listClientQuotas()).not.toBe(before);
    await store.alterClientQuotas([
      { entity: { user: 'alice' }, set: {}, remove: ['request_percentage', 'not-set'] },
      { entity: { clientId: null }, set: {}, remove: ['request_percentage'] },
    ]);
    const reopened = await open();
    expect(reopened.listClientQuotas()).toEqual([
      { entity: { user: 'alice', clientId: null }, values: { producer_byte_rate: 1024 } },
      { entity: { user: 'alice' }, values: { consumer_byte_rate: 2048 } },
    ]);
  });
});
