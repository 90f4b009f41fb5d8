import { type BrokerConfig, CLEANUP_POLICIES } from '../config/broker-config';
import type { LogConfig } from '../log/log-config';

/** The shape of one topic-level config, with Kafka's name and meaning. */
export interface TopicConfigDefinition {
  name: string;
  /** Kafka's type name, reported by DescribeConfigs documentation and used for parsing. */
  type: 'long' | 'int' | 'double' | 'boolean' | 'string' | 'list';
  /** Why `value` is not acceptable, or undefined. */
  problem(value: string): string | undefined;
  /** The value a topic gets when it does not set this config (from the broker's settings). */
  defaultValue(broker: BrokerConfig): string;
  /** Writes the parsed value into the log settings, for configs the log uses. */
  applyToLog?(log: LogConfig, value: string): void;
}

const LONG_PATTERN = /^-?\d+$/;

function integerProblem(value: string, min: number, max = Number.MAX_SAFE_INTEGER): string | undefined {
  if (!LONG_PATTERN.test(value)) return `"${value}" is not an integer`;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) return `${value} is too large`;
  if (parsed < min || parsed > max) return `${value} is outside ${min}..${max}`;
  return undefined;
}

function oneOf(...allowed: string[]): (value: string) => string | undefined {
  return (value) => (allowed.includes(value) ? undefined : `"${value}" is not one of ${allowed.join(', ')}`);
}

const INT_MAX = 2_147_483_647;

/** Kafka's Long.MAX_VALUE, the largest value of a long config and max.compaction.lag.ms's default. */
const LONG_MAX = '9223372036854775807';

/**
 * A long config whose range goes up to Kafka's Long.MAX_VALUE, which a JavaScript number cannot
 * hold exactly: the text is checked as a BigInt, so Kafka's own default is accepted as written.
 */
function longProblem(value: string, min: number): string | undefined {
  if (!LONG_PATTERN.test(value)) return `"${value}" is not an integer`;
  const parsed = BigInt(value);
  if (parsed < BigInt(min) || parsed > BigInt(LONG_MAX)) return `${value} is outside ${min}..${LONG_MAX}`;
  return undefined;
}

/**
 * A duration in milliseconds that {@link longProblem} accepted, as a number: past
 * Number.MAX_SAFE_INTEGER (some 285,000 years) it means "never", so it becomes Infinity rather
 * than a rounded value.
 */
function longMs(value: string): number {
  const parsed = Number(value);
  return parsed > Number.MAX_SAFE_INTEGER ? Number.POSITIVE_INFINITY : parsed;
}

const DOUBLE_PATTERN = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function doubleProblem(value: string, min: number, max: number): string | undefined {
  const trimmed = value.trim();
  if (!DOUBLE_PATTERN.test(trimmed)) return `"${value}" is not a number`;
  const parsed = Number(trimmed);
  if (parsed < min || parsed > max) return `${value} is outside ${min}..${max}`;
  return undefined;
}

