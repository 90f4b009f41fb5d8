import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { InternalTokenSource } from './broker-internal-token';
import {
  type BrokerListeners,
  boundListeners,
  createBrokerListeners,
  listenerEndpoint,
  openConnectionCount,
} from './broker-listeners';
import { brokerReadiness } from './broker-readiness';
import type { BrokerCommands } from './commands/broker-commands';
import { BrokerOverviewCommands } from './commands/broker-overview-commands';
import { ClusterCommands } from './commands/cluster-commands';
import { ConfigCommands } from './commands/config-commands';
import { DataCommands } from './commands/data-commands';
import { GroupCommands, type GroupStats } from './commands/group-commands';
import { GroupLagCommands } from './commands/group-lag-commands';
import { PartitionInternalsCommands } from './commands/partition-internals-commands';
import { ProducerIdCommands } from './commands/producer-id-commands';
import { RecordScanCommands } from './commands/record-scan-commands';
import { TopicCommands } from './commands/topic-commands';
import { TopicSummaryCommands } from './commands/topic-summary-commands';
import { TransactionMarkers } from './commands/transaction-markers';
import { TransactionCommands } from './commands/txn-commands';
import type { BrokerConfig } from './config/broker-config';
import { GroupCoordinator } from './group/group-coordinator';
import { type GroupScheduler, systemGroupScheduler } from './group/group-scheduler';
import { OffsetsTopicStore } from './group/offsets-topic';
import type { ReadinessCheck } from './http/health-server';
import type { BrokerMetrics } from './http/metrics';
import type { PartitionStats } from './http/partition-metrics';
import { LogManager } from './log/log-manager';
import { createStorageIo, type StorageIo } from './log/storage';
import type { Logger } from './logger';
import { LocalMetadataStore } from './metadata/local-metadata-store';
import { AclCommands } from './security/acl/acl-commands';
import { Authorizer } from './security/acl/authorizer';
import { UserCommands } from './security/users/user-commands';
import { UserStore } from './security/users/user-store';
import { AuthFailureThrottle } from './server/auth/auth-failure-throttle';
import type { SaslAuthHooks } from './server/auth/sasl-connection-auth';
import { INTERNAL_PRINCIPAL } from './server/auth/weir-token-mechanism';
import { TrafficRates } from './stats/traffic-rates';
import { logConfigFor } from './topics/topic-configs';
import { TopicManager } from './topics/topic-manager';
import { createBrokerTransactions } from './txn/broker-transactions';
import type { TransactionMarkerWriter } from './txn/transaction-contracts';
import type { TransactionCoordinator } from './txn/transaction-coordinator';
import type { TransactionLog } from './txn/transaction-log';
import { WEIR_VERSION } from './version';

export interface BrokerDeps {
  logger: Logger;
  metrics: BrokerMetrics;
  /** The transaction coordinator's clock and timers; tests pass a fake to drive timeouts. */
  transactionScheduler?: GroupScheduler;
  /**
   * Wraps the marker writer the transaction coordinator uses. Tests use it to stop a broker between
   * a durable PrepareCommit and its markers, the window crash recovery must close.
   */
  wrapTransactionMarkers?: (markers: TransactionMarkerWriter) => TransactionMarkerWriter;
  /**
   * The clock and timers that delay answers to failed authentications; tests pass a fake to see
   * the delays grow without waiting for them.
   */
  authScheduler?: GroupScheduler;
}

const systemClock = { nowMs: () => Date.now() };

/**
 * One broker process: builds and owns the subsystems and orders their start and stop. Start:
 * metadata, then logs (recovery), then the listener. Stop: the listener stops accepting and
 * finishes in-flight requests, then logs flush and write their checkpoints.
 */
export class Broker {
  readonly #io: StorageIo;
  readonly #logs: LogManager;
  readonly #store: LocalMetadataStore;
  readonly #topics: TopicManager;
  /** The client listener, and the internal one unless `listeners.internal.enabled` is false. */
  readonly #listeners: BrokerListeners;
  /** The internal listener's token, when that listener is enabled. */
  readonly #internalToken: InternalTokenSource | undefined;
  readonly #groupStore: OffsetsTopicStore;
  readonly #groupCoordinator: GroupCoordinator;
  readonly #transactionLog: TransactionLog;
  readonly #transactionCoordinator: TransactionCoordinator;
  readonly commands: BrokerCommands;
  /** The last minute's traffic, for the overview the internal listener serves. */
  readonly #traffic = new TrafficRates(systemClock);
  #startedAtMs = 0;
  #storageReady = false;
  #listening = false;
  #stopped = false;

