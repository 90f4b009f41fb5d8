import 'server-only';
import {
  Admin,
  Client,
  type ClientOptions,
  type CompressionType,
  type EffectivePermissionsApi,
  InternalAdmin,
  type InternalAdminApi,
  Producer,
  type TlsOptions,
} from '@weir/protocol';
import { env, resolveInternalTls, resolveToken } from '../env';
import { type BrokerReachability, createBrokerReachability } from './cluster/broker-reachability';
import { RoutedInternalAdmin } from './cluster/routed-internal-admin';

/** Builds the internal-listener admin on a client; passed in so tests can substitute it. */
export type InternalAdminFactory = (client: Client) => InternalAdminApi;

export interface BrokerClientsOptions {
  /** `host:port` of the broker's internal listener (or, in some tests, its client listener). */
  readonly bootstrap: readonly string[];
  /**
   * The WEIR-TOKEN to authenticate with, or null to connect without SASL (tests that talk to a
   * client listener). Called on first use, so a missing token fails the request that needs the
   * broker, not the process.
   */
  readonly token: () => string | null;
  /**
   * TLS to the broker (a client certificate it trusts may stand in for the token, which is then
   * empty), or undefined for plaintext. Called on first use, with the token.
   */
  readonly tls?: () => TlsOptions | undefined;
  readonly createInternalAdmin: InternalAdminFactory;
  /** Act on behalf of this principal (`User:<name>`, WEIR-TOKEN's authzid): its ACLs apply. */
  readonly actAs?: string;
  readonly clientId?: string;
  readonly requestTimeoutMs?: number;
}

/**
 * The SDK objects the gateway talks to the broker through. Everything is created on first use and
 * connects lazily: the console starts, and answers health questions, with no broker around.
 */
export interface BrokerClients {
  /** The bootstrap list as configured, for messages and the overview. */
  readonly address: string;
  admin(): Admin;
  internal(): InternalAdminApi;
  /** The SDK client itself, for requests the admins do not wrap. */
  client(): Client;
  /**
   * A new client with the same connection settings, owned and closed by the caller. A live tail
   * long-polls with Fetch, and a broker answers one connection's requests in order, so on a shared
   * connection one tail's parked Fetch would hold up every other; closing it also ends the parked
   * Fetch at once.
   */
  dedicatedClient(): Client;
  /** The internal admin of one broker only (its internal listener, as the metadata advertises it). */
  nodeInternal(broker: { nodeId: number; host: string; port: number }): InternalAdminApi;
  /** Which brokers did not answer lately, and every broker seen so far. */
  readonly reachability: BrokerReachability;
  /** SASL users (internal listener APIs). */
  users(): Pick<InternalAdmin, 'listUsers' | 'upsertUser' | 'deleteUser'>;
  /** What a principal may do, as the broker's authorizer decides (internal listener API). */
  effectivePermissions(): EffectivePermissionsApi;
  /** One idempotent producer per compression codec (the SDK sets compression per producer). */
  producer(compression: CompressionType): Producer;
  close(): Promise<void>;
}

interface Connected {
  readonly client: Client;
  readonly admin: Admin;
  readonly internal: InternalAdminApi;
  readonly producers: Map<CompressionType, Producer>;
  /** One client per broker for per-partition work, keyed by `host:port`. */
  readonly nodes: Map<string, { client: Client; internal: InternalAdminApi }>;
  readonly nodeOptions: ClientOptions;
  readonly clientOptions: ClientOptions;
  sdkInternalAdmin?: InternalAdmin;
}

/**
 * A per-broker client gives up on a dead broker quickly: the caller marks it unreachable and
 * skips it (cluster/broker-reachability.ts), so no page waits on it.
 */
const NODE_CONNECT_TIMEOUT_MS = 3_000;
const NODE_RETRY = { maxAttempts: 3, maxTotalMs: 2_000 } as const;

function nodeOf(current: Connected, broker: { host: string; port: number }) {
  const address = `${broker.host}:${broker.port}`;
  let node = current.nodes.get(address);
  if (node === undefined) {
    const client = new Client({ ...current.nodeOptions, bootstrapServers: [address] });
    node = { client, internal: new InternalAdmin(client) };
    current.nodes.set(address, node);
  }
  return node;
}