/** The entries of a list config, as Kafka splits them: on commas, with surrounding spaces dropped. */
export function listEntries(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

function cleanupPolicyProblem(value: string): string | undefined {
  const entries = listEntries(value);
  if (entries.length === 0) return 'lists no policy (use "delete", "compact" or both)';
  const allowed: readonly string[] = CLEANUP_POLICIES;
  const unknown = entries.find((entry) => !allowed.includes(entry));
  if (unknown !== undefined) return `"${unknown}" is not one of ${CLEANUP_POLICIES.join(', ')}`;
  return undefined;
}

/**
 * The topic configs Weir understands. Anything else is refused with INVALID_CONFIG, so a typo never
 * silently does nothing. Values are kept as strings, as Kafka's protocol carries them.
 */
export const TOPIC_CONFIGS: readonly TopicConfigDefinition[] = [
  {
    name: 'cleanup.policy',
    type: 'list',
    problem: cleanupPolicyProblem,
    defaultValue: (broker) => broker.log.cleanupPolicy.join(','),
    applyToLog: (log, value) => {
      const policies = listEntries(value);
      log.compact = policies.includes('compact');
      log.deleteByRetention = policies.includes('delete');
    },
  },
  {
    name: 'compression.type',
    type: 'string',
    // Batches are stored as the producer sent them; recompressing would break that.
    problem: (value) =>
      value === 'producer' ? undefined : `"${value}" is not supported (only "producer" is)`,
    defaultValue: () => 'producer',
  },
  {
    name: 'delete.retention.ms',
    type: 'long',
    problem: (value) => longProblem(value, 0),
    defaultValue: (broker) => String(broker.log.cleaner.deleteRetentionMs),
    applyToLog: (log, value) => {
      log.deleteRetentionMs = longMs(value);
    },
  },
  {
    name: 'file.delete.delay.ms',
    type: 'long',
    problem: (value) => integerProblem(value, 0),
    defaultValue: () => '60000',
    applyToLog: (log, value) => {
      log.fileDeleteDelayMs = Number(value);
    },
  },
  {
    name: 'flush.messages',
    type: 'long',
    problem: (value) => integerProblem(value, 1),
    defaultValue: (broker) => String(broker.log.flushMessages ?? Number.MAX_SAFE_INTEGER),
    applyToLog: (log, value) => {
      log.flushMessages = Number(value);
    },
  },
  {
    name: 'flush.ms',
    type: 'long',
    problem: (value) => integerProblem(value, 1),
    defaultValue: (broker) => String(broker.log.flushMs),
    applyToLog: (log, value) => {
      log.flushMs = Number(value);
    },
  },
  {
    name: 'index.interval.bytes',
    type: 'int',
    problem: (value) => integerProblem(value, 0, INT_MAX),
    defaultValue: (broker) => String(broker.log.indexIntervalBytes),
    applyToLog: (log, value) => {
      log.indexIntervalBytes = Number(value);
    },
  },
  {
    name: 'max.compaction.lag.ms',
    type: 'long',
    problem: (value) => longProblem(value, 1),
    defaultValue: (broker) => String(broker.log.cleaner.maxCompactionLagMs ?? LONG_MAX),
    applyToLog: (log, value) => {
      log.maxCompactionLagMs = longMs(value);
    },
  },
  {
    name: 'max.message.bytes',
    type: 'int',
    problem: (value) => integerProblem(value, 64, INT_MAX),
    defaultValue: (broker) => String(broker.log.maxMessageBytes),
    applyToLog: (log, value) => {
      log.maxMessageBytes = Number(value);
    },
  },
  {
    name: 'message.timestamp.after.max.ms',
    type: 'long',
    problem: (value) => longProblem(value, 0),
    defaultValue: (broker) => String(broker.log.timestampAfterMaxMs ?? LONG_MAX),
    applyToLog: (log, value) => {
      log.timestampAfterMaxMs = longMs(value);
    },
  },
  {
    name: 'message.timestamp.before.max.ms',
    type: 'long',
    problem: (value) => longProblem(value, 0),
    defaultValue: (broker) => String(broker.log.timestampBeforeMaxMs ?? LONG_MAX),
    applyToLog: (log, value) => {
      log.timestampBeforeMaxMs = longMs(value);
    },
  },
  {
    name: 'message.timestamp.difference.max.ms',
    type: 'long',
    problem: (value) => longProblem(value, 0),
    defaultValue: (broker) => String(broker.log.timestampDifferenceMaxMs ?? LONG_MAX),
    applyToLog: (log, value) => {
      log.timestampDifferenceMaxMs = longMs(value);
    },
  },
  {
    name: 'message.timestamp.type',
    type: 'string',
    problem: oneOf('CreateTime', 'LogAppendTime'),
    defaultValue: (broker) => broker.log.timestampType,
    applyToLog: (log, value) => {
      log.timestampType = value as LogConfig['timestampType'];
    },
  },
  {
    name: 'min.cleanable.dirty.ratio',
    type: 'double',
    problem: (value) => doubleProblem(value, 0, 1),
    defaultValue: (broker) => String(broker.log.cleaner.minCleanableRatio),
    applyToLog: (log, value) => {
      log.minCleanableDirtyRatio = Number(value.trim());
    },
  },
  {
    name: 'min.compaction.lag.ms',
    type: 'long',
    problem: (value) => longProblem(value, 0),
    defaultValue: (broker) => String(broker.log.cleaner.minCompactionLagMs),
    applyToLog: (log, value) => {
      log.minCompactionLagMs = longMs(value);
    },
  },
  {
    name: 'min.insync.replicas',
    type: 'int',
    // Checked against the topic's replication factor by the topic manager, which knows it.
    problem: (value) => integerProblem(value, 1, INT_MAX),
    defaultValue: (broker) => String(broker.topics.minInsyncReplicas),
    applyToLog: (log, value) => {
      log.minInsyncReplicas = Number(value);
    },
  },
  {
    name: 'retention.bytes',
    type: 'long',
    problem: (value) => integerProblem(value, -1),
    defaultValue: (broker) => String(broker.log.retentionBytes),
    applyToLog: (log, value) => {
      log.retentionBytes = Number(value);
    },
  },
  {
    name: 'retention.ms',
    type: 'long',
    problem: (value) => integerProblem(value, -1),
    defaultValue: (broker) => String(broker.log.retentionMs),
    applyToLog: (log, value) => {
      log.retentionMs = Number(value);
    },
  },
  {
    name: 'segment.bytes',
    type: 'int',
    problem: (value) => integerProblem(value, 1024, INT_MAX),
    defaultValue: (broker) => String(broker.log.segmentBytes),
    applyToLog: (log, value) => {
      log.segmentBytes = Number(value);
    },
  },
  {
    name: 'segment.index.bytes',
    type: 'int',
    problem: (value) => integerProblem(value, 1024, INT_MAX),
    defaultValue: (broker) => String(broker.log.maxIndexBytes),
    applyToLog: (log, value) => {
      log.maxIndexBytes = Number(value);
    },
  },
  {
    name: 'segment.ms',
    type: 'long',
    problem: (value) => integerProblem(value, 1),
    defaultValue: (broker) => String(broker.log.segmentMs),
    applyToLog: (log, value) => {
      log.segmentMs = Number(value);
    },
  },
  {
    name: 'unclean.leader.election.enable',
    type: 'boolean',
    problem: oneOf('true', 'false'),
    defaultValue: (broker) => String(broker.topics.uncleanLeaderElectionEnable),
    applyToLog: (log, value) => {
      log.uncleanLeaderElectionEnable = value === 'true';
    },
  },
];

const BY_NAME = new Map(TOPIC_CONFIGS.map((definition) => [definition.name, definition]));

export function topicConfigDefinition(name: string): TopicConfigDefinition | undefined {
  return BY_NAME.get(name);
}

/** Why a set of topic config overrides is not acceptable: the first bad entry, named. */
export function topicConfigsProblem(configs: Record<string, string | null>): string | undefined {
  for (const [name, value] of Object.entries(configs)) {
    const definition = BY_NAME.get(name);
    if (!definition) return `unknown topic config "${name}"`;
    if (value === null) return `topic config "${name}" has no value`;
    const problem = definition.problem(value);
    if (problem) return `invalid value for "${name}": ${problem}`;
  }
  const minLag = configs['min.compaction.lag.ms'];
  const maxLag = configs['max.compaction.lag.ms'];
  // Kafka refuses a minimum above the maximum: no record could ever be both old enough and young enough.
  if (typeof minLag === 'string' && typeof maxLag === 'string' && BigInt(minLag) > BigInt(maxLag)) {
    return `conflicting values: "min.compaction.lag.ms" (${minLag}) is larger than "max.compaction.lag.ms" (${maxLag})`;
  }
  return undefined;
}

/** The log settings of a topic: broker defaults, then the topic's overrides. */
export function logConfigFor(broker: BrokerConfig, overrides: Record<string, string>): LogConfig {
  const log: LogConfig = {
    segmentBytes: broker.log.segmentBytes,
    segmentMs: broker.log.segmentMs,
    indexIntervalBytes: broker.log.indexIntervalBytes,
    maxIndexBytes: broker.log.maxIndexBytes,
    flushMessages: broker.log.flushMessages ?? Number.POSITIVE_INFINITY,
    flushMs: broker.log.flushMs,
    retentionMs: broker.log.retentionMs,
    retentionBytes: broker.log.retentionBytes,
    maxMessageBytes: broker.log.maxMessageBytes,
    timestampType: broker.log.timestampType,
    timestampBeforeMaxMs: broker.log.timestampBeforeMaxMs ?? Number.POSITIVE_INFINITY,
    timestampAfterMaxMs: broker.log.timestampAfterMaxMs ?? Number.POSITIVE_INFINITY,
    timestampDifferenceMaxMs: broker.log.timestampDifferenceMaxMs ?? Number.POSITIVE_INFINITY,
    fileDeleteDelayMs: 60_000,
    minInsyncReplicas: broker.topics.minInsyncReplicas,
    uncleanLeaderElectionEnable: broker.topics.uncleanLeaderElectionEnable,
    compact: broker.log.cleanupPolicy.includes('compact'),
    deleteByRetention: broker.log.cleanupPolicy.includes('delete'),
    minCleanableDirtyRatio: broker.log.cleaner.minCleanableRatio,
    minCompactionLagMs: broker.log.cleaner.minCompactionLagMs,
    maxCompactionLagMs: broker.log.cleaner.maxCompactionLagMs ?? Number.POSITIVE_INFINITY,
    deleteRetentionMs: broker.log.cleaner.deleteRetentionMs,
  };
  for (const [name, value] of Object.entries(overrides)) BY_NAME.get(name)?.applyToLog?.(log, value);
  return log;
}