  constructor(
    private readonly config: BrokerConfig,
    private readonly deps: BrokerDeps,
  ) {
    const io = createStorageIo();
    this.#io = io;
    const dataDirectory = config.dataDir;
    this.#store = new LocalMetadataStore(io, dataDirectory, config.clusterId);
    const logLogger = deps.logger.child({ component: 'log' });
    this.#logs = new LogManager({
      dataDirectory: join(dataDirectory, 'logs'),
      defaultConfig: logConfigFor(config, {}),
      topicConfig: (topic) => logConfigFor(config, this.#store.getTopic(topic)?.configs ?? {}),
      io,
      clock: systemClock,
      logger: {
        info: (message, fields) => logLogger.info(fields ?? {}, message),
        warn: (message, fields) => logLogger.warn(fields ?? {}, message),
        error: (message, fields) => {
          deps.metrics.storageErrorsTotal.inc();
          logLogger.error(fields ?? {}, message);
        },
      },
      maxOpenFiles: config.log.maxOpenFiles,
      retentionCheckIntervalMs: config.log.retentionCheckIntervalMs,
    });
    this.#topics = new TopicManager(this.#store, this.#logs, config, systemClock);
    this.#groupStore = new OffsetsTopicStore(this.#topics, systemClock);
    this.#groupCoordinator = new GroupCoordinator({
      config: {
        initialRebalanceDelayMs: config.groups.initialRebalanceDelayMs,
        minSessionTimeoutMs: config.groups.minSessionTimeoutMs,
        maxSessionTimeoutMs: config.groups.maxSessionTimeoutMs,
        offsetsRetentionMs: config.groups.offsetsRetentionMinutes * 60_000,
        offsetsRetentionCheckIntervalMs: config.groups.offsetsRetentionCheckIntervalMs,
        // offset.metadata.max.bytes
        maxOffsetMetadataBytes: 4096,
      },
      store: this.#groupStore,
      scheduler: systemGroupScheduler,
      logger: deps.logger.child({ component: 'group-coordinator' }),
      catalog: {
        hasPartition: (topic, partition) => {
          const record = this.#topics.getTopic(topic);
          return record !== undefined && partition >= 0 && partition < record.partitionCount;
        },
      },
    });
    const cluster = new ClusterCommands(this.#store, (listener) =>
      listenerEndpoint(config, this.#listeners, listener),
    );
    // The partition side of ending transactions; the transaction coordinator writes through it.
    const markers = new TransactionMarkers(this.#topics, systemClock);
    // One throttle for every way of checking a password, so switching between SASL listeners and
    // the console login does not reset an address's delay.
    const authThrottle = new AuthFailureThrottle(
      config.security.authFailureDelayMs,
      deps.authScheduler ?? systemGroupScheduler,
    );
    const userStore = new UserStore(this.#store, randomBytes);
    const users = new UserCommands({
      records: this.#store,
      users: userStore,
      throttle: authThrottle,
      randomBytes,
    });
    const authHooks: SaslAuthHooks = {
      throttle: authThrottle,
      onOutcome: ({ mechanism, result }) => deps.metrics.authenticationsTotal.inc({ mechanism, result }),
    };
    const authorization = {
      allowEveryoneIfNoAclFound: config.security.allowEveryoneIfNoAclFound,
      bindings: () => this.#store.listAcls(),
    };
    const acls = new AclCommands(
      this.#store,
      new Authorizer({ ...authorization, superUsers: config.security.superUsers }),
    );
    // The internal listener's bare token principal is the console and the other brokers: a super
    // user there, and only there, so a SASL user who happens to be called "weir-internal" gains
    // nothing on the client listener. A connection acting for a user (WEIR-TOKEN authzid) has that
    // user as its principal, so the ordinary policy below applies to it.
    const internalAuthorizer = new Authorizer({
      ...authorization,
      superUsers: [...config.security.superUsers, INTERNAL_PRINCIPAL],
    });
    const producers = new ProducerIdCommands(this.#store);
    const transactions = createBrokerTransactions({
      config: config.transactions,
      topics: this.#topics,
      markers: deps.wrapTransactionMarkers?.(markers) ?? markers,
      groups: this.#groupCoordinator,
      producers,
      scheduler: deps.transactionScheduler ?? systemGroupScheduler,
      logger: deps.logger.child({ component: 'transaction-coordinator' }),
      metrics: deps.metrics,
    });
    this.#transactionLog = transactions.log;
    this.#transactionCoordinator = transactions.coordinator;
    this.commands = {
      cluster,
      topics: new TopicCommands(this.#topics, this.#logs, config, config.nodeId),
      data: new DataCommands(
        this.#topics,
        {
          bytesIn: (topic, bytes, records) => {
            deps.metrics.bytesInTotal.inc({ topic }, bytes);
            deps.metrics.recordsInTotal.inc({ topic }, records);
            this.#traffic.produced(bytes, records);
          },
          bytesOut: (topic, bytes, records) => {
            deps.metrics.bytesOutTotal.inc({ topic }, bytes);
            this.#traffic.fetched(bytes, records);
          },
        },
        transactions.coordinator,
      ),
      producers,
      transactions: new TransactionCommands(transactions.coordinator, this.#topics),
      configs: new ConfigCommands(this.#topics, config),
      groups: new GroupCommands(this.#groupCoordinator, this.#topics, cluster),
      overview: new BrokerOverviewCommands({
        nodeId: config.nodeId,
        clusterId: () => this.#store.clusterId(),
        version: WEIR_VERSION,
        startedAtMs: () => this.#startedAtMs,
        listeners: () => boundListeners(config, this.#listeners),
        readiness: () => this.readiness().map((check) => ({ ...check, detail: check.detail ?? '' })),
        connectionCount: () => openConnectionCount(this.#listeners),
        topics: this.#topics,
        logs: this.#logs,
        coordinator: this.#groupCoordinator,
        traffic: this.#traffic,
      }),
      topicSummaries: new TopicSummaryCommands(this.#topics, this.#logs, this.#groupCoordinator),
      partitionInternals: new PartitionInternalsCommands(this.#topics, this.#logs, config.nodeId),
      groupLags: new GroupLagCommands(this.#groupCoordinator, this.#logs),
      recordScan: new RecordScanCommands(this.#topics, this.#logs, systemClock),
      markers,
      users,
      acls,
    };
    const internal = config.listeners.internal;
    this.#internalToken = internal.enabled
      ? new InternalTokenSource(internal.token, config.dataDir, deps.logger)
      : undefined;
    this.#listeners = createBrokerListeners({
      config,
      commands: this.commands,
      userStore,
      authHooks,
      internalAuthorizer,
      internalToken: () => this.#internalToken?.current,
      observation: {
        metrics: deps.metrics,
        logger: deps.logger,
        traffic: this.#traffic,
        openConnections: () => openConnectionCount(this.#listeners),
      },
    });
  }

  /** The bound client port (useful when the configured port is 0). */
  get clientPort(): number {
    return this.#listeners.client.port;
  }

  /** The bound internal port once started; undefined when the internal listener is disabled. */
  get internalPort(): number | undefined {
    return this.#listeners.internal?.port;
  }

  /**
   * The token the internal listener accepts (configured, or read or generated by `start`), for
   * tests and the gateway's harness; undefined before start or when the listener is disabled.
   */
  get internalToken(): string | undefined {
    return this.#internalToken?.current;
  }

  async start(): Promise<void> {
    const { logger } = this.deps;
    this.#startedAtMs = systemClock.nowMs();
    // A fresh data directory is created here, so a first start needs nothing prepared.
    await this.#io.makeDirectory(this.config.dataDir);
    await this.#store.load();
    await this.#ensureBootstrapAdmin();
    const report = await this.#logs.start();
    await this.#topics.reconcile();
    const offsetsTopic = await this.#groupStore.open(this.config.groups.offsetsTopicPartitions);
    // Transaction state loads before the listeners open, so the produce path's membership check
    // knows every open transaction from the first request.
    const transactionTopic = this.#transactionLog.open(this.config.transactions.stateTopicPartitions);
    const transactionsLoaded = await this.#transactionCoordinator.load(this.#transactionLog);
    this.#storageReady = true;
    for (const offline of report.offline) logger.error(offline, 'partition offline');
    await this.#internalToken?.resolve();
    await this.#listeners.client.start();
    await this.#listeners.internal?.start();
    this.#listening = true;
    // Produce and fetch are served while the groups load; group APIs answer
    // COORDINATOR_LOAD_IN_PROGRESS until then (and /ready says so). Start waits for the load so
    // that "broker started" means everything is served.
    const groups = await this.#groupCoordinator.load(this.#groupStore);
    logger.info({ ...offsetsTopic, ...groups }, 'group coordinator loaded');
    // Transactions prepared before a crash complete now: their markers go to the partitions and
    // their offsets to the groups, so both must be loaded. Until then /ready says "transactions".
    const recovered = await this.#transactionCoordinator.recover();
    logger.info(
      { ...transactionTopic, ...transactionsLoaded, ...recovered },
      'transaction coordinator loaded',
    );
    logger.info(
      {
        clusterId: this.#store.clusterId(),
        client: `${this.config.listeners.client.host}:${this.#listeners.client.port}`,
        internal: this.#listeners.internal
          ? `${this.config.listeners.internal.host}:${this.#listeners.internal.port}`
          : 'disabled',
        partitions: report.openedCount,
        cleanShutdown: report.cleanShutdown,
      },
      'broker started',
    );
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#listening = false;
    // First: parked JoinGroup/SyncGroup answers would otherwise hold the drain for up to a
    // rebalance timeout; members are told NOT_COORDINATOR and look again after the restart.
    this.#groupCoordinator.shutdown();
    this.#transactionCoordinator.shutdown();
    // Draining gets half the shutdown bound, so flushing and checkpoints still fit in the rest.
    await Promise.all([
      this.#listeners.client.stop(this.config.shutdownTimeoutMs / 2),
      this.#listeners.internal?.stop(this.config.shutdownTimeoutMs / 2),
    ]);
    // Group metadata is written in the background; those appends finish before the logs close.
    await this.#groupStore.drain();
    await this.#transactionLog.drain();
    await this.#logs.shutdown();
    this.deps.logger.info('broker stopped');
  }

  /** What `/ready` reports: each check and whether it passes. */
  readiness(): ReadinessCheck[] {
    return brokerReadiness({
      storageReady: this.#storageReady,
      listening: this.#listening,
      logs: this.#logs,
      groupCoordinator: this.#groupCoordinator,
      transactionCoordinator: this.#transactionCoordinator,
      clientListener: this.#listeners.client,
      internalListener: this.#listeners.internal,
    });
  }

  /**
   * Creates the configured bootstrap admin, or gives it the configured password, before any
   * listener opens. Only the username is logged.
   */
  async #ensureBootstrapAdmin(): Promise<void> {
    const admin = this.config.security.bootstrapAdmin;
    if (admin === undefined) return;
    const outcome = await this.commands.users.ensureUser(admin.username, admin.password);
    if (outcome !== 'unchanged') {
      this.deps.logger.info({ username: admin.username }, `bootstrap admin user ${outcome}`);
    }
  }

  /** Consumer groups for the metrics layer: members per group, rebalances, lag per partition. */
  groupStats(): GroupStats {
    return this.commands.groups.groupStats();
  }

  partitionStats(): PartitionStats[] {
    return this.#logs.logs().map((log) => ({
      topic: log.topic,
      partition: log.partition,
      logStartOffset: log.logStartOffset,
      logEndOffset: log.logEndOffset,
      highWatermark: log.highWatermark,
      lastStableOffset: log.lastStableOffset,
      sizeBytes: log.sizeBytes,
    }));
  }

  /**
   * How many listeners one partition's log has now: the long-polling Fetches parked on it.
   * Read-only, for observability and for tests that wait until a Fetch is parked instead of
   * sleeping; undefined when this broker holds no log for the partition.
   */
  partitionSubscriberCount(topic: string, partition: number): number | undefined {
    return this.#logs.getLog(topic, partition)?.subscriberCount;
  }
}
