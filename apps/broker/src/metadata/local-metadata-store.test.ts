import { ErrorCode, WeirError } from '@weir/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../test/log-fixtures';
import { createStorageIo, StorageError, type StorageIo } from '../log/storage';
import { LocalMetadataStore } from './local-metadata-store';

function topic(name: string) {
  return { name, topicId: `id-${name}`, partitionCount: 1, configs: {}, internal: false, createdAtMs: 1 };
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
  beforeEach(async () => {
    directory = await temporaryDirectory('weir-metadata-');
  });
  afterEach(async () => {
    await directory.cleanup();
  });

  it('writes concurrent changes together, and every one is durable when its promise resolves', async () => {
    const counting = countingIo();
    const store = new LocalMetadataStore(counting.io, directory.path, 'cluster-a');
    await store.load();
    const before = counting.writes();
    await Promise.all(Array.from({ length: 200 }, (_, index) => store.createTopic(topic(`t-${index}`))));
    // The first change is written alone; the 199 that queued behind it share the next write(s).
    expect(counting.writes() - before).toBeLessThanOrEqual(3);
    expect(store.listTopics()).toHaveLength(200);
    expect(store.getTopic('t-150')?.topicId).toBe('id-t-150');

    const reloaded = new LocalMetadataStore(createStorageIo(), directory.path);
    await reloaded.load();
    expect(
      reloaded
        .listTopics()
        .map((entry) => entry.name)
        .sort(),
    ).toEqual(Array.from({ length: 200 }, (_, index) => `t-${index}`).sort());
    expect(reloaded.clusterId()).toBe('cluster-a');
  });

  it('refuses a duplicate alone while the rest of its batch is written', async () => {
    const store = new LocalMetadataStore(createStorageIo(), directory.path);
    await store.load();
    await store.createTopic(topic('taken'));
    const results = await Promise.allSettled([
      store.createTopic(topic('fresh-1')),
      store.createTopic(topic('taken')),
      store.createTopic(topic('fresh-2')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const refused = (results[1] as PromiseRejectedResult).reason;
    expect(refused).toBeInstanceOf(WeirError);
    expect((refused as WeirError).code).toBe(ErrorCode.TOPIC_ALREADY_EXISTS);
    expect(store.listTopics().map((entry) => entry.name)).toEqual(['taken', 'fresh-1', 'fresh-2']);
  });

  it('keeps the old catalogue when a write fails, and fails every change that write carried', async () => {
    const counting = countingIo();
    const store = new LocalMetadataStore(counting.io, directory.path);
    await store.load();
    await store.createTopic(topic('kept'));
    counting.failNext();
    await expect(store.createTopic(topic('lost'))).rejects.toBeInstanceOf(StorageError);
    expect(store.getTopic('lost')).toBeUndefined();
    await store.createTopic(topic('after'));
    const reloaded = new LocalMetadataStore(createStorageIo(), directory.path);
    await reloaded.load();
    expect(reloaded.listTopics().map((entry) => entry.name)).toEqual(['kept', 'after']);
  });
});
