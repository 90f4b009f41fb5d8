import { join } from 'node:path';
import { ErrorCode, errorCodeInfo } from '@weir/protocol';
import type { BrokerCommands } from './commands/broker-commands';
import { ClusterCommands } from './commands/cluster-commands';
import { ConfigCommands } from './commands/config-commands';
import { DataCommands } from './commands/data-commands';
import { GroupCommands, type GroupStats } from './commands/group-commands';
import { ProducerIdCommands } from './commands/producer-id-commands';
import { TopicCommands } from './commands/topic-commands';
import type { BrokerConfig } from './config/broker-config';
import { GroupCoordinator } from './group/group-coordinator';
import { systemGroupScheduler } from './group/group-scheduler';
import { OffsetsTopicStore } from './group/offsets-topic';
import type { ReadinessCheck } from './http/health-server';
import type { BrokerMetrics } from './http/metrics';
import type { PartitionStats } from './http/partition-metrics';
import { LogManager } from './log/log-manager';
import { createStorageIo, type StorageIo } from './log/storage';
import type { Logger } from './logger';
import { LocalMetadataStore } from './metadata/local-metadata-store';
import { Dispatcher, type RequestObserver } from './server/dispatcher';
import { Listener } from './server/listener';
import { clientHandlers, HandlerRegistry } from './server/registry';
import { logConfigFor } from './topics/topic-configs';
import { TopicManager } from './topics/topic-manager';

