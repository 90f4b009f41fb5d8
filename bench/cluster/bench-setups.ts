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
