import { ErrorCode } from '../errors/error-codes';
import { errorForCode, WeirError } from '../errors/weir-error';
import { Metadata } from '../messages/apis/metadata';
import type { ApiSchema, RequestOf, ResponseOf } from '../schema/api';
import { ZERO_UUID } from '../schema/types';
import type { TlsOptions, TransportFactory } from '../transport/transport';
import type { SaslOptions } from './auth/sasl-options';
import { type BrokerAddress, formatBrokerAddress, parseBrokerAddress } from './broker-address';
import { ClosedError } from './closed-error';
import {
  type BrokerMetadata,
  type ClusterMetadata,
  type MetadataSnapshot,
  needsMetadataRefresh,
  snapshotFromResponse,
  type TopicMetadata,
} from './cluster-metadata';
import { Connection } from './connection';
import { type RetryOptions, RetryPolicy } from './retry';

/** Settings of a {@link Client}. Every duration and size carries its unit in its name. */
export interface ClientOptions {
  /** `host:port` entries to learn the cluster from; any one reachable broker is enough. */
  readonly bootstrapServers: readonly string[];
  /** Sent in every request header. Default `'weir'`. */
  readonly clientId?: string;
  /** Default 10 s. */
  readonly connectTimeoutMs?: number;
  /** Deadline of one request; a long-polling Fetch gets its wait on top. Default 30 s. */
  readonly requestTimeoutMs?: number;
  /** The largest response frame accepted. Default 100 MiB. */
  readonly maxFrameBytes?: number;
  /** Cached topic metadata older than this is fetched again before use. Default 5 min. */
  readonly metadataMaxAgeMs?: number;
  /**
   * Whether metadata lookups made for producing and consuming ask the broker to create a missing
   * topic (it does so only if its own `auto.create.topics.enable` is on). Admin lookups never ask.
   * Default true, as in the Java client.
   */
  readonly allowAutoTopicCreation?: boolean;
  /** How retriable failures are retried; see {@link RetryOptions} for the defaults. */
  readonly retry?: RetryOptions;
  /** How sockets are opened. Default: plain TCP through `node:net`. */
  readonly transport?: TransportFactory;
  /**
   * SASL authentication on every connection, right after ApiVersions. A refusal is a WeirError
   * (SASL_AUTHENTICATION_FAILED, UNSUPPORTED_SASL_MECHANISM) that is not retried. Default: none.
   */
  readonly sasl?: SaslOptions;
  /**
   * TLS on every connection (listeners with security.protocol SSL or SASL_SSL): the CA to trust,
   * and a client certificate and key for mutual TLS. Default: plain TCP.
   */
  readonly tls?: TlsOptions;
  /** Random numbers in [0, 1) for backoff jitter and partition choice. Default `Math.random`. */
  readonly random?: () => number;
}

/**
 * Which of a broker's two connections a request uses. Long-polling Fetches get their own, so a
 * Fetch parked for seconds never holds up Produce, Metadata or admin requests behind it (the
 * broker answers each connection strictly in order).
 */
export type ConnectionLane = 'default' | 'fetch';

/** Where {@link Client.send} sends a request. */
export type RequestTarget = number | 'any' | 'controller';

/** Per-request settings of {@link Client.send}. */
export interface ClientRequestOptions {
  /** Default `'default'`. */
  readonly lane?: ConnectionLane;
  /** Overrides `requestTimeoutMs` for this request. */
  readonly timeoutMs?: number;
}

interface CachedTopic {
  readonly metadata: TopicMetadata;
  readonly fetchedAtMs: number;
  stale: boolean;
}

/**
 * The shared base of the producer, consumer and admin: bootstrap, a metadata cache, leader routing,
 * two connections per broker ({@link ConnectionLane}), and retries of retriable errors with bounded
 * exponential backoff. Producers, consumers and admins take a client in their constructor and never
 * close it; whoever created the client closes it.
 */
export class Client {
  /** Sent in request headers. */
  readonly clientId: string;
  readonly requestTimeoutMs: number;
  readonly retryPolicy: RetryPolicy;
  /** The random source from the options, shared with the producer's partitioner. */
  readonly random: () => number;
  readonly allowAutoTopicCreation: boolean;
  readonly #bootstrap: readonly BrokerAddress[];
  readonly #connectTimeoutMs: number;
  readonly #maxFrameBytes: number | undefined;
  readonly #metadataMaxAgeMs: number;
  readonly #transport: TransportFactory | undefined;
  readonly #sasl: SaslOptions | undefined;
  readonly #tls: TlsOptions | undefined;
  readonly #connections = new Map<string, Connection>();
  readonly #topics = new Map<string, CachedTopic>();
  readonly #metadataRequests = new Map<string, Promise<MetadataSnapshot>>();
  readonly #abort = new AbortController();
  #brokers = new Map<number, BrokerMetadata>();
  #clusterId: string | null = null;
  #controllerId = -1;
  #nextCandidate = 0;
  #closing: Promise<void> | undefined;

