// N brokers as child processes (fixtures/broker-child.ts) in cluster mode against an etcd the test
// started (etcd-process.ts): each on ports chosen free up front (client, internal, health,
// metrics), so a restart comes back where clients and the other brokers know it, with its own
// temporary data directory, stopped by PID. docs/architecture.md §10 describes the test fixtures.

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type TemporaryDirectory, temporaryDirectory } from '@weir/test-broker';
import type { BrokerConfigInput } from '../../src/config/broker-config';
import { spawnChildBroker } from '../broker-child-process';
import { pollUntil } from '../group-fixtures';
import { EtcdLinkProxy } from './etcd-link-proxy';
import type { EtcdCluster } from './etcd-process';
import { freePorts, isAddressInUse, type PortSource } from './free-ports';
import { LinkCuts } from './nft-link-cuts';
import { describeExit, SupervisedProcess } from './supervised-process';

/** Port collisions at a first start (another process took a port after `freePorts`) retried this often. */
const START_ATTEMPTS = 3;
/**
 * A broker's start includes log recovery and creating `__consumer_offsets`, but on this shared
 * machine most of it is loading the broker's sources through tsx in each child: three children
 * starting at once took 11 s at a load average of 17.
 */
const READY_TIMEOUT_MS = 60_000;

/**
 * Where each broker listens. `shared`: all on 127.0.0.1. `per-broker`: broker i on 127.0.0.(10+i),
 * the address the nemesis cuts links by (nft rules on source and destination address,
 * nft-link-cuts.ts). Brokers dial each other from their own address, so broker links can be cut;
 * their etcd client cannot bind one, so links to etcd go through `etcdProxies` instead.
 */
export type LoopbackHosts = 'shared' | 'per-broker';

export interface BrokerClusterOptions {
  etcd: EtcdCluster;
  /** How many brokers (node ids 1..N); 3 by default. */
  brokers?: number;
  /** The cluster name (etcd key prefix); a fresh one per cluster by default, so clusters never meet. */
  name?: string;
  hosts?: LoopbackHosts;
  /** `broker.rack` per node id, for rack-aware placement. */
  racks?: Readonly<Record<number, string>>;
  /** Settings merged over the fixture's for every broker (e.g. shorter TTLs). */
  config?: BrokerConfigInput;
  /** Where the ports come from; `freePorts` unless a test forces a collision. */
  ports?: PortSource;
  /** Resolve once every broker answers `/ready` 200 (the default), or as soon as all are spawned. */
  waitReady?: boolean;
  /**
   * Each broker reaches etcd through its own proxy in the test process (etcd-link-proxy.ts), so
   * `isolateFromEtcd` can cut one broker off from etcd and no other. Off by default.
   */
  etcdProxies?: boolean;
}

export interface ClusterBrokerPorts {
  client: number;
  internal: number;
  health: number;
  metrics: number;
}

/** What `/ready` answered (its status code and JSON body). */
export interface Readiness {
  status: number;
  body: { status?: string; summary?: string; checks?: unknown[] };
}

/** One broker of the cluster: its node id, addresses and data directory, and its process. */
export class ClusterBroker {
  readonly nodeId: number;
  readonly host: string;
  readonly dataDir: string;
  #ports: ClusterBrokerPorts;
  #config: Record<string, unknown>;
  #process: SupervisedProcess | undefined;
  #etcdProxy: EtcdLinkProxy | undefined;

  constructor(
    nodeId: number,
    host: string,
    dataDir: string,
    ports: ClusterBrokerPorts,
    config: Record<string, unknown>,
    etcdProxy?: EtcdLinkProxy,
  ) {
    this.nodeId = nodeId;
    this.host = host;
    this.dataDir = dataDir;
    this.#ports = ports;
    this.#config = config;
    this.#etcdProxy = etcdProxy;
  }

