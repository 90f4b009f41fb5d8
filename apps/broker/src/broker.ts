import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { AuditLog } from './audit/audit-log';
import { brokerAuditor } from './audit/request-auditor';
import { InternalTokenSource } from './broker-internal-token';
import {
  type BrokerListeners,
  bindListeners,
  boundListeners,
  createBrokerListeners,
  openConnectionCount,
  openListeners,
  registrationOf,
} from './broker-listeners';
import { brokerReadiness } from './broker-readiness';
import type { BrokerServices } from './broker-services';
import { ClusterEventKeeper } from './cluster/cluster-event-keeper';
import { controlledShutdown } from './cluster/controlled-shutdown';
import { handOverFailedLog } from './cluster/failed-log-handover';
import { LeaderElections } from './cluster/leader-elections';
import { LeaderRebalancer } from './cluster/leader-rebalancer';
import { PartitionController } from './cluster/partition-controller';
import { PartitionReassigner } from './cluster/partition-reassigner';
import { isAddingReplica } from './cluster/reassignment';
import {
  countControllerChange,
  countLeaderIsrChange,
  countRequestedElection,
} from './cluster/replication-events';
import { type ReplicationHealth, replicationHealth } from './cluster/replication-health';
import type { BrokerConfig } from './config/broker-config';
import { ConfigManager } from './config-resources/config-manager';
import { followerThrottleBytesPerSecond } from './config-resources/dynamic-broker-configs';
import { CoordinatorLocator } from './coordination/coordinator-locator';
import { GroupCoordinator } from './group/group-coordinator';
import { type GroupScheduler, systemGroupScheduler } from './group/group-scheduler';
import { OFFSETS_TOPIC, OffsetsTopicStore } from './group/offsets-topic';
import type { GroupMetricsSnapshot } from './http/group-metrics';
import type { ReadinessCheck } from './http/health-server';
import type { BrokerMetrics } from './http/metrics';
import type { PartitionStats } from './http/partition-metrics';
import { InterBroker } from './interbroker/inter-broker';
import { createStorageIo, type StorageIo } from './log/storage';
import type { Logger } from './logger';
import { checkClusterMembership } from './metadata/cluster-membership-file';
import { ClusterView } from './metadata/cluster-view';
import type { EtcdMetadataStore } from './metadata/etcd/etcd-metadata-store';
import type { BrokerRegistration, MetadataStore } from './metadata/metadata-store';
import { metadataStoreFor } from './metadata/metadata-store-for';
import { OperatorViews } from './operator/operator-views';
import { ProducerIdManager } from './producer-ids/producer-id-manager';
import { ClientQuotas } from './quotas/client-quotas';
import { quotaMetrics } from './quotas/quota-metrics';
import { ReplicaManager } from './replica/replica-manager';
import { TransactionMarkers } from './replica/transaction-markers';
import { AclManager } from './security/acl/acl-manager';
import { Authorizer } from './security/acl/authorizer';
import { UserManager } from './security/users/user-manager';
import { UserStore } from './security/users/user-store';
import { AuthFailureThrottle } from './server/auth/auth-failure-throttle';
import { AuthenticationsInProgress } from './server/auth/authentications-in-progress';
import type { SaslAuthHooks } from './server/auth/sasl-connection-auth';
import { BROKER_PRINCIPAL, INTERNAL_PRINCIPAL } from './server/auth/weir-token-mechanism';
import { HeldRequestBytes } from './server/held-request-bytes';
import { HistorySampler } from './stats/history-sampler';
import { HistoryStore } from './stats/history-store';
import { historyTiers } from './stats/history-tiers';
import { HistoryView } from './stats/history-view';
import { TopicTraffic } from './stats/topic-traffic';
import { TrafficRates } from './stats/traffic-rates';
import { logConfigFor } from './topics/topic-configs';
import { TopicDescriptions } from './topics/topic-descriptions';
import { TopicManager } from './topics/topic-manager';
import { createBrokerTransactions } from './txn/broker-transactions';
import type { TransactionMarkerWriter } from './txn/transaction-contracts';
import type { TransactionCoordinator } from './txn/transaction-coordinator';
import { TRANSACTION_STATE_TOPIC, type TransactionLog } from './txn/transaction-log';
import { WEIR_VERSION } from './version';
import { WarningLimiter } from './warning-limiter';

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
  /** The clock and timers of the warning rate limit; tests pass a fake to end its intervals. */
  warningScheduler?: GroupScheduler;
  /**
   * Routes the inter-broker calls (markers, membership checks) over the network even to this
   * broker, through its own internal listener, so a standalone broker exercises the remote paths.
   */
  routeInterBrokerCallsToSelf?: boolean;
}