export interface BrokerDeps {
  logger: Logger;
  metrics: BrokerMetrics;
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
  readonly #listener: Listener;
  readonly #groupStore: OffsetsTopicStore;
  readonly #groupCoordinator: GroupCoordinator;
  readonly commands: BrokerCommands;
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
    const client = config.listeners.client;
    const cluster = new ClusterCommands(this.#store, () => ({
      nodeId: config.nodeId,
      host: client.advertisedHost ?? client.host,
      port: client.advertisedPort ?? this.#listener.port,
      rack: null,
    }));
    this.commands = {
      cluster,
      topics: new TopicCommands(this.#topics, this.#logs, config, config.nodeId),
      data: new DataCommands(this.#topics, {
        bytesIn: (topic, bytes, records) => {
          deps.metrics.bytesInTotal.inc({ topic }, bytes);
          deps.metrics.recordsInTotal.inc({ topic }, records);
        },
        bytesOut: (topic, bytes) => deps.metrics.bytesOutTotal.inc({ topic }, bytes),
      }),
      producers: new ProducerIdCommands(this.#store),
      configs: new ConfigCommands(this.#topics, config),
      groups: new GroupCommands(this.#groupCoordinator, this.#topics, cluster),
    };
    const dispatcher = new Dispatcher(
      new HandlerRegistry(clientHandlers()),
      this.commands,
      this.#requestObserver(),
    );
    const connectionLogger = deps.logger.child({ component: 'connection' });
    this.#listener = new Listener({ ...client, ...config.limits }, dispatcher, {
      onConnectionOpened: (remoteAddress, openCount) => {
        deps.metrics.connections.set(openCount);
        connectionLogger.debug({ remoteAddress }, 'connection opened');
      },
      onConnectionClosed: (remoteAddress, reason, openCount) => {
        deps.metrics.connections.set(openCount);
        connectionLogger.debug({ remoteAddress, reason }, 'connection closed');
      },
      onConnectionRejected: (remoteAddress, reason) => {
        deps.metrics.connectionsRejectedTotal.inc({ reason: reason.replaceAll(' ', '_') });
        connectionLogger.warn({ remoteAddress, reason }, 'connection refused');
      },
    });
  }

  /** The bound client port (useful when the configured port is 0). */
  get clientPort(): number {
    return this.#listener.port;
  }

  async start(): Promise<void> {
    const { logger } = this.deps;
    // A fresh data directory is created here, so a first start needs nothing prepared.
    await this.#io.makeDirectory(this.config.dataDir);
    await this.#store.load();
    const report = await this.#logs.start();
    await this.#topics.reconcile();
    const offsetsTopic = await this.#groupStore.open(this.config.groups.offsetsTopicPartitions);
    this.#storageReady = true;
    for (const offline of report.offline) logger.error(offline, 'partition offline');
    await this.#listener.start();
    this.#listening = true;
    // Produce and fetch are served while the groups load; group APIs answer
    // COORDINATOR_LOAD_IN_PROGRESS until then (and /ready says so). Start waits for the load so
    // that "broker started" means everything is served.
    const groups = await this.#groupCoordinator.load(this.#groupStore);
    logger.info({ ...offsetsTopic, ...groups }, 'group coordinator loaded');
    logger.info(
      {
        clusterId: this.#store.clusterId(),
        client: `${this.config.listeners.client.host}:${this.#listener.port}`,
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
    // Draining gets half the shutdown bound, so flushing and checkpoints still fit in the rest.
    await this.#listener.stop(this.config.shutdownTimeoutMs / 2);
    // Group metadata is written in the background; those appends finish before the logs close.
    await this.#groupStore.drain();
    await this.#logs.shutdown();
    this.deps.logger.info('broker stopped');
  }

  /** What `/ready` reports: each check and whether it passes. */
  readiness(): ReadinessCheck[] {
    const offline = this.#logs.offlinePartitions();
    return [
      { name: 'storage', ok: this.#storageReady, detail: this.#storageReady ? 'recovered' : 'recovering' },
      {
        name: 'partitions',
        ok: offline.length === 0,
        detail:
          offline.length === 0
            ? 'all online'
            : `${offline.length} offline: ${offline.map((p) => `${p.topic}-${p.partition}`).join(', ')}`,
      },
      this.#coordinatorsCheck(),
      {
        name: 'client-listener',
        ok: this.#listening,
        detail: this.#listening ? `port ${this.#listener.port}` : 'not bound',
      },
    ];
  }

  #coordinatorsCheck(): ReadinessCheck {
    const state = this.#groupCoordinator.loadState();
    if (!state.loaded) {
      return {
        name: 'coordinators',
        ok: false,
        detail: `loading ${state.loadingPartitions} __consumer_offsets partitions`,
      };
    }
    if (state.failedPartitions.length > 0) {
      return {
        name: 'coordinators',
        ok: false,
        detail: `__consumer_offsets partitions failed to load: ${state.failedPartitions.join(', ')}`,
      };
    }
    return { name: 'coordinators', ok: true, detail: 'groups loaded' };
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
      sizeBytes: log.sizeBytes,
    }));
  }

  #requestObserver(): RequestObserver {
    const { metrics, logger } = this.deps;
    const requestLogger = logger.child({ component: 'request' });
    return {
      onRequest: ({ apiName, apiVersion, durationMs, response }) => {
        metrics.requestsTotal.inc({ api: apiName, version: String(apiVersion) });
        metrics.requestDurationSeconds.observe({ api: apiName }, durationMs / 1000);
        for (const code of errorCodesIn(response)) {
          metrics.requestErrorsTotal.inc({ api: apiName, error: errorCodeInfo(code)?.name ?? String(code) });
        }
      },
      onRejected: ({ header, reason }) => {
        metrics.connectionsRejectedTotal.inc({ reason: 'bad_request' });
        requestLogger.warn(
          { apiKey: header?.apiKey, apiVersion: header?.apiVersion, reason },
          'request refused; closing the connection',
        );
      },
      onHandlerFailure: ({ apiName, error }) => {
        metrics.requestErrorsTotal.inc({ api: apiName, error: 'UNKNOWN_SERVER_ERROR' });
        requestLogger.error({ api: apiName, err: error }, 'handler failed; closing the connection');
      },
    };
  }
}

/** Every non-zero `errorCode` in a response, wherever it sits, for the error metrics. */
function errorCodesIn(value: unknown, found: number[] = []): number[] {
  if (Array.isArray(value)) {
    for (const item of value) errorCodesIn(item, found);
  } else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const [key, field] of Object.entries(value)) {
      if (key === 'errorCode' && typeof field === 'number' && field !== ErrorCode.NONE) found.push(field);
      else if (typeof field === 'object') errorCodesIn(field, found);
    }
  }
  return found;
}