  /** The proxy this broker reaches etcd through (`etcdProxies: true`); throws without one. */
  get etcdProxy(): EtcdLinkProxy {
    if (!this.#etcdProxy)
      throw new Error(
        `broker ${this.nodeId} reaches etcd directly; start the cluster with etcdProxies: true`,
      );
    return this.#etcdProxy;
  }

  /** Cuts this broker off from etcd (and only it): its etcd calls and lease keepalives hang. */
  isolateFromEtcd(): void {
    this.etcdProxy.cut();
  }

  /** Ends `isolateFromEtcd`: the black-holed connections are closed, and the broker's client reconnects. */
  reconnectToEtcd(): void {
    this.etcdProxy.heal();
  }

  get ports(): ClusterBrokerPorts {
    return this.#ports;
  }

  /** The broker config the child was started with (JSON), for assertions and messages. */
  get config(): Record<string, unknown> {
    return this.#config;
  }

  /** `host:port` of the client listener: a bootstrap server for kcat, kafkajs and the SDK. */
  get bootstrap(): string {
    return `${this.host}:${this.#ports.client}`;
  }

  /** `host:port` of the internal listener (the console's gateway, other brokers). */
  get internalAddress(): string {
    return `${this.host}:${this.#ports.internal}`;
  }

  get healthUrl(): string {
    return `http://${this.host}:${this.#ports.health}`;
  }

  get metricsUrl(): string {
    return `http://${this.host}:${this.#ports.metrics}/metrics`;
  }

  /** The running process; throws when the broker is not running. */
  get process(): SupervisedProcess {
    if (!this.#process || this.#process.hasExited) throw new Error(`broker ${this.nodeId} is not running`);
    return this.#process;
  }

  get isRunning(): boolean {
    return this.#process !== undefined && !this.#process.hasExited;
  }

  /** Starts the child on this broker's config; returns at once (see `waitReady`). */
  spawn(): SupervisedProcess {
    if (this.isRunning) throw new Error(`broker ${this.nodeId} is already running`);
    const child = spawnChildBroker(this.#config, { probes: true, stderr: 'pipe' });
    this.#process = new SupervisedProcess(`broker ${this.nodeId}`, child);
    return this.#process;
  }

  /** One `/ready` request, bounded (a paused broker never answers); undefined when nothing answered. */
  async readiness(): Promise<Readiness | undefined> {
    try {
      const response = await fetch(`${this.healthUrl}/ready`, { signal: AbortSignal.timeout(1000) });
      return { status: response.status, body: (await response.json()) as Readiness['body'] };
    } catch {
      return undefined;
    }
  }

  /**
   * Resolves once `/live` answers 200 (the process serves its probes; the broker may still be
   * starting, or unable to: `/ready` says why); rejects with its log if the process exits first.
   */
  async waitLive(timeoutMs = READY_TIMEOUT_MS): Promise<void> {
    const broker = this.process;
    await pollUntil(
      async () => {
        if (broker.hasExited)
          throw new BrokerExitedError(this.nodeId, describeExit(await broker.exited), broker.output());
        const response = await fetch(`${this.healthUrl}/live`, { signal: AbortSignal.timeout(1000) }).catch(
          () => undefined,
        );
        return response?.ok;
      },
      `broker ${this.nodeId} to be live at ${this.healthUrl}/live`,
      { timeoutMs, intervalMs: 50 },
    );
  }

  /** Resolves once `/ready` answers 200; rejects with its log if the process exits first. */
  async waitReady(timeoutMs = READY_TIMEOUT_MS): Promise<Readiness> {
    const broker = this.process;
    let last: Readiness | undefined;
    try {
      return await pollUntil(
        async () => {
          if (broker.hasExited)
            throw new BrokerExitedError(this.nodeId, describeExit(await broker.exited), broker.output());
          last = await this.readiness();
          return last?.status === 200 ? last : undefined;
        },
        `broker ${this.nodeId} to be ready at ${this.healthUrl}/ready`,
        { timeoutMs, intervalMs: 50 },
      );
    } catch (error) {
      if (error instanceof BrokerExitedError) throw error;
      throw new Error(
        `broker ${this.nodeId} was not ready within ${timeoutMs} ms; /ready last said ${JSON.stringify(last?.body.summary ?? last)}\n${broker.output()}`,
      );
    }
  }

  /** kill -9: no graceful stop, no unregistering; resolves once it has exited. */
  async kill9(): Promise<void> {
    await this.#process?.kill9();
  }

  /** SIGSTOP: its sockets and its etcd lease stay, it answers nothing (a zombie until `resume`). */
  pause(): void {
    this.process.pause();
  }

  resume(): void {
    this.process.resume();
  }

  /** A graceful stop (SIGTERM; SIGKILL after a bound); resolves once it has exited. */
  async stop(): Promise<void> {
    await this.#process?.stop();
  }

  /**
   * Stops it if running and starts it again with the same node id, data directory and ports, then
   * waits until it is ready. A port some other process took meanwhile fails the restart, naming it.
   */
  async restart(): Promise<Readiness> {
    await this.stop();
    this.spawn();
    return this.waitReady();
  }
}

class BrokerExitedError extends Error {
  readonly output: string;
  constructor(nodeId: number, exit: string, output: string) {
    super(`broker ${nodeId} exited (${exit}) before it was ready:\n${output}`);
    this.output = output;
  }
}

/** The brokers of one cluster; `stop()` stops them by PID and removes their data (not the etcd). */
export class BrokerCluster {
  readonly name: string;
  readonly etcd: EtcdCluster;
  readonly brokers: readonly ClusterBroker[];
  /** The internal listeners' shared token: the console's gateway and other brokers present it. */
  readonly internalToken: string;
  #directory: TemporaryDirectory;
  #etcdProxies: readonly EtcdLinkProxy[];
  /** Made on the first cut, so clusters that cut nothing need neither nft nor root. */
  #linkCuts: LinkCuts | undefined;

  constructor(
    name: string,
    etcd: EtcdCluster,
    brokers: readonly ClusterBroker[],
    internalToken: string,
    directory: TemporaryDirectory,
    etcdProxies: readonly EtcdLinkProxy[] = [],
  ) {
    this.name = name;
    this.etcd = etcd;
    this.brokers = brokers;
    this.internalToken = internalToken;
    this.#directory = directory;
    this.#etcdProxies = etcdProxies;
  }

  /** The broker with `nodeId` (1..N). */
  broker(nodeId: number): ClusterBroker {
    const broker = this.brokers.find((candidate) => candidate.nodeId === nodeId);
    if (!broker) throw new Error(`no broker ${nodeId} in cluster ${this.name}`);
    return broker;
  }

  /** Every broker's client listener, for kafkajs `brokers` and the SDK. */
  get bootstrapServers(): string[] {
    return this.brokers.map((broker) => broker.bootstrap);
  }

  /** The same, comma-separated, for `kcat -b`. */
  get bootstrap(): string {
    return this.bootstrapServers.join(',');
  }

  /** Every internal listener, comma-separated: `WEIR_CONSOLE_BROKER` for the console. */
  get internalBootstrap(): string {
    return this.brokers.map((broker) => broker.internalAddress).join(',');
  }

  waitReady(broker: ClusterBroker, timeoutMs?: number): Promise<Readiness> {
    return broker.waitReady(timeoutMs);
  }

  /** Waits until every running broker is ready. */
  async waitAllReady(timeoutMs?: number): Promise<void> {
    await Promise.all(
      this.brokers.filter((broker) => broker.isRunning).map((broker) => broker.waitReady(timeoutMs)),
    );
  }

  /**
   * Cuts `broker` off from every other broker, both ways (nft drops between their addresses, so
   * established connections hang too); clients and etcd still reach it. Needs `hosts: 'per-broker'`.
   */
  isolateFromBrokers(broker: ClusterBroker): void {
    const cuts = this.#cuts('isolateFromBrokers');
    for (const other of this.brokers) if (other !== broker) cuts.cut(broker.host, other.host);
  }

  /**
   * Cuts `broker`'s client listener off from clients (kcat, kafkajs and the SDK connect from
   * 127.0.0.1), both ways. Only that listener: its health and metrics endpoints and its internal
   * listener stay reachable, so a test can still ask `/ready` what the broker thinks. Needs
   * `hosts: 'per-broker'`.
   */
  isolateFromClients(broker: ClusterBroker): void {
    this.#cuts('isolateFromClients').cutService(CLIENT_ADDRESS, broker.host, broker.ports.client);
  }

  /** Cuts `broker` off from etcd (its proxy black-holes); needs `etcdProxies: true`. */
  isolateFromEtcd(broker: ClusterBroker): void {
    broker.isolateFromEtcd();
  }

  /** Ends `isolateFromEtcd` (see `ClusterBroker.reconnectToEtcd`). */
  reconnectToEtcd(broker: ClusterBroker): void {
    broker.reconnectToEtcd();
  }

  /** Heals every cut: broker links, client links and etcd links. */
  healAll(): void {
    this.#linkCuts?.healAll();
    for (const proxy of this.#etcdProxies) proxy.heal();
  }

  #cuts(what: string): LinkCuts {
    if (this.brokers.some((broker) => broker.host === CLIENT_ADDRESS))
      throw new Error(`${what} tells brokers apart by address; start the cluster with hosts: 'per-broker'`);
    this.#linkCuts ??= new LinkCuts();
    return this.#linkCuts;
  }

  /**
   * Stops every broker by PID (SIGTERM, SIGKILL after a bound), removes their data directories,
   * and removes the nemesis: the nft table of the cuts and the etcd proxies.
   */
  async stop(): Promise<void> {
    try {
      // Healed first, so a graceful stop can reach etcd and its peers to hand over.
      this.healAll();
      await Promise.all(this.brokers.map((broker) => broker.stop()));
      await this.#directory.cleanup();
    } finally {
      this.#linkCuts?.close();
      await Promise.all(this.#etcdProxies.map((proxy) => proxy.close()));
    }
  }
}

/** Where tests' clients connect from: the kernel's source address for any 127/8 destination. */
const CLIENT_ADDRESS = '127.0.0.1';

/**
 * Starts `brokers` brokers (3 by default) in cluster mode against `etcd`, each with ports chosen
 * free up front, its own data directory and an explicit node id, and waits until all are ready
 * (all are spawned first: in a cluster one broker's readiness may wait for another). A broker
 * that exits because a port was taken after `freePorts` chose it is started again on new ports.
 * The caller stops them with `stop()` (in `onTestFinished` or `afterEach`, before the etcd).
 */
export async function startBrokerCluster(options: BrokerClusterOptions): Promise<BrokerCluster> {
  const count = options.brokers ?? 3;
  const name = options.name ?? `test-${randomBytes(4).toString('hex')}`;
  const internalToken = `weir-test-${randomBytes(16).toString('hex')}`;
  const directory = await temporaryDirectory('weir-cluster-');
  const brokers: ClusterBroker[] = [];
  const etcdProxies: EtcdLinkProxy[] = [];
  const cluster = new BrokerCluster(name, options.etcd, brokers, internalToken, directory, etcdProxies);
  const waitReady = options.waitReady ?? true;
  try {
    if (options.etcdProxies)
      for (let i = 0; i < count; i++) etcdProxies.push(await EtcdLinkProxy.start(options.etcd.endpoints));
    const plans = Array.from({ length: count }, (_, i): BrokerPlan => {
      const nodeId = i + 1;
      const host = options.hosts === 'per-broker' ? `127.0.0.${10 + nodeId}` : '127.0.0.1';
      const ports = options.ports ?? freePorts;
      return {
        nodeId,
        host,
        name,
        internalToken,
        etcd: options.etcd,
        racks: options.racks,
        directory,
        ports,
        etcdProxy: etcdProxies[i],
      };
    });
    for (const plan of plans) {
      const broker = await plannedBroker(plan, options.config ?? {});
      brokers.push(broker);
      broker.spawn();
    }
    await Promise.all(
      plans.map(async (plan, index) => {
        for (let attempt = 1; ; attempt++) {
          const broker = brokers[index]!;
          try {
            await (waitReady ? broker.waitReady() : broker.waitLive());
            return;
          } catch (error) {
            const collided = error instanceof BrokerExitedError && isAddressInUse(error.output);
            if (!collided || attempt === START_ATTEMPTS) throw error;
            brokers[index] = await plannedBroker(plan, options.config ?? {});
            brokers[index].spawn();
          }
        }
      }),
    );
    return cluster;
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

interface BrokerPlan {
  nodeId: number;
  host: string;
  name: string;
  internalToken: string;
  etcd: EtcdCluster;
  racks: Readonly<Record<number, string>> | undefined;
  directory: TemporaryDirectory;
  ports: PortSource;
  /** The broker's own way to etcd (`etcdProxies`); it reaches the members directly without one. */
  etcdProxy: EtcdLinkProxy | undefined;
}

/** A broker of the plan on four ports free right now (not started). */
async function plannedBroker(plan: BrokerPlan, overrides: BrokerConfigInput): Promise<ClusterBroker> {
  const [client, internal, health, metrics] = await plan.ports(plan.host, 4);
  const ports = { client: client!, internal: internal!, health: health!, metrics: metrics! };
  const dataDir = join(plan.directory.path, `broker-${plan.nodeId}`);
  return new ClusterBroker(
    plan.nodeId,
    plan.host,
    dataDir,
    ports,
    brokerConfig(plan, ports, dataDir, overrides),
    plan.etcdProxy,
  );
}

function brokerConfig(
  plan: BrokerPlan,
  ports: ClusterBrokerPorts,
  dataDir: string,
  overrides: BrokerConfigInput,
): Record<string, unknown> {
  const rack = plan.racks?.[plan.nodeId];
  const base: BrokerConfigInput = {
    nodeId: plan.nodeId,
    dataDir,
    ...(rack === undefined ? {} : { rack }),
    cluster: {
      etcdEndpoints: plan.etcdProxy ? [plan.etcdProxy.endpoint] : plan.etcd.endpoints,
      name: plan.name,
    },
    listeners: {
      client: { host: plan.host, port: ports.client },
      internal: { host: plan.host, port: ports.internal, token: plan.internalToken },
    },
    health: { host: plan.host, port: ports.health },
    metrics: { host: plan.host, port: ports.metrics },
    // The log goes to the fixture, which keeps its last lines for the error messages.
    logging: { level: 'info', pretty: false },
  };
  return mergeSettings(base as Record<string, unknown>, overrides as Record<string, unknown>);
}

/** `overrides` merged over `base`, nested objects key by key (arrays and scalars replace). */
function mergeSettings(
  base: Record<string, unknown>,
  overrides: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    const current = merged[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? mergeSettings(current, value) : value;
  }
  return merged;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
