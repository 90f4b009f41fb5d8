import { resolve } from 'node:path';
import { type BrokerConfig, brokerConfigSchema } from '../config/broker-config';
import { topicConfigDefinition } from '../topics/topic-configs';
import { type ConfigValueType, TOPIC_CONFIG_VALUE_TYPES } from './config-types';

/** One broker config under its Kafka name, as DescribeConfigs reports it for a broker resource. */
export interface BrokerConfigDefinition {
  name: string;
  /** Null when unset and without a default (Kafka's null, e.g. broker.rack). */
  value(config: BrokerConfig): string | null;
  /**
   * STATIC_BROKER_CONFIG when it comes from `BrokerConfig` (YAML, env, flags), reported as such
   * when its value differs from the built-in default; DEFAULT_CONFIG when Weir fixes the value and
   * nothing can set it.
   */
  source: 'STATIC_BROKER_CONFIG' | 'DEFAULT_CONFIG';
  /** The topic config this broker config is the default of (Kafka's synonym), if any. */
  topicConfig?: string;
  sensitive?: boolean;
  /** Kafka's type of the value, reported by DescribeConfigs v3+. */
  type: ConfigValueType;
  /** What it is for, reported by DescribeConfigs v3+ when asked. */
  documentation: string;
}

function fromConfig(
  name: string,
  type: ConfigValueType,
  documentation: string,
  value: (config: BrokerConfig) => string | number | boolean | undefined,
  options: { sensitive?: boolean } = {},
): BrokerConfigDefinition {
  return {
    name,
    type,
    documentation,
    value: (config: BrokerConfig) => {
      const raw = value(config);
      return raw === undefined ? null : String(raw);
    },
    source: 'STATIC_BROKER_CONFIG',
    ...(options.sensitive ? { sensitive: true } : {}),
  };
}

/** Kafka's `listeners` form, `NAME://host:port`, of the client listener and the internal one if enabled. */
function listenersValue(config: BrokerConfig, address: 'bound' | 'advertised'): string {
  const { client, internal } = config.listeners;
  const entries = [
    address === 'bound'
      ? `CLIENT://${client.host}:${client.port}`
      : `CLIENT://${client.advertisedHost ?? client.host}:${client.advertisedPort ?? client.port}`,
  ];
  if (internal.enabled) {
    entries.push(
      address === 'bound'
        ? `INTERNAL://${internal.host}:${internal.port}`
        : `INTERNAL://${internal.advertisedHost ?? internal.host}:${internal.advertisedPort ?? internal.port}`,
    );
  }
  return entries.join(',');
}

/** Kafka's listener.security.protocol.map: the internal listener authenticates with SASL, over TLS if set. */
function securityProtocolMap(config: BrokerConfig): string {
  const { client, internal } = config.listeners;
  const entries = [`CLIENT:${client.securityProtocol}`];
  if (internal.enabled)
    entries.push(`INTERNAL:${internal.tls === undefined ? 'SASL_PLAINTEXT' : 'SASL_SSL'}`);
  return entries.join(',');
}

/**
 * A broker config that is the default of a topic config. Its value is the topic config's default,
 * so a topic's synonym and the broker's entry can never disagree.
 */
function topicDefault(
  name: string,
  topicConfig: string,
  source: BrokerConfigDefinition['source'],
): BrokerConfigDefinition {
  const definition = topicConfigDefinition(topicConfig);
  // A typo here is a bug in this table, so it fails at load rather than describing nothing.
  if (!definition) throw new Error(`"${topicConfig}" is not a topic config`);
  return {
    name,
    value: (config) => definition.defaultValue(config),
    source,
    topicConfig,
    type: TOPIC_CONFIG_VALUE_TYPES[definition.type],
    documentation: `The default of the topic config ${topicConfig}. ${definition.documentation}`,
  };
}

