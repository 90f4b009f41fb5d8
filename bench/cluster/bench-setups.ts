import { Admin, Client } from '@weir/protocol';
import { type BrokerCluster, startBrokerCluster } from '../../apps/broker/test/cluster/broker-cluster';
import { type EtcdCluster, startEtcd } from '../../apps/broker/test/cluster/etcd-process';
import { FLUSH_MS } from '../broker/bench-config';
import { startWeir, stopWeir, type WeirBroker } from '../broker/weir-service';
import { BROKER_COUNT } from './cluster-config';

/** What the throughput runs need of a setup: where clients bootstrap, an admin, the server processes. */
export interface BenchSetup {
  name: string;
  /** One broker's client listener: the SDK finds the others (and each partition's leader) from it. */
  bootstrap: string;
  admin: Admin;
  /** The broker processes whose CPU a run is charged with. */
  serverPids(): number[];
  /** Put before the benchmark's topic names, so setups on one cluster never share a topic. */
  topicPrefix?: string;
  /** Topics created with this replication factor and min.insync.replicas; the broker's default otherwise. */
  replication?: { factor: number; minInsyncReplicas: number };
}

/** The standalone broker of bench:broker (a child process, flush.ms as there); `stop` is idempotent. */
export async function startStandalone(root: string): Promise<BenchSetup & { stop(): Promise<void> }> {
  const weir: WeirBroker = await startWeir(root, 'standalone');
  let stopped: Promise<void> | undefined;
  return {
    name: 'standalone',
    bootstrap: weir.bootstrap,
    admin: weir.admin,
    serverPids: () => [weir.service.pid],
    stop: () => {
      stopped ??= stopWeir(root, 'standalone', weir);
      return stopped;
    },
  };
}

/** etcd and three brokers in cluster mode, started by the cluster tests' fixtures, with an admin. */
export interface ClusterSetup extends BenchSetup {
  etcd: EtcdCluster;
  brokers: BrokerCluster;
  client: Client;
  stop(): Promise<void>;
}

/** The cluster's throughput rows without replication: topics at the broker's default.replication.factor, 1. */
export function unreplicatedSetup(cluster: ClusterSetup): BenchSetup {
  return {
    name: `${BROKER_COUNT} brokers, RF 1`,
    bootstrap: cluster.bootstrap,
    admin: cluster.admin,
    serverPids: () => cluster.serverPids(),
  };
}

/**
 * The same brokers with the benchmark's topics replicated: `factor` replicas each (so every
 * broker holds every partition, leading a third) and `minInsyncReplicas`.
 */
export function replicatedSetup(
  cluster: ClusterSetup,
  replication: { factor: number; minInsyncReplicas: number },
): BenchSetup {
  return {
    name: `${BROKER_COUNT} brokers, RF ${replication.factor}`,
    bootstrap: cluster.bootstrap,
    admin: cluster.admin,
    serverPids: () => cluster.serverPids(),
    topicPrefix: `rf${replication.factor}-`,
    replication,
  };
}

/**
 * One etcd member and three brokers (child processes on 127.0.0.1) with the standalone broker's
 * flush.ms and a quiet log, so only the cluster differs. The election and session TTLs are the
 * defaults (`cluster.controllerTtlSeconds`, `cluster.sessionTtlSeconds`).
 */
export async function startCluster(): Promise<ClusterSetup> {
  const etcd = await startEtcd();
  let brokers: BrokerCluster;
  try {
    brokers = await startBrokerCluster({
      etcd,
      brokers: BROKER_COUNT,
      config: { log: { flushMs: FLUSH_MS }, logging: { level: 'warn' } },
    });
  } catch (error) {
    await etcd.stop();
    throw error;
  }
  const bootstrap = brokers.broker(1).bootstrap;
  const client = new Client({ bootstrapServers: brokers.bootstrapServers });
  return {
    name: `${BROKER_COUNT} brokers`,
    bootstrap,
    admin: new Admin(client),
    serverPids: () =>
      brokers.brokers.filter((broker) => broker.isRunning).map((broker) => broker.process.pid),
    etcd,
    brokers,
    client,
    async stop() {
      await client.close();
      await brokers.stop();
      await etcd.stop();
    },
  };
}