const systemClock = { nowMs: () => Date.now() };

/**
 * One broker process: builds and owns the subsystems and orders their start and stop. Start:
 * metadata, then the listeners' ports (bound, not yet serving) and the broker's registration, then
 * the replica layer (log recovery, each partition's role), the coordinators' partitions, and
 * finally the listeners serve. Stop: the listeners stop accepting and finish in-flight requests,
 * then the logs flush and write their checkpoints.
 */
export class Broker {
  readonly #io: StorageIo;
  readonly #store: MetadataStore;
  /** The etcd store in cluster mode (for its health); undefined when standalone. */
  readonly #etcd: EtcdMetadataStore | undefined;
  /** Cluster mode's controller work, done while this broker holds the election. */
  readonly #controller: PartitionController | undefined;
  readonly #eventKeeper: ClusterEventKeeper | undefined;
  /** Preferred and unclean elections, for ElectLeaders and the controller's rebalance. */
  readonly #elections: LeaderElections;
  /** Cluster mode's auto leader rebalance, when `cluster.autoLeaderRebalanceEnable` is on. */
  readonly #rebalancer: LeaderRebalancer | undefined;
  #registration: BrokerRegistration | undefined;
  #unfollowSession: (() => void) | undefined;
  readonly #view: ClusterView;
  readonly #replicas: ReplicaManager;
  readonly #topics: TopicManager;
  /** The client listener, and the internal one unless `listeners.internal.enabled` is false. */
  readonly #listeners: BrokerListeners;
  /** The internal listener's token, when that listener is enabled. */
  readonly #internalToken: InternalTokenSource | undefined;
  readonly #groupStore: OffsetsTopicStore;
  readonly #groupCoordinator: GroupCoordinator;
  readonly #transactionLog: TransactionLog;
  readonly #transactionCoordinator: TransactionCoordinator;
  readonly #interBroker: InterBroker;
  readonly #operator: OperatorViews;
  readonly services: BrokerServices;
  /** The last minute's traffic, for the overview the internal listener serves. */
  readonly #traffic = new TrafficRates(systemClock);
  /** Client traffic per topic since the history's last sampling. */
  readonly #topicTraffic = new TopicTraffic();
  /** The administrative actions this broker handled (audit/audit-log.ts). */
  readonly #auditLog: AuditLog;
  /** Lag and throughput over time; undefined when `stats.history.enabled` is off. */
  readonly #history: HistorySampler | undefined;
  readonly #heldRequestBytes = new HeldRequestBytes();
  readonly #warnings: WarningLimiter;
  /** This start's registration: a new session id every time the process starts. */
  readonly #sessionId = randomUUID();
  #unfollowStore: (() => void) | undefined;
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
    const brokerId = config.nodeId;
    const chosen = metadataStoreFor(config, io, deps.logger);
    this.#store = chosen.store;
    this.#etcd = chosen.etcd;
    this.#view = new ClusterView(brokerId);
    this.#controller =
      chosen.etcd === undefined
        ? undefined
        : new PartitionController({
            view: this.#view,
            store: this.#store,
            localBrokerId: brokerId,
            policyOf: (topic) => {
              const log = logConfigFor(config, this.#view.topic(topic)?.configs ?? {});
              return {
                minInsyncReplicas: log.minInsyncReplicas,
                uncleanLeaderElectionEnable: log.uncleanLeaderElectionEnable,
              };
            },
            logger: deps.logger.child({ component: 'controller' }),
            onStored: (previous, decision) =>
              countControllerChange(deps.metrics.replication, previous, decision),
          });
    const electionLogger = deps.logger.child({ component: 'controller' });
    this.#elections = new LeaderElections({
      view: this.#view,
      store: this.#store,
      onElected: (next, cause) => {
        countRequestedElection(deps.metrics.replication, cause);
        const fields = {
          topic: next.topic,
          partition: next.partition,
          leader: next.leader,
          leaderEpoch: next.leaderEpoch,
          isr: next.isr,
          reason: cause,
        };
        if (cause === 'unclean')
          electionLogger.warn(fields, 'unclean leader election: acknowledged records may be lost');
        else electionLogger.info(fields, 'partition leader elected');
      },
    });
    this.#rebalancer =
      chosen.etcd === undefined || !config.cluster.autoLeaderRebalanceEnable
        ? undefined
        : new LeaderRebalancer({
            view: this.#view,
            elections: this.#elections,
            localBrokerId: brokerId,
            checkIntervalMs: config.cluster.leaderImbalanceCheckIntervalSeconds * 1000,
            imbalancePercentage: config.cluster.leaderImbalancePerBrokerPercentage,
            logger: electionLogger,
          });
    const etcdStore = chosen.etcd;
    this.#eventKeeper =
      etcdStore === undefined
        ? undefined
        : new ClusterEventKeeper({
            view: this.#view,
            store: etcdStore,
            append: (events) => etcdStore.appendClusterEvents(events, 'controller'),
            prune: (retention) => etcdStore.pruneClusterEvents(retention),
            localBrokerId: brokerId,
            retention: {
              retentionMs: config.cluster.eventsRetentionMs,
              maxCount: config.cluster.eventsMaxCount,
            },
            pruneIntervalMs: 60_000,
            now: () => Date.now(),
            logger: deps.logger.child({ component: 'controller' }),
          });
    const logLogger = deps.logger.child({ component: 'log' });
    this.#replicas = new ReplicaManager({
      localBrokerId: brokerId,
      view: this.#view,
      logs: {
        dataDirectory: join(dataDirectory, 'logs'),
        defaultConfig: logConfigFor(config, {}),
        topicConfig: (topic) => logConfigFor(config, this.#view.topic(topic)?.configs ?? {}),
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
        cleaner: config.log.cleaner,
      },
      // The coordinator is built below; it is asked only once requests flow.
      transactions: { membership: (query) => this.#interBroker.membership.membership(query) },
      traffic: {
        bytesIn: (topic, bytes, records) => {
          deps.metrics.bytesInTotal.inc({ topic }, bytes);
          deps.metrics.recordsInTotal.inc({ topic }, records);
          this.#traffic.produced(bytes, records);
          this.#topicTraffic.produced(topic, bytes, records);
        },
        bytesOut: (topic, bytes, records) => {
          deps.metrics.bytesOutTotal.inc({ topic }, bytes);
          deps.metrics.recordsOutTotal.inc({ topic }, records);
          this.#traffic.fetched(bytes, records);
          this.#topicTraffic.fetched(topic, bytes, records);
        },
      },
      logger: deps.logger.child({ component: 'replica' }),
      clock: systemClock,
      fetchMaxBytes: config.limits.fetchMaxBytes,
      fetchInMemoryBytes: config.limits.fetchInMemoryBytes,
      replication: {
        replicaLagTimeMaxMs: config.replication.replicaLagTimeMaxMs,
        alterIsr: async (next) => {
          const previous = this.#view.assignment(next.topic, next.partition);
          await this.#store.compareAndSetAssignment(
            next,
            undefined,
            next.isr.length < (previous?.isr.length ?? 0) ? 'follower-lagging' : 'follower-caught-up',
          );
          countLeaderIsrChange(deps.metrics.replication, previous, next);
        },
        // The inter-broker client is built below; followers call it only once partitions are applied.
        ...(chosen.etcd === undefined
          ? {}
          : {
              leaders: { send: (brokerId, api, body) => this.#interBroker.leaders.send(brokerId, api, body) },
              followerThrottle: {
                rateBytesPerSecond: () =>
                  followerThrottleBytesPerSecond(this.#store.listBrokerConfigs(), brokerId),
                // Only the replicas a move is adding: the ones in sync keep their full speed.
                isThrottled: (topic: string, partition: number) => {
                  const assignment = this.#view.assignment(topic, partition);
                  return assignment !== undefined && isAddingReplica(assignment, brokerId);
                },
              },
              onLogOffline: (topic: string, partition: number) =>
                void handOverFailedLog(
                  {
                    localBrokerId: brokerId,
                    view: this.#view,
                    store: this.#store,
                    minInsyncReplicasOf: (name) =>
                      logConfigFor(config, this.#view.topic(name)?.configs ?? {}).minInsyncReplicas,
                    logger: deps.logger.child({ component: 'replica' }),
                    delay: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
                  },
                  topic,
                  partition,
                ),
            }),
      },
    });
    // Cheap counts, unlike the per-partition gauges, so every broker reports them.
    deps.metrics.registerStorageHealthCollector(() => ({
      offline: this.#replicas.offlinePartitions().length,
      writeDegraded: this.#replicas.writeDegradedPartitions().length,
    }));
    deps.metrics.registerReplicationCollector(() => this.#replicationHealth());
    // The cleaner's record is in memory, one entry per compacted partition: cheap enough for every broker.
    deps.metrics.registerLogCleanerCollector(() =>
      this.#replicas.cleanerStates().map((state) => ({
        topic: state.topic,
        partition: state.partition,
        dirtyRatio: state.dirtyRatio,
        lastCleanedAtMs: state.lastCleanedAtMs,
        removedBytesTotal: state.removedBytesTotal,
        failed: state.lastOutcome === 'failed',
      })),
    );
    deps.metrics.clusterRole.setControllerCollector(() => this.#store.holdsControllerTitle());
    this.#topics = new TopicManager(this.#store, this.#view, this.#replicas, config.topics, systemClock);
    this.#groupStore = new OffsetsTopicStore(
      this.#topics,
      this.#view,
      this.#replicas,
      systemClock,
      config.groups.offsetsTopicReplicationFactor,
    );
    this.#groupCoordinator = new GroupCoordinator({
      config: {
        initialRebalanceDelayMs: config.groups.initialRebalanceDelayMs,
        minSessionTimeoutMs: config.groups.minSessionTimeoutMs,
        maxSessionTimeoutMs: config.groups.maxSessionTimeoutMs,
        offsetsRetentionMs: config.groups.offsetsRetentionMinutes * 60_000,
        offsetsRetentionCheckIntervalMs: config.groups.offsetsRetentionCheckIntervalMs,
        // offset.metadata.max.bytes
        maxOffsetMetadataBytes: 4096,
        consumerHeartbeatIntervalMs: config.groups.consumerHeartbeatIntervalMs,
        consumerSessionTimeoutMs: config.groups.consumerSessionTimeoutMs,
      },
      store: this.#groupStore,
      source: this.#groupStore,
      scheduler: systemGroupScheduler,
      logger: deps.logger.child({ component: 'group-coordinator' }),
      catalog: {
        hasPartition: (topic, partition) => this.#view.hasPartition(topic, partition),
        topic: (name) => this.#view.topic(name),
        topicById: (topicId) => this.#view.topicById(topicId),
      },
    });
    // The partition side of ending transactions; the transaction coordinator writes through it.
    const markerLogger = deps.logger.child({ component: 'transaction-markers' });
    const markers = new TransactionMarkers(this.#replicas, systemClock, (error) =>
      markerLogger.error({ err: error }, 'writing a transaction marker failed unexpectedly'),
    );
    // Markers and membership questions go to the broker that leads the partition or coordinates
    // the id, this one through its replica layer and coordinator, others over the network.
    this.#interBroker = new InterBroker({
      config,
      view: this.#view,
      internalToken: () => this.#internalToken?.current,
      localMarkers: markers,
      localMembership: { membership: (query) => this.#transactionCoordinator.membership(query) },
      localStaging: {
        stageOffsets: (claim, groupId, topics) =>
          this.#transactionCoordinator.stageOffsets(claim, groupId, topics),
      },
      localOffsets: this.#groupCoordinator,
      logger: deps.logger,
      routeToSelfOverNetwork: deps.routeInterBrokerCallsToSelf ?? false,
    });
    // One throttle for every way of checking a password, so switching between SASL listeners and
    // the console login does not reset an address's delay.
    const authThrottle = new AuthFailureThrottle(
      config.security.authFailureDelayMs,
      deps.authScheduler ?? systemGroupScheduler,
    );
    const userStore = new UserStore(this.#store, randomBytes);
    const users = new UserManager({
      records: this.#store,
      users: userStore,
      throttle: authThrottle,
      randomBytes,
    });
    const authHooks: SaslAuthHooks = {
      throttle: authThrottle,
      inProgress: new AuthenticationsInProgress({
        maxPerAddress: config.security.maxConcurrentAuthenticationsPerAddress,
        maxPerUser: config.security.maxConcurrentAuthenticationsPerUser,
      }),
      onOutcome: ({ mechanism, result }) => deps.metrics.authenticationsTotal.inc({ mechanism, result }),
    };
    const authorization = {
      allowEveryoneIfNoAclFound: config.security.allowEveryoneIfNoAclFound,
      bindings: () => this.#store.listAcls(),
    };
    const acls = new AclManager(
      this.#store,
      new Authorizer({ ...authorization, superUsers: config.security.superUsers }),
    );
    // The internal listener's bare token principal is the console and the other brokers: a super
    // user there, and only there, so a SASL user who happens to be called "weir-internal" gains
    // nothing on the client listener. A connection acting for a user (WEIR-TOKEN authzid) has that
    // user as its principal, so the ordinary policy below applies to it.
    const internalAuthorizer = new Authorizer({
      ...authorization,
      superUsers: [...config.security.superUsers, INTERNAL_PRINCIPAL, BROKER_PRINCIPAL],
    });
    const producerIds = new ProducerIdManager(this.#store);
    const transactions = createBrokerTransactions({
      config: config.transactions,
      topics: this.#topics,
      view: this.#view,
      logs: this.#replicas,
      markers: deps.wrapTransactionMarkers?.(this.#interBroker.markers) ?? this.#interBroker.markers,
      offsets: this.#interBroker.offsets,
      producers: producerIds,
      scheduler: deps.transactionScheduler ?? systemGroupScheduler,
      logger: deps.logger.child({ component: 'transaction-coordinator' }),
      metrics: deps.metrics,
    });
    this.#transactionLog = transactions.log;
    this.#transactionCoordinator = transactions.coordinator;
    this.#operator = new OperatorViews({
      view: this.#view,
      replicas: this.#replicas,
      groups: this.#groupCoordinator,
      traffic: this.#traffic,
      clock: systemClock,
      logDirectory: join(dataDirectory, 'logs'),
      broker: {
        version: WEIR_VERSION,
        startedAtMs: () => this.#startedAtMs,
        listeners: () => boundListeners(config, this.#listeners),
        readiness: () => this.readiness().map((check) => ({ ...check, detail: check.detail ?? '' })),
        connectionCount: () => openConnectionCount(this.#listeners),
      },
    });
    const historyConfig = config.stats.history;
    const tiers = historyTiers(historyConfig.sampleIntervalMs);
    this.#history = historyConfig.enabled
      ? new HistorySampler({
          io,
          dataDirectory,
          tiers,
          maxSeries: historyConfig.maxSeries,
          sampleIntervalMs: historyConfig.sampleIntervalMs,
          persistIntervalMs: historyConfig.persistIntervalMs,
          groups: () => (this.#groupCoordinator.loadState().loaded ? this.#groupCoordinator.snapshots() : []),
          offsetsOf: (topic, partition) => this.#replicas.offsets(topic, partition),
          ledTopics: () =>
            new Set(
              this.#replicas
                .localReplicas()
                .filter(({ state }) => state.role === 'leader')
                .map(({ topic }) => topic),
            ),
          traffic: this.#topicTraffic,
          clock: systemClock,
          logger: deps.logger.child({ component: 'stats-history' }),
        })
      : undefined;
    const emptyHistory = new HistoryStore(tiers, 1);
    this.#auditLog = new AuditLog(io, dataDirectory, config.nodeId, config.audit);
    this.services = {
      cluster: this.#view,
      elections: this.#elections,
      topics: this.#topics,
      topicDescriptions: new TopicDescriptions(this.#view, this.#topics, this.#replicas, {
        enabled: config.topics.autoCreateEnable,
        partitionCount: config.topics.defaultPartitions,
      }),
      replicas: this.#replicas,
      coordinators: new CoordinatorLocator(this.#view, {
        transaction: () => this.#transactionLog.ensureCreated(),
        // In a cluster the group topic waits for its first lookup too, when the brokers are up to
        // spread it over; a standalone broker creates it at its first start.
        group: async () => {
          await this.#groupStore.open(this.config.groups.offsetsTopicPartitions);
        },
      }),
      groups: this.#groupCoordinator,
      transactions: this.#transactionCoordinator,
      transactionOffsets: this.#interBroker.offsetStaging,
      transactionMarkers: markers,
      producerIds,
      configs: new ConfigManager(this.#topics, this.#view, config, this.#store),
      users,
      acls,
      operator: this.#operator,
      clusterEvents: this.#store,
      audit: this.#auditLog,
      history: new HistoryView(
        () => this.#history?.store ?? emptyHistory,
        systemClock,
        historyConfig.enabled ? historyConfig.sampleIntervalMs : -1,
      ),
      reassignments: new PartitionReassigner({
        view: this.#view,
        store: this.#store,
        logger: deps.logger.child({ component: 'reassignment' }),
        now: () => Date.now(),
      }),
      quotas: new ClientQuotas({
        store: this.#store,
        window: { sampleCount: config.quotas.windowCount, sampleMs: config.quotas.windowSizeSeconds * 1000 },
        nowMs: () => performance.now(),
        observer: quotaMetrics(deps.metrics),
      }),
    };
    // The coordinators follow the partitions of their internal topics that this broker leads.
    this.#replicas.onLeadershipChange({
      onBecomeLeader: (topic, partition, leaderEpoch) => {
        if (topic === OFFSETS_TOPIC) void this.#groupCoordinator.onBecomeLeader(partition, leaderEpoch);
        else if (topic === TRANSACTION_STATE_TOPIC)
          void this.#transactionCoordinator.onBecomeLeader(partition, leaderEpoch);
      },
      onResign: (topic, partition) => {
        if (topic === OFFSETS_TOPIC) this.#groupCoordinator.onResign(partition);
        else if (topic === TRANSACTION_STATE_TOPIC) this.#transactionCoordinator.onResign(partition);
      },
    });
    const internal = config.listeners.internal;
    this.#internalToken = internal.enabled
      ? new InternalTokenSource(internal.token, config.dataDir, deps.logger)
      : undefined;
    deps.metrics.registerHeldRequestBytes(() => this.#heldRequestBytes.bytes);
    this.#warnings = new WarningLimiter(
      { maxPerInterval: config.logging.maxWarningsPerInterval, intervalMs: config.logging.warningIntervalMs },
      {
        warningsTotal: deps.metrics.logWarningsTotal,
        warningsSuppressedTotal: deps.metrics.logWarningsSuppressedTotal,
      },
      deps.warningScheduler ?? systemGroupScheduler,
    );
    this.#listeners = createBrokerListeners({
      config,
      services: this.services,
      userStore,
      authHooks,
      internalAuthorizer,
      internalToken: () => this.#internalToken?.current,
      clusterSecret: () => this.#interBroker.clusterSecret(),
      auditor: brokerAuditor(this.#auditLog, deps.logger.child({ component: 'audit' })),
      observation: {
        metrics: deps.metrics,
        logger: deps.logger,
        traffic: this.#traffic,
        openConnections: () => openConnectionCount(this.#listeners),
        heldRequestBytes: this.#heldRequestBytes,
        warnings: this.#warnings,
      },
    });
  }

  /** Request bytes read from connections and not yet handled, now and at most (for tests). */
  get heldRequestBytes(): Pick<HeldRequestBytes, 'bytes' | 'peakBytes'> {
    return this.#heldRequestBytes;
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
    await this.#auditLog.open();
    await this.#store.load();
    let storageId: string | undefined;
    if (this.#etcd !== undefined) {
      storageId = await checkClusterMembership(this.#io, this.config.dataDir, {
        clusterName: this.config.cluster.name,
        clusterId: this.#store.clusterId(),
        nodeId: this.config.nodeId,
      });
    }
    this.#unfollowStore = this.#view.follow(this.#store);
    // The ports are taken now (a port in use fails the start before any recovery), so this
    // broker's registration can say where it is; connections wait until the end of the start.
    await bindListeners(this.#listeners);
    await this.#internalToken?.resolve();
    await this.#interBroker.start();
    this.#registration = await this.#store.registerBroker({
      ...registrationOf(this.config, this.#listeners, this.#sessionId, systemClock.nowMs()),
      ...(storageId === undefined ? {} : { storageId }),
    });
    this.deps.metrics.clusterRole.sessionStartsTotal.inc();
    // A lost session stops this broker serving partitions until it is registered again.
    this.#unfollowSession = this.#store.onSession((event) => {
      if (event.kind === 'registered') {
        this.#registration = event.registration;
        this.deps.metrics.clusterRole.sessionStartsTotal.inc();
      }
      this.#replicas.setSessionFenced(event.kind === 'lost');
    });
    this.#controller?.start();
    this.#rebalancer?.start();
    this.#eventKeeper?.start();
    await this.#ensureBootstrapAdmin();
    // Recovery, then every partition takes the role its assignment gives this broker; the
    // coordinators start loading the internal partitions it leads.
    const report = await this.#replicas.start();
    const offsetsTopic =
      this.#etcd === undefined
        ? await this.#groupStore.open(this.config.groups.offsetsTopicPartitions)
        : { created: false, partitionCount: this.#view.topic(OFFSETS_TOPIC)?.partitionCount ?? 0 };
    // A standalone broker's __transaction_state from before compaction compacts from now on (the
    // offsets topic's open does the same for it).
    if (this.#etcd === undefined) await this.#topics.compactInternalTopic(TRANSACTION_STATE_TOPIC);
    const transactionTopic = this.#transactionLog.open(this.config.transactions.stateTopicPartitions);
    // Transaction state loads before the listeners serve, so the produce path's membership check
    // knows every open transaction from the first request.
    await this.#transactionCoordinator.whenLoaded();
    this.#storageReady = true;
    for (const offline of report.offline) logger.error(offline, 'partition offline');
    openListeners(this.#listeners);
    this.#listening = true;
    // Produce and fetch are served while the groups load; group APIs answer
    // COORDINATOR_LOAD_IN_PROGRESS until then (and /ready says so). Start waits for the load so
    // that "broker started" means everything is served.
    await this.#groupCoordinator.whenLoaded();
    logger.info({ ...offsetsTopic, ...this.#groupCoordinator.loadState() }, 'group coordinator loaded');
    // Transactions prepared before a crash complete now: their markers go to the partitions and
    // their offsets to the groups. Until then /ready says "transactions".
    await this.#transactionCoordinator.whenRecovered();
    logger.info(
      { ...transactionTopic, ...this.#transactionCoordinator.readiness() },
      'transaction coordinator loaded',
    );
    // Sampling starts once the groups are loaded, so the first lag sampled is a whole one.
    await this.#history?.start();
    logger.info(
      {
        clusterId: this.#view.clusterId,
        brokerId: this.config.nodeId,
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
    // No rebalance may hand leadership back to this broker while it hands it over.
    this.#rebalancer?.stop();
    // Before anything stops, while the listeners still answer: leadership goes to other in-sync
    // replicas and this broker leaves the ISRs it follows in (docs/architecture.md §6.3).
    if (this.#etcd !== undefined) {
      await controlledShutdown({
        localBrokerId: this.config.nodeId,
        view: this.#view,
        store: this.#store,
        replicas: this.#replicas,
        minInsyncReplicasOf: (topic) =>
          logConfigFor(this.config, this.#view.topic(topic)?.configs ?? {}).minInsyncReplicas,
        timeoutMs: this.config.cluster.controlledShutdownTimeoutMs,
        clock: systemClock,
        logger: this.deps.logger.child({ component: 'controlled-shutdown' }),
      });
    }
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
    this.#interBroker.stopping();
    // No request is handled any more, so no event is appended after this.
    await this.#auditLog
      .close()
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'closing the audit log failed'));
    // The last samples are kept: a failed write loses at most this stop's share of the history.
    await this.#history
      ?.stop()
      .catch((error: unknown) =>
        this.deps.logger.warn({ err: error }, 'writing the lag and throughput history at stop failed'),
      );
    this.#controller?.stop();
    this.#eventKeeper?.stop();
    this.#unfollowSession?.();
    await this.#store.unregisterBroker(this.config.nodeId, this.#registration?.sessionId ?? this.#sessionId);
    // Group metadata is written in the background; those appends finish before the logs close.
    await this.#groupStore.drain();
    await this.#transactionLog.drain();
    await this.#replicas.stop();
    this.#interBroker.close();
    this.#unfollowStore?.();
    await this.#store.close();
    this.#warnings.flush();
    this.deps.logger.info('broker stopped');
  }

  /** What `/ready` reports: each check and whether it passes. */
  readiness(): ReadinessCheck[] {
    return brokerReadiness({
      storageReady: this.#storageReady,
      listening: this.#listening,
      stopping: this.#stopped,
      replicas: this.#replicas,
      groupCoordinator: this.#groupCoordinator,
      transactionCoordinator: this.#transactionCoordinator,
      clientListener: this.#listeners.client,
      internalListener: this.#listeners.internal,
      cluster: this.#etcd,
      // Replication exists in cluster mode only: a standalone broker's partitions have one replica.
      replication: this.#etcd === undefined ? undefined : this.#replicationHealth(),
    });
  }

  /** ISR shortfalls and follower lag of the partitions led here; leaderless ones on the controller. */
  #replicationHealth(): ReplicationHealth {
    return replicationHealth({
      replicas: this.#replicas,
      view: this.#etcd === undefined ? undefined : this.#view,
      localBrokerId: this.config.nodeId,
    });
  }

  /**
   * Creates the configured bootstrap admin, or gives it the configured password, before any
   * listener serves. Only the username is logged.
   */
  async #ensureBootstrapAdmin(): Promise<void> {
    const admin = this.config.security.bootstrapAdmin;
    if (admin === undefined) return;
    const outcome = await this.services.users.ensureUser(admin.username, admin.password);
    if (outcome !== 'unchanged') {
      this.deps.logger.info({ username: admin.username }, `bootstrap admin user ${outcome}`);
    }
  }

  /** Consumer groups for the metrics layer: members per group, rebalances, lag per partition. */
  groupStats(): GroupMetricsSnapshot {
    return this.#operator.groupLags.groupStats();
  }

  /** Every partition this broker holds, for the metrics layer at scrape time. */
  partitionStats(): PartitionStats[] {
    return this.#replicas.localReplicas().map(({ topic, partition, state }) => ({
      topic,
      partition,
      ...state.offsets,
      sizeBytes: state.log.sizeBytes,
    }));
  }

  /**
   * How many long-polling Fetches are parked on one partition now. Read-only, for observability
   * and for tests that wait until a Fetch is parked instead of sleeping.
   */
  parkedFetchCount(topic: string, partition: number): number {
    return this.#replicas.parkedFetchCount(topic, partition);
  }
}