/** Every broker config DescribeConfigs reports, in Kafka's names. None can change at runtime. */
export const BROKER_CONFIGS: readonly BrokerConfigDefinition[] = [
  fromConfig('broker.id', 'INT', "This broker's id, the same as node.id.", (config) => config.nodeId),
  fromConfig('node.id', 'INT', "This broker's id in the cluster.", (config) => config.nodeId),
  // Kafka's log.dirs holds the partition logs; Weir keeps them under `<dataDir>/logs`.
  fromConfig(
    'log.dirs',
    'STRING',
    'Where the partition logs are kept: the logs folder of the data directory.',
    (config) => resolve(config.dataDir, 'logs'),
  ),
  fromConfig(
    'broker.rack',
    'STRING',
    "The rack (or zone) of this broker; replica placement spreads a partition's replicas over racks.",
    (config) => config.rack,
  ),
  fromConfig(
    'listeners',
    'STRING',
    'The addresses this broker listens on: the client listener and, when enabled, the internal one.',
    (config) => listenersValue(config, 'bound'),
  ),
  fromConfig(
    'advertised.listeners',
    'STRING',
    'The addresses clients and other brokers are told to connect to.',
    (config) => listenersValue(config, 'advertised'),
  ),
  fromConfig(
    'listener.security.protocol.map',
    'STRING',
    'The security protocol of each listener.',
    securityProtocolMap,
  ),
  fromConfig(
    'inter.broker.listener.name',
    'STRING',
    'The listener brokers use between themselves.',
    () => 'INTERNAL',
  ),
  fromConfig(
    'sasl.enabled.mechanisms',
    'LIST',
    'The SASL mechanisms the client listener accepts.',
    (config) => config.listeners.client.saslMechanisms.join(','),
  ),
  // Secrets without a Kafka name: reported so an operator sees whether they are set, never their value.
  fromConfig(
    'weir.internal.listener.token',
    'PASSWORD',
    'The token the console and the CLI authenticate with on the internal listener.',
    (config) => config.listeners.internal.token,
    {
      sensitive: true,
    },
  ),
  fromConfig(
    'weir.bootstrap.admin.password',
    'PASSWORD',
    'The password of the first admin user, created at the first start.',
    (config) => config.security.bootstrapAdmin?.password,
    {
      sensitive: true,
    },
  ),
  fromConfig(
    'num.partitions',
    'INT',
    'The partition count of a topic created without one.',
    (config) => config.topics.defaultPartitions,
  ),
  fromConfig(
    'default.replication.factor',
    'INT',
    'The replication factor of a topic created without one.',
    (config) => config.topics.defaultReplicationFactor,
  ),
  fromConfig(
    'replica.lag.time.max.ms',
    'LONG',
    'How long a follower may go without catching up to the leader before it leaves the ISR.',
    (config) => config.replication.replicaLagTimeMaxMs,
  ),
  fromConfig(
    'offsets.topic.replication.factor',
    'SHORT',
    'The replication factor of __consumer_offsets.',
    (config) => config.groups.offsetsTopicReplicationFactor,
  ),
  fromConfig(
    'transaction.state.log.replication.factor',
    'SHORT',
    'The replication factor of __transaction_state.',
    (config) => config.transactions.stateTopicReplicationFactor,
  ),
  fromConfig(
    'auto.create.topics.enable',
    'BOOLEAN',
    'Whether Metadata and Produce requests for an unknown topic create it.',
    (config) => config.topics.autoCreateEnable,
  ),
  fromConfig(
    'socket.request.max.bytes',
    'INT',
    'The largest request frame the broker reads; a larger one closes the connection.',
    (config) => config.limits.maxFrameBytes,
  ),
  fromConfig(
    'connections.max.idle.ms',
    'LONG',
    'How long a connection may stay idle before the broker closes it.',
    (config) => config.limits.idleTimeoutMs,
  ),
  fromConfig(
    'max.connections',
    'INT',
    'The most client connections the broker accepts at once.',
    (config) => config.limits.maxConnections,
  ),
  fromConfig(
    'fetch.max.bytes',
    'INT',
    'The most bytes one Fetch response carries.',
    (config) => config.limits.fetchMaxBytes,
  ),
  fromConfig(
    'log.retention.check.interval.ms',
    'LONG',
    'How often retention looks for segments to delete.',
    (config) => config.log.retentionCheckIntervalMs,
  ),
  topicDefault('message.max.bytes', 'max.message.bytes', 'STATIC_BROKER_CONFIG'),
  topicDefault('log.segment.bytes', 'segment.bytes', 'STATIC_BROKER_CONFIG'),
  topicDefault('log.roll.ms', 'segment.ms', 'STATIC_BROKER_CONFIG'),
  topicDefault('log.retention.ms', 'retention.ms', 'STATIC_BROKER_CONFIG'),
  topicDefault('log.retention.bytes', 'retention.bytes', 'STATIC_BROKER_CONFIG'),
  topicDefault('log.flush.interval.ms', 'flush.ms', 'STATIC_BROKER_CONFIG'),
  topicDefault('log.flush.interval.messages', 'flush.messages', 'STATIC_BROKER_CONFIG'),
  topicDefault('log.index.interval.bytes', 'index.interval.bytes', 'STATIC_BROKER_CONFIG'),
  topicDefault('log.index.size.max.bytes', 'segment.index.bytes', 'STATIC_BROKER_CONFIG'),
  topicDefault('log.message.timestamp.type', 'message.timestamp.type', 'STATIC_BROKER_CONFIG'),
  topicDefault(
    'log.message.timestamp.before.max.ms',
    'message.timestamp.before.max.ms',
    'STATIC_BROKER_CONFIG',
  ),
  topicDefault(
    'log.message.timestamp.after.max.ms',
    'message.timestamp.after.max.ms',
    'STATIC_BROKER_CONFIG',
  ),
  topicDefault(
    'log.message.timestamp.difference.max.ms',
    'message.timestamp.difference.max.ms',
    'STATIC_BROKER_CONFIG',
  ),
  topicDefault('log.cleanup.policy', 'cleanup.policy', 'STATIC_BROKER_CONFIG'),
  topicDefault('compression.type', 'compression.type', 'DEFAULT_CONFIG'),
  fromConfig(
    'log.cleaner.enable',
    'BOOLEAN',
    'Whether the log cleaner compacts topics whose cleanup.policy includes compact.',
    (config) => config.log.cleaner.enable,
  ),
  fromConfig(
    'log.cleaner.threads',
    'INT',
    'How many partitions the log cleaner compacts at once.',
    (config) => config.log.cleaner.threads,
  ),
  fromConfig(
    'log.cleaner.dedupe.buffer.size',
    'LONG',
    'The memory the log cleaner uses to remember the newest offset of each key.',
    (config) => config.log.cleaner.dedupeBufferBytes,
  ),
  // Kafka's default is Double.MAX_VALUE, written as Java prints it, for "unlimited".
  fromConfig(
    'log.cleaner.io.max.bytes.per.second',
    'DOUBLE',
    'The most bytes per second the log cleaner reads and writes.',
    (config) => config.log.cleaner.ioMaxBytesPerSecond ?? '1.7976931348623157E308',
  ),
  fromConfig(
    'log.cleaner.backoff.ms',
    'LONG',
    'How long the log cleaner sleeps when nothing needs compacting.',
    (config) => config.log.cleaner.backoffMs,
  ),
  topicDefault('log.cleaner.min.cleanable.ratio', 'min.cleanable.dirty.ratio', 'STATIC_BROKER_CONFIG'),
  topicDefault('log.cleaner.delete.retention.ms', 'delete.retention.ms', 'STATIC_BROKER_CONFIG'),
  topicDefault('log.cleaner.min.compaction.lag.ms', 'min.compaction.lag.ms', 'STATIC_BROKER_CONFIG'),
  topicDefault('log.cleaner.max.compaction.lag.ms', 'max.compaction.lag.ms', 'STATIC_BROKER_CONFIG'),
  topicDefault('log.segment.delete.delay.ms', 'file.delete.delay.ms', 'DEFAULT_CONFIG'),
  topicDefault('min.insync.replicas', 'min.insync.replicas', 'STATIC_BROKER_CONFIG'),
  topicDefault('unclean.leader.election.enable', 'unclean.leader.election.enable', 'STATIC_BROKER_CONFIG'),
];

const BY_TOPIC_CONFIG = new Map(
  BROKER_CONFIGS.filter((definition) => definition.topicConfig !== undefined).map((definition) => [
    definition.topicConfig,
    definition,
  ]),
);

/** The broker config a topic config falls back to, if it has one. */
export function brokerConfigForTopicConfig(topicConfig: string): BrokerConfigDefinition | undefined {
  return BY_TOPIC_CONFIG.get(topicConfig);
}

let builtInDefaults: BrokerConfig | undefined;

/** The configuration with nothing set: what a broker config's DEFAULT_CONFIG synonym reports. */
export function builtInBrokerConfig(): BrokerConfig {
  builtInDefaults ??= brokerConfigSchema.parse({});
  return builtInDefaults;
}