/** The SDK's InternalAdmin on a connection, created once (users and permissions share it). */
function sdkInternalAdmin(current: Connected): InternalAdmin {
  current.sdkInternalAdmin ??= new InternalAdmin(current.client);
  return current.sdkInternalAdmin;
}

export function createBrokerClients(options: BrokerClientsOptions): BrokerClients {
  let connected: Connected | undefined;
  const connect = (): Connected => {
    if (connected !== undefined) return connected;
    const token = options.token();
    const tls = options.tls?.();
    const clientOptions: ClientOptions = {
      bootstrapServers: options.bootstrap,
      clientId: options.clientId ?? 'weir-console',
      requestTimeoutMs: options.requestTimeoutMs ?? 15_000,
      // The console never creates topics by looking at them.
      allowAutoTopicCreation: false,
      ...(tls === undefined ? {} : { tls }),
      ...(token === null
        ? {}
        : {
            sasl: {
              mechanism: 'WEIR-TOKEN',
              token,
              ...(options.actAs === undefined ? {} : { actAs: options.actAs }),
            },
          }),
    };
    const client = new Client(clientOptions);
    const current: Connected = {
      client,
      admin: new Admin(client),
      internal: options.createInternalAdmin(client),
      producers: new Map(),
      nodes: new Map(),
      nodeOptions: { ...clientOptions, connectTimeoutMs: NODE_CONNECT_TIMEOUT_MS, retry: NODE_RETRY },
      clientOptions,
    };
    const any = current.internal;
    const routed = new RoutedInternalAdmin({
      client,
      any,
      node: (broker) => {
        const node = nodeOf(current, broker);
        return { client: node.client, internal: options.createInternalAdmin(node.client) };
      },
      reachability,
    });
    connected = { ...current, internal: routed };
    return connected;
  };
  const reachability = createBrokerReachability();
  return {
    address: options.bootstrap.join(','),
    admin: () => connect().admin,
    internal: () => connect().internal,
    client: () => connect().client,
    dedicatedClient: () => {
      const { clientOptions } = connect();
      return new Client({ ...clientOptions, clientId: `${clientOptions.clientId}-tail` });
    },
    nodeInternal: (broker) => options.createInternalAdmin(nodeOf(connect(), broker).client),
    reachability,
    users: () => sdkInternalAdmin(connect()),
    effectivePermissions: () => sdkInternalAdmin(connect()),
    producer(compression) {
      const { client, producers } = connect();
      let producer = producers.get(compression);
      if (producer === undefined) {
        producer = new Producer(client, { compression, acks: -1 });
        producers.set(compression, producer);
      }
      return producer;
    },
    async close() {
      const current = connected;
      connected = undefined;
      if (current === undefined) return;
      await Promise.allSettled([...current.producers.values()].map((producer) => producer.close()));
      await Promise.allSettled([...current.nodes.values()].map((node) => node.client.close()));
      await current.client.close();
    },
  };
}

// Kept on globalThis so that Next.js's dev-mode module reloads reuse the connections.
const PROCESS_KEY = Symbol.for('weir.console.brokerClients');
type ProcessSlot = { [PROCESS_KEY]?: BrokerClients };

/** The process's broker clients, configured from the environment. */
export function processBrokerClients(): BrokerClients {
  const slot = globalThis as ProcessSlot;
  slot[PROCESS_KEY] ??= createBrokerClients({
    ...processBrokerConnection(),
    createInternalAdmin: (client) => new InternalAdmin(client),
  });
  return slot[PROCESS_KEY];
}

/**
 * How this process reaches the internal listener, from the environment: the bootstrap list, the
 * token and TLS. Shared by the console's own clients and those acting for a logged-in user.
 */
export function processBrokerConnection(): Pick<BrokerClientsOptions, 'bootstrap' | 'token' | 'tls'> {
  return {
    bootstrap: env().brokerBootstrap,
    token: () => resolveToken(env().token),
    tls: () => resolveInternalTls(env().internalTls),
  };
}