  constructor(options: ClientOptions) {
    if (options.bootstrapServers.length === 0) throw new RangeError('bootstrapServers is empty');
    this.#bootstrap = options.bootstrapServers.map(parseBrokerAddress);
    this.clientId = options.clientId ?? 'weir';
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.#maxFrameBytes = options.maxFrameBytes;
    this.#metadataMaxAgeMs = options.metadataMaxAgeMs ?? 5 * 60_000;
    this.allowAutoTopicCreation = options.allowAutoTopicCreation ?? true;
    this.#transport = options.transport;
    this.#sasl = options.sasl;
    this.#tls = options.tls;
    this.random = options.random ?? Math.random;
    this.retryPolicy = new RetryPolicy(options.retry, this.random);
  }

  /** Whether {@link close} has been called. */
  get closed(): boolean {
    return this.#closing !== undefined;
  }

  /** Aborts when the client closes; long waits in producers and consumers listen to it. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /**
   * Connects to a bootstrap server and loads the cluster's brokers, retrying as configured. Other
   * methods do this on first use; calling it first only makes a bad address fail early.
   */
  async connect(): Promise<ClusterMetadata> {
    return (await this.refreshMetadata([])).cluster;
  }

  /** The brokers, controller and cluster id as last seen (empty before the first metadata answer). */
  cluster(): ClusterMetadata {
    return {
      clusterId: this.#clusterId,
      controllerId: this.#controllerId,
      brokers: [...this.#brokers.values()],
    };
  }

  /** A broker of the last metadata answer. */
  broker(nodeId: number): BrokerMetadata | undefined {
    return this.#brokers.get(nodeId);
  }

  /**
   * Fetches metadata for some topics (`null`: all of them, `[]`: none, only the brokers), retrying
   * failed requests. Topic-level errors are returned in each topic's `errorCode`, not thrown.
   */
  refreshMetadata(
    topics: readonly string[] | null,
    options: { allowAutoTopicCreation?: boolean } = {},
  ): Promise<MetadataSnapshot> {
    return this.retry(() => this.#fetchMetadata(topics, options.allowAutoTopicCreation ?? false));
  }

  /**
   * One topic's metadata: from the cache while it is fresh, otherwise from a broker. A topic error
   * (UNKNOWN_TOPIC_OR_PARTITION, LEADER_NOT_AVAILABLE while it is being created, …) is retried like
   * any retriable error and thrown as a {@link WeirError} when retries run out.
   */
  async topic(name: string, options: { refresh?: boolean } = {}): Promise<TopicMetadata> {
    const cached = this.#topics.get(name);
    if (!options.refresh && cached !== undefined && this.#isFresh(cached)) return cached.metadata;
    return this.retry(async () => {
      const snapshot = await this.#fetchMetadata([name], this.allowAutoTopicCreation);
      const topic = snapshot.topics.find((candidate) => candidate.name === name);
      if (topic === undefined) {
        throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, {
          detail: `the metadata answer does not mention topic "${name}".`,
        });
      }
      if (topic.errorCode !== ErrorCode.NONE) throw errorForCode(topic.errorCode, `Topic "${name}".`);
      return topic;
    });
  }

  /**
   * Metadata of several topics in one request at most: fresh cache entries as they are, the rest
   * from a broker. Not retried, and topic errors are not thrown: a missing topic comes back with
   * its `errorCode`. For callers that run their own retry loop and report errors per item.
   */
  async topicsMetadata(names: readonly string[]): Promise<Map<string, TopicMetadata>> {
    const result = new Map<string, TopicMetadata>();
    const missing: string[] = [];
    for (const name of new Set(names)) {
      const cached = this.#topics.get(name);
      if (cached !== undefined && this.#isFresh(cached)) result.set(name, cached.metadata);
      else missing.push(name);
    }
    if (missing.length === 0) return result;
    const snapshot = await this.#fetchMetadata(missing, false);
    for (const topic of snapshot.topics) result.set(topic.name, topic);
    for (const name of missing) {
      if (!result.has(name)) {
        result.set(name, {
          name,
          isInternal: false,
          errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
          partitions: [],
        });
      }
    }
    return result;
  }

  /** A topic's cached metadata, fresh or not, without asking any broker. */
  cachedTopic(name: string): TopicMetadata | undefined {
    return this.#topics.get(name)?.metadata;
  }

  /**
   * Whether a topic's cached metadata is stale (marked so, or older than `metadataMaxAgeMs`): it
   * may still be used, but should be fetched again. False when nothing is cached.
   */
  isTopicStale(name: string): boolean {
    const cached = this.#topics.get(name);
    return cached !== undefined && !this.#isFresh(cached);
  }

  /** Marks a topic's metadata stale (or every topic's, and the controller), so it is fetched again. */
  invalidateMetadata(topic?: string): void {
    if (topic !== undefined) {
      const cached = this.#topics.get(topic);
      if (cached) cached.stale = true;
      return;
    }
    for (const cached of this.#topics.values()) cached.stale = true;
    this.#controllerId = -1;
  }

  /**
   * Sends one request, without retrying: to a node id, to `'any'` broker (a ready connection, else
   * the next known broker or bootstrap server in turn) or to the `'controller'`.
   */
  async send<A extends ApiSchema>(
    target: RequestTarget,
    api: A,
    body: RequestOf<A>,
    options: ClientRequestOptions = {},
  ): Promise<ResponseOf<A>> {
    const connection =
      target === 'any'
        ? await this.anyConnection()
        : target === 'controller'
          ? await this.#controllerConnection()
          : await this.connectionTo(target, options.lane);
    return connection.send(
      api,
      body,
      options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
    );
  }

  /**
   * Runs `operation` under the client's retry policy. Before each retry, errors that suggest stale
   * metadata (see {@link needsMetadataRefresh}) mark the cache stale. Closing the client stops the
   * waits and rejects with a {@link ClosedError}.
   */
  retry<T>(
    operation: (attempt: number) => Promise<T>,
    onRetry?: (error: unknown, attempt: number) => void,
  ): Promise<T> {
    if (this.closed) return Promise.reject(new ClosedError('the client'));
    return this.retryPolicy.run(operation, {
      signal: this.#abort.signal,
      onRetry: (error, attempt) => {
        if (needsMetadataRefresh(error)) this.invalidateMetadata();
        onRetry?.(error, attempt);
      },
    });
  }

  /** The ready connection to a broker on a lane, opening it if needed. */
  async connectionTo(nodeId: number, lane: ConnectionLane = 'default'): Promise<Connection> {
    let broker = this.#brokers.get(nodeId);
    if (broker === undefined) {
      await this.#fetchMetadata([], false);
      broker = this.#brokers.get(nodeId);
    }
    if (broker === undefined) {
      throw new WeirError(ErrorCode.BROKER_NOT_AVAILABLE, {
        detail: `node ${nodeId} is not among the cluster's brokers.`,
      });
    }
    return this.#connection(broker, lane);
  }

  /**
   * The connection to a broker on a lane if it is open and ready, else undefined; it never waits.
   * Writers that must keep requests in order (the producer) use it to write synchronously.
   */
  readyConnection(nodeId: number, lane: ConnectionLane = 'default'): Connection | undefined {
    const broker = this.#brokers.get(nodeId);
    if (broker === undefined) return undefined;
    const connection = this.#connections.get(`${formatBrokerAddress(broker)}/${lane}`);
    return connection?.status.state === 'ready' ? connection : undefined;
  }

  /**
   * A ready connection to any broker: the least busy open one, else the next of the known brokers
   * and bootstrap servers in turn, so successive failures walk through all of them.
   */
  async anyConnection(): Promise<Connection> {
    let best: Connection | undefined;
    for (const [key, connection] of this.#connections) {
      if (!key.endsWith('/default') || connection.status.state !== 'ready') continue;
      if (best === undefined || connection.inFlightCount < best.inFlightCount) best = connection;
    }
    if (best !== undefined) return best;
    const candidates = new Map<string, BrokerAddress>();
    for (const broker of this.#brokers.values()) candidates.set(formatBrokerAddress(broker), broker);
    for (const address of this.#bootstrap) candidates.set(formatBrokerAddress(address), address);
    const list = [...candidates.values()];
    const address = list[this.#nextCandidate++ % list.length]!;
    return this.#connection(address, 'default');
  }

  /**
   * Closes every connection; requests still waiting fail with NETWORK_EXCEPTION and retries in
   * progress stop with a {@link ClosedError}. Idempotent; resolves once the sockets are closed.
   */
  close(): Promise<void> {
    if (this.#closing !== undefined) return this.#closing;
    this.#abort.abort(new ClosedError('the client'));
    const connections = [...this.#connections.values()];
    this.#connections.clear();
    for (const connection of connections) connection.close();
    this.#closing = Promise.all(connections.map((connection) => connection.socketClosed())).then(() => {});
    return this.#closing;
  }

  #isFresh(cached: CachedTopic): boolean {
    return !cached.stale && Date.now() - cached.fetchedAtMs < this.#metadataMaxAgeMs;
  }

  /** One Metadata request, shared by concurrent callers asking the same question. */
  #fetchMetadata(
    topics: readonly string[] | null,
    allowAutoTopicCreation: boolean,
  ): Promise<MetadataSnapshot> {
    const key = `${allowAutoTopicCreation}|${topics === null ? '*' : [...topics].sort().join('\u0000')}`;
    const running = this.#metadataRequests.get(key);
    if (running !== undefined) return running;
    const request = (async () => {
      const connection = await this.anyConnection();
      const body = await connection.send(Metadata, {
        // By name: the zero id is what Kafka's clients send for a topic not asked by id (v10+).
        topics: topics === null ? null : topics.map((name) => ({ topicId: ZERO_UUID, name })),
        allowAutoTopicCreation,
        includeClusterAuthorizedOperations: false,
        includeTopicAuthorizedOperations: false,
      });
      return this.#absorb(snapshotFromResponse(body), topics === null);
    })().finally(() => this.#metadataRequests.delete(key));
    this.#metadataRequests.set(key, request);
    return request;
  }

  #absorb(snapshot: MetadataSnapshot, allTopics: boolean): MetadataSnapshot {
    this.#brokers = new Map(snapshot.cluster.brokers.map((broker) => [broker.nodeId, broker]));
    this.#clusterId = snapshot.cluster.clusterId;
    this.#controllerId = snapshot.cluster.controllerId;
    const fetchedAtMs = Date.now();
    if (allTopics) this.#topics.clear();
    for (const topic of snapshot.topics) {
      // Only healthy answers are cached, so a topic with an error is asked about again next time.
      if (topic.errorCode === ErrorCode.NONE)
        this.#topics.set(topic.name, { metadata: topic, fetchedAtMs, stale: false });
      else this.#topics.delete(topic.name);
    }
    return snapshot;
  }

  async #controllerConnection(): Promise<Connection> {
    if (this.#controllerId < 0 || !this.#brokers.has(this.#controllerId))
      await this.#fetchMetadata([], false);
    if (this.#controllerId < 0) {
      throw new WeirError(ErrorCode.NOT_CONTROLLER, { detail: 'the cluster reports no controller.' });
    }
    return this.connectionTo(this.#controllerId);
  }

  /**
   * A new connection to `address` with this client's settings (transport, TLS, SASL, deadlines), which
   * the caller owns and closes: for connections kept apart from the client's own, such as a group
   * consumer's link to its coordinator.
   */
  openConnection(address: BrokerAddress): Connection {
    return new Connection({
      host: address.host,
      port: address.port,
      clientId: this.clientId,
      connectTimeoutMs: this.#connectTimeoutMs,
      requestTimeoutMs: this.requestTimeoutMs,
      ...(this.#maxFrameBytes === undefined ? {} : { maxFrameBytes: this.#maxFrameBytes }),
      ...(this.#transport === undefined ? {} : { transport: this.#transport }),
      ...(this.#sasl === undefined ? {} : { sasl: this.#sasl }),
      ...(this.#tls === undefined ? {} : { tls: this.#tls }),
    });
  }

  async #connection(address: BrokerAddress, lane: ConnectionLane): Promise<Connection> {
    if (this.closed) throw new ClosedError('the client');
    const key = `${formatBrokerAddress(address)}/${lane}`;
    let connection = this.#connections.get(key);
    if (connection === undefined || connection.status.state === 'closed') {
      const created = this.openConnection(address);
      created.onStatusChange((status) => {
        if (status.state === 'closed' && this.#connections.get(key) === created)
          this.#connections.delete(key);
      });
      this.#connections.set(key, created);
      connection = created;
    }
    await connection.ready();
    return connection;
  }
}
