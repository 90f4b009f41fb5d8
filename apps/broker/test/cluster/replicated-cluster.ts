// The three-broker cluster and the RF 3 topics the replication, coordinator-failover and
// rolling-restart tests (and the cluster soak) start from: one etcd member, brokers as child
// processes (broker-cluster.ts), both stopped when the test finishes.

import { onTestFinished } from 'vitest';
import type { BrokerConfigInput } from '../../src/config/broker-config';
import { type BrokerCluster, type LoopbackHosts, startBrokerCluster } from './broker-cluster';
import { kafkaOf } from './cluster-clients';
import { startEtcd } from './etcd-process';

/** Short sessions, so a killed broker leaves the cluster (and its partitions are re-led) within seconds. */
export const FAST_SESSIONS = { sessionTtlSeconds: 3, controllerTtlSeconds: 3 } as const;

export interface ReplicatedClusterOptions {
  /** Settings merged over the fixture's; `cluster` defaults to FAST_SESSIONS. */
  config?: BrokerConfigInput;
  /** 'per-broker' so broker links can be cut (cluster.isolateFromBrokers). */
  hosts?: LoopbackHosts;
  /** Each broker reaches etcd through its own proxy, so cluster.isolateFromEtcd can cut it off. */
  etcdProxies?: boolean;
  /** How many brokers; three by default. */
  brokers?: number;
}

/** Starts etcd and three brokers (or `brokers`) on it, stopped (brokers first) when the current test finishes. */
export async function startReplicatedCluster(options: ReplicatedClusterOptions = {}): Promise<BrokerCluster> {
  const etcd = await startEtcd();
  onTestFinished(() => etcd.stop());
  const cluster = await startBrokerCluster({
    etcd,
    brokers: options.brokers ?? 3,
    hosts: options.hosts,
    etcdProxies: options.etcdProxies,
    config: { ...options.config, cluster: { ...FAST_SESSIONS, ...options.config?.cluster } },
  });
  onTestFinished(() => cluster.stop());
  return cluster;
}

export interface ReplicatedTopicOptions {
  /** The admin client's id (kafkaOf's default otherwise). */
  clientId?: string;
  /** Topic configs; min.insync.replicas 2 by default, so one replica may be lost and acks=all still succeeds. */
  configEntries?: readonly { name: string; value: string }[];
}

/** Creates `topics` with `partitions` partitions each at replication factor 3 and waits for their leaders. */
export async function createReplicatedTopics(
  cluster: BrokerCluster,
  topics: readonly string[],
  partitions: number,
  options: ReplicatedTopicOptions = {},
): Promise<void> {
  const admin = kafkaOf(cluster, options.clientId).admin();
  await admin.connect();
  try {
    await admin.createTopics({
      topics: topics.map((topic) => ({
        topic,
        numPartitions: partitions,
        replicationFactor: 3,
        configEntries: [...(options.configEntries ?? [{ name: 'min.insync.replicas', value: '2' }])],
      })),
      waitForLeaders: true,
    });
  } finally {
    await admin.disconnect();
  }
}
