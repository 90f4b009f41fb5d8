// What the etcd metadata store tests share: one etcd per file, stores opened on it with short
// sessions and closed when the test finishes, and the records they write.

import { afterAll, beforeAll, onTestFinished } from 'vitest';
import {
  EtcdMetadataStore,
  type EtcdMetadataStoreOptions,
} from '../../src/metadata/etcd/etcd-metadata-store';
import type { BrokerRegistration } from '../../src/metadata/metadata-store';
import { type EtcdCluster, startEtcd } from './etcd-process';

export const quietLogger = { info: () => {}, warn: () => {}, error: () => {} };

/** Starts etcd before the file's tests and stops it after them; the getter is valid inside tests. */
export function useEtcd(): () => EtcdCluster {
  let etcd: EtcdCluster | undefined;
  beforeAll(async () => {
    etcd = await startEtcd();
  }, 60_000);
  afterAll(async () => {
    await etcd?.stop();
  });
  return () => {
    if (etcd === undefined) throw new Error('etcd is used outside a test');
    return etcd;
  };
}

/** A loaded store for `brokerId` in `clusterName`, with 2 s sessions; closed when the test finishes. */
export async function openEtcdStore(
  etcd: EtcdCluster,
  brokerId: number,
  clusterName: string,
  options: Partial<EtcdMetadataStoreOptions> = {},
): Promise<EtcdMetadataStore> {
  const store = new EtcdMetadataStore({
    endpoints: etcd.endpoints,
    clusterName,
    brokerId,
    requestTimeoutMs: 2000,
    sessionTtlSeconds: 2,
    controllerTtlSeconds: 2,
    logger: quietLogger,
    ...options,
  });
  onTestFinished(() => store.close());
  await store.load();
  return store;
}

export function registration(brokerId: number, port = 9000 + brokerId): BrokerRegistration {
  return {
    brokerId,
    rack: null,
    listeners: { client: { host: '127.0.0.1', port }, internal: null },
    sessionId: 'chosen-by-the-store',
    registeredAtMs: Date.now(),
  };
}

export const topic = (name: string, partitionCount: number) => ({
  name,
  topicId: `id-${name}`,
  partitionCount,
  configs: {},
  internal: false,
  createdAtMs: 1,
});

/** `count` partitions of `name` on `replicas`, led by the first. */
export const assignments = (name: string, count: number, replicas: readonly number[]) =>
  Array.from({ length: count }, (_, partition) => ({
    topic: name,
    partition,
    replicas: [...replicas],
    leader: replicas[0]!,
    leaderEpoch: 0,
    isr: [...replicas],
  }));
