import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Etcd3 } from 'etcd3';
import { Kafka, logLevel } from 'kafkajs';
import type { ClusterEvent } from '../../src/metadata/cluster-events';
import type { BrokerCluster } from './broker-cluster';

const run = promisify(execFile);

/** kcat's view of the cluster (`kcat -L -J`), as the judge of what Metadata tells clients. */
export interface KcatMetadata {
  controllerid: number;
  brokers: { id: number; name: string }[];
  topics: {
    topic: string;
    error?: string;
    partitions: { partition: number; leader: number; error?: string; replicas: { id: number }[] }[];
  }[];
}

const KCAT_BASE = ['-X', 'broker.address.family=v4', '-m', '10'];

export async function kcatMetadata(bootstrap: string, topic?: string): Promise<KcatMetadata> {
  const args = ['-b', bootstrap, ...KCAT_BASE, '-L', '-J', ...(topic === undefined ? [] : ['-t', topic])];
  const { stdout } = await run('kcat', args, { timeout: 30_000 });
  return JSON.parse(stdout) as KcatMetadata;
}

/**
 * Produces `lines` (`key:value`) with kcat through `bootstrap` (acks=all), spread by key, or all to
 * `partition` when given; rejects when kcat reports a failed delivery.
 */
export async function kcatProduce(
  bootstrap: string,
  topic: string,
  lines: readonly string[],
  partition?: number,
): Promise<void> {
  const target = partition === undefined ? [] : ['-p', String(partition)];
  const child = execFile(
    'kcat',
    ['-b', bootstrap, ...KCAT_BASE, '-P', '-t', topic, ...target, '-K', ':', '-X', 'acks=all'],
    { timeout: 60_000 },
  );
  const exited = new Promise<void>((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`kcat -P exited with ${code}`)))),
  );
  child.stdin?.end(`${lines.join('\n')}\n`);
  await exited;
}

/** Every record of `topic`, read from the beginning to the end by kcat, as `partition offset key value`. */
export async function kcatReadAll(bootstrap: string, topic: string): Promise<string[]> {
  const { stdout } = await run(
    'kcat',
    ['-b', bootstrap, ...KCAT_BASE, '-C', '-t', topic, '-o', 'beginning', '-e', '-q', '-f', '%p %o %k %s\\n'],
    // A soak's topic holds far more than execFile's 1 MiB default.
    { timeout: 120_000, maxBuffer: 512 * 1024 * 1024 },
  );
  return stdout.split('\n').filter((line) => line.length > 0);
}

/** A kafkajs client of the cluster, quiet, retrying as applications configure it. */
export function kafkaOf(cluster: BrokerCluster, clientId = 'cluster-test'): Kafka {
  return new Kafka({
    clientId,
    brokers: cluster.bootstrapServers,
    logLevel: logLevel.NOTHING,
    retry: { retries: 12, initialRetryTime: 100, maxRetryTime: 2000 },
  });
}

/** A partition's assignment as etcd holds it. */
export interface StoredAssignment {
  leader: number;
  leaderEpoch: number;
  replicas: number[];
  isr: number[];
  elr?: number[];
  addingReplicas?: number[];
  removingReplicas?: number[];
  isrChangedAtMs?: number;
  leaderChangedAtMs?: number;
  memberStorage?: Record<string, string>;
}

/** The assignment of one partition as stored in etcd (the controller's record, read by the test). */
export async function storedAssignment(
  cluster: BrokerCluster,
  topic: string,
  partition: number,
): Promise<StoredAssignment> {
  const client = new Etcd3({ hosts: [...cluster.etcd.endpoints] });
  try {
    const value = await client
      .get(`/weir/${cluster.name}/partitions/${topic}/${partition}`)
      .options({ deadline: Date.now() + 5000 })
      .string();
    if (value === null) throw new Error(`${topic}-${partition} has no assignment in etcd`);
    return JSON.parse(value) as StoredAssignment;
  } finally {
    client.close();
  }
}

/** Leaders of a topic's partitions as kcat sees them through `bootstrap`, by partition. */
export async function leadersOf(bootstrap: string, topic: string): Promise<number[]> {
  const metadata = await kcatMetadata(bootstrap, topic);
  const found = metadata.topics.find((entry) => entry.topic === topic);
  return (found?.partitions ?? [])
    .sort((left, right) => left.partition - right.partition)
    .map((partition) => partition.leader);
}

/** The replication timeline as stored in etcd, oldest first (its keys sort by time). */
export async function storedClusterEvents(cluster: BrokerCluster): Promise<ClusterEvent[]> {
  const client = new Etcd3({ hosts: [...cluster.etcd.endpoints] });
  try {
    const values = await client
      .getAll()
      .prefix(`/weir/${cluster.name}/events/`)
      .sort('Key', 'Ascend')
      .options({ deadline: Date.now() + 5000 })
      .strings();
    return Object.values(values).map((value) => JSON.parse(value) as ClusterEvent);
  } finally {
    client.close();
  }
}
