import { InternalAdmin } from '@weir/protocol';
import pino from 'pino';
import type { BrokerConfigInput } from '../../broker/src/config/broker-config';
import { type BrokerCluster, startBrokerCluster } from '../../broker/test/cluster/broker-cluster';
import { type EtcdCluster, startEtcd } from '../../broker/test/cluster/etcd-process';
import { type BrokerClients, createBrokerClients } from '../src/server/admin-client';
import type { GatewayServices } from '../src/server/gateway-services';
import { DEFAULT_SEARCH_LIMITS } from '../src/server/services/message-search';
import { type HttpGateway, startHttpGateway } from './http-gateway';

/** How long starting or stopping the cluster may take. */
export const CLUSTER_TIMEOUT_MS = 240_000;
/** Short sessions, so a killed broker leaves the ISRs, and its partitions go offline, within seconds. */
export const FAST_SESSIONS = { cluster: { sessionTtlSeconds: 3, controllerTtlSeconds: 3 } };

/**
 * The console against a real cluster (three brokers unless told otherwise): etcd and child brokers
 * from the broker's cluster fixtures, and the gateway on a real HTTP server, configured with the
 * internal listeners as WEIR_CONSOLE_BROKER lists them.
 */
export interface ClusterGateway {
  readonly etcd: EtcdCluster;
  readonly cluster: BrokerCluster;
  readonly clients: BrokerClients;
  /** The services the gateway runs on, for tests that call procedures in-process as well. */
  readonly services: GatewayServices;
  readonly gateway: HttpGateway;
  /** A REST call that must answer 200, parsed. */
  json<T>(method: string, path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

/** What a test may change about the cluster; the defaults are three brokers with short sessions. */
export interface ClusterGatewayOptions {
  /** How many brokers (node ids 1..N). */
  readonly brokers?: number;
  /** Broker settings instead of the short sessions, e.g. a long session TTL so a paused broker stays registered. */
  readonly config?: BrokerConfigInput;
}

export async function startClusterGateway(options: ClusterGatewayOptions = {}): Promise<ClusterGateway> {
  const etcd = await startEtcd();
  // What started is stopped again if a later step fails, so no child process outlives the test file.
  let cluster: BrokerCluster | undefined;
  let clients: BrokerClients | undefined;
  try {
    cluster = await startBrokerCluster({
      etcd,
      brokers: options.brokers ?? 3,
      config: options.config ?? FAST_SESSIONS,
    });
    const started = cluster;
    clients = createBrokerClients({
      bootstrap: started.internalBootstrap.split(','),
      token: () => started.internalToken,
      createInternalAdmin: (client) => new InternalAdmin(client),
      requestTimeoutMs: 5_000,
    });
    const services: GatewayServices = {
      broker: clients,
      logger: pino({ level: 'silent' }),
      now: Date.now,
      searchLimits: DEFAULT_SEARCH_LIMITS,
    };
    const gateway = await startHttpGateway(services);
    const connected = clients;
    return {
      etcd,
      cluster: started,
      clients: connected,
      services,
      gateway,
      async json<T>(method: string, path: string, body?: unknown): Promise<T> {
        const response = await gateway.rest(method, path, body);
        const text = await response.text();
        if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${text}`);
        return JSON.parse(text) as T;
      },
      async stop() {
        await gateway.close();
        await connected.close();
        await started.stop();
        await etcd.stop();
      },
    };
  } catch (error) {
    await clients?.close();
    await cluster?.stop();
    await etcd.stop();
    throw error;
  }
}
