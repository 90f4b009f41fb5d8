import { type BrokerConfig, CLEANUP_POLICIES } from '../config/broker-config';
import type { LogConfig } from '../log/log-config';

/** The shape of one topic-level config, with Kafka's name and meaning. */
export interface TopicConfigDefinition {
  name: string;
  /** Kafka's type name, reported by DescribeConfigs v3+ and used for parsing. */
  type: 'long' | 'int' | 'double' | 'boolean' | 'string' | 'list';
  /** One or two sentences for operators, reported by DescribeConfigs v3+ when asked. */
  documentation: string;
  /** Why `value` is not acceptable, or undefined. */
  problem(value: string): string | undefined;
  /** The value a topic gets when it does not set this config (from the broker's settings). */
  defaultValue(broker: BrokerConfig): string;
  /** Writes the parsed value into the log settings, for configs the log uses. */
  applyToLog?(log: LogConfig, value: string): void;
}

/*
 * Problems are worded as Kafka words them (its ConfigDef parsers and validators), because clients
 * and people compare the answers of the two: `topicConfigsProblem` turns a reason into Kafka's
 * ConfigException text, "Invalid value abc for configuration retention.ms: Not a number of type
 * LONG", which the broker sends as the INVALID_CONFIG error message of CreateTopics, AlterConfigs
 * and IncrementalAlterConfigs.
 */

/** Kafka's text for a value a config's validation refused. */
export function invalidConfigValueMessage(name: string, value: string, reason: string): string {
  return `Invalid value ${value} for configuration ${name}: ${reason}`;
}

/** Kafka's text for a config name no topic config has. */
export function unknownTopicConfigMessage(name: string): string {
  return `Unknown topic config name: ${name}`;
}

const LONG_PATTERN = /^-?\d+$/;

/** The ranges of Kafka's INT and LONG types, which a value must parse into before any range check. */
const TYPE_RANGES = {
  INT: { min: -(2n ** 31n), max: 2n ** 31n - 1n },
  LONG: { min: -(2n ** 63n), max: 2n ** 63n - 1n },
} as const;

/** Kafka's Range validator: at least `min` and, when given, no more than `max`. */
function rangeReason(value: bigint | number, min: number, max?: bigint | number): string | undefined {
  if (value < min) return `Value must be at least ${min}`;
  if (max !== undefined && value > max) return `Value must be no more than ${max}`;
  return undefined;
}

/** An INT or LONG config of at least `min` and at most `max` (the type's own limit by default). */
function integerProblem(
  type: keyof typeof TYPE_RANGES,
  value: string,
  min: number,
  max?: bigint | number,
): string | undefined {
  if (!LONG_PATTERN.test(value)) return `Not a number of type ${type}`;
  const parsed = BigInt(value);
  if (parsed < TYPE_RANGES[type].min || parsed > TYPE_RANGES[type].max) return `Not a number of type ${type}`;
  return rangeReason(parsed, min, max);
}

/** Kafka's Long.MAX_VALUE, the largest value of a long config and max.compaction.lag.ms's default. */
const LONG_MAX = '9223372036854775807';

/** An INT config of at least `min`. */
function intProblem(value: string, min: number): string | undefined {
  return integerProblem('INT', value, min);
}

/**
 * A LONG config the log keeps as a JavaScript number: past Number.MAX_SAFE_INTEGER it could not be
 * held exactly, so such values are refused, as a range Kafka would not have.
 */
function safeLongProblem(value: string, min: number): string | undefined {
  return integerProblem('LONG', value, min, Number.MAX_SAFE_INTEGER);
}

/**
 * A long config whose range goes up to Kafka's Long.MAX_VALUE, which a JavaScript number cannot
 * hold exactly: the text is checked as a BigInt, so Kafka's own default is accepted as written.
 */
function longProblem(value: string, min: number): string | undefined {
  return integerProblem('LONG', value, min);
}

/**
 * A duration in milliseconds (or a count) that {@link longProblem} accepted, as a number: past
 * Number.MAX_SAFE_INTEGER (some 285,000 years) it means "never" (or "no limit", as Kafka's
 * Long.MAX_VALUE defaults do), so it becomes Infinity rather than a rounded value.
 */
function longMs(value: string): number {
  const parsed = Number(value);
  return parsed > Number.MAX_SAFE_INTEGER ? Number.POSITIVE_INFINITY : parsed;
}

const DOUBLE_PATTERN = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function doubleProblem(value: string, min: number, max: number): string | undefined {
  const trimmed = value.trim();
  if (!DOUBLE_PATTERN.test(trimmed)) return 'Not a number of type DOUBLE';
  return rangeReason(Number(trimmed), min, max);
}

/** Kafka's ValidString validator. */
function oneOf(...allowed: string[]): (value: string) => string | undefined {
  return (value) => (allowed.includes(value) ? undefined : `String must be one of: ${allowed.join(', ')}`);
}

/** Kafka's BOOLEAN parser (Weir takes the lower-case words only). */
function booleanProblem(value: string): string | undefined {
  return value === 'true' || value === 'false' ? undefined : 'Expected value to be either true or false';
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
  if (entries.length === 0) return 'At least one policy is needed: delete, compact or both';
  const allowed: readonly string[] = CLEANUP_POLICIES;
  if (entries.some((entry) => !allowed.includes(entry))) {
    return `String must be one of: ${CLEANUP_POLICIES.join(', ')}`;
  }
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
    documentation:
      'What happens to old segments: delete removes them by age or size, compact keeps the newest record of each key; both may be listed.',
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
    documentation:
      'The codec records are stored with. Weir stores batches as the producer compressed them, so only producer is accepted.',
    // Batches are stored as the producer sent them; recompressing would break that.
    problem: (value) =>
      value === 'producer'
        ? undefined
        : 'Weir keeps batches as the producer compressed them, so only producer is supported',
    defaultValue: () => 'producer',
  },
  {
    name: 'delete.retention.ms',
    type: 'long',
    documentation:
      'How long a tombstone (a record with a null value) stays in a compacted topic, so consumers that lag can still see the delete.',
    problem: (value) => longProblem(value, 0),
    defaultValue: (broker) => String(broker.log.cleaner.deleteRetentionMs),
    applyToLog: (log, value) => {
      log.deleteRetentionMs = longMs(value);
    },
  },
  {
    name: 'file.delete.delay.ms',
    type: 'long',
    documentation: "How long a deleted segment's files wait on disk before they are removed.",
    problem: (value) => safeLongProblem(value, 0),
    defaultValue: () => '60000',
    applyToLog: (log, value) => {
      log.fileDeleteDelayMs = Number(value);
    },
  },
  {
    name: 'flush.messages',
    type: 'long',
    documentation:
      "After this many records, the partition's log is synced to disk; unset, syncing is left to the flush interval and the replicas.",
    problem: (value) => longProblem(value, 1),
    // No count set means no flush by count: Kafka reports that as Long.MAX_VALUE, and so does Weir
    // (not JavaScript's largest safe integer, which is a number no Kafka tool would show).
    defaultValue: (broker) => String(broker.log.flushMessages ?? LONG_MAX),
    applyToLog: (log, value) => {
      log.flushMessages = longMs(value);
    },
  },
  {
    name: 'flush.ms',
    type: 'long',
    documentation: "After this much time, the partition's log is synced to disk.",
    problem: (value) => safeLongProblem(value, 1),
    defaultValue: (broker) => String(broker.log.flushMs),
    applyToLog: (log, value) => {
      log.flushMs = Number(value);
    },
  },
  {
    name: 'index.interval.bytes',
    type: 'int',
    documentation:
      'How many bytes of records lie between two entries of the offset index; smaller means faster lookups and larger indexes.',
    problem: (value) => intProblem(value, 0),
    defaultValue: (broker) => String(broker.log.indexIntervalBytes),
    applyToLog: (log, value) => {
      log.indexIntervalBytes = Number(value);
    },
  },
  {
    name: 'max.compaction.lag.ms',
    type: 'long',
    documentation: 'The longest a record may stay uncompacted in a compacted topic.',
    problem: (value) => longProblem(value, 1),
    defaultValue: (broker) => String(broker.log.cleaner.maxCompactionLagMs ?? LONG_MAX),
    applyToLog: (log, value) => {
      log.maxCompactionLagMs = longMs(value);
    },
  },
  {
    name: 'max.message.bytes',
    type: 'int',
    documentation: 'The largest record batch the topic accepts, after compression.',
    problem: (value) => intProblem(value, 64),
    defaultValue: (broker) => String(broker.log.maxMessageBytes),
    applyToLog: (log, value) => {
      log.maxMessageBytes = Number(value);
    },
  },
  {
    name: 'message.timestamp.after.max.ms',
    type: 'long',
    documentation:
      "How far in the future a CreateTime timestamp may be, compared with the broker's clock; a batch beyond it is refused.",
    problem: (value) => longProblem(value, 0),
    defaultValue: (broker) => String(broker.log.timestampAfterMaxMs ?? LONG_MAX),
    applyToLog: (log, value) => {
      log.timestampAfterMaxMs = longMs(value);
    },
  },
  {
    name: 'message.timestamp.before.max.ms',
    type: 'long',
    documentation:
      "How far in the past a CreateTime timestamp may be, compared with the broker's clock; a batch beyond it is refused.",
    problem: (value) => longProblem(value, 0),
    defaultValue: (broker) => String(broker.log.timestampBeforeMaxMs ?? LONG_MAX),
    applyToLog: (log, value) => {
      log.timestampBeforeMaxMs = longMs(value);
    },
  },
  {
    name: 'message.timestamp.difference.max.ms',
    type: 'long',
    documentation: "The older, symmetric bound on a CreateTime timestamp's distance from the broker's clock.",
    problem: (value) => longProblem(value, 0),
    defaultValue: (broker) => String(broker.log.timestampDifferenceMaxMs ?? LONG_MAX),
    applyToLog: (log, value) => {
      log.timestampDifferenceMaxMs = longMs(value);
    },
  },
  {
    name: 'message.timestamp.type',
    type: 'string',
    documentation:
      "Which time a record keeps: CreateTime, the producer's, or LogAppendTime, the broker's when it appended the batch.",
    problem: oneOf('CreateTime', 'LogAppendTime'),
    defaultValue: (broker) => broker.log.timestampType,
    applyToLog: (log, value) => {
      log.timestampType = value as LogConfig['timestampType'];
    },
  },
  {
    name: 'min.cleanable.dirty.ratio',
    type: 'double',
    documentation: 'The share of a compacted log not yet compacted at which the cleaner compacts it.',
    problem: (value) => doubleProblem(value, 0, 1),
    defaultValue: (broker) => String(broker.log.cleaner.minCleanableRatio),
    applyToLog: (log, value) => {
      log.minCleanableDirtyRatio = Number(value.trim());
    },
  },
  {
    name: 'min.compaction.lag.ms',
    type: 'long',
    documentation: 'The shortest time a record stays uncompacted in a compacted topic.',
    problem: (value) => longProblem(value, 0),
    defaultValue: (broker) => String(broker.log.cleaner.minCompactionLagMs),
    applyToLog: (log, value) => {
      log.minCompactionLagMs = longMs(value);
    },
  },
  {
    name: 'min.insync.replicas',
    type: 'int',
    documentation:
      'With acks=all, the fewest in-sync replicas that must have a write before it is acknowledged; with fewer, producers get NOT_ENOUGH_REPLICAS.',
    // Checked against the topic's replication factor by the topic manager, which knows it.
    problem: (value) => intProblem(value, 1),
    defaultValue: (broker) => String(broker.topics.minInsyncReplicas),
    applyToLog: (log, value) => {
      log.minInsyncReplicas = Number(value);
    },
  },
  {
    name: 'retention.bytes',
    type: 'long',
    documentation:
      'The most bytes a partition keeps before its oldest segments are deleted; -1 means no limit.',
    problem: (value) => safeLongProblem(value, -1),
    defaultValue: (broker) => String(broker.log.retentionBytes),
    applyToLog: (log, value) => {
      log.retentionBytes = Number(value);
    },
  },
  {
    name: 'retention.ms',
    type: 'long',
    documentation: 'How long records are kept before their segment is deleted; -1 means forever.',
    problem: (value) => safeLongProblem(value, -1),
    defaultValue: (broker) => String(broker.log.retentionMs),
    applyToLog: (log, value) => {
      log.retentionMs = Number(value);
    },
  },
  {
    name: 'segment.bytes',
    type: 'int',
    documentation: "The size at which the partition's log rolls to a new segment file.",
    problem: (value) => intProblem(value, 1024),
    defaultValue: (broker) => String(broker.log.segmentBytes),
    applyToLog: (log, value) => {
      log.segmentBytes = Number(value);
    },
  },
  {
    name: 'segment.index.bytes',
    type: 'int',
    documentation: "The largest size of a segment's offset and time indexes.",
    problem: (value) => intProblem(value, 1024),
    defaultValue: (broker) => String(broker.log.maxIndexBytes),
    applyToLog: (log, value) => {
      log.maxIndexBytes = Number(value);
    },
  },
  {
    name: 'segment.ms',
    type: 'long',
    documentation:
      "The age at which the partition's log rolls to a new segment file even when it is not full.",
    problem: (value) => safeLongProblem(value, 1),
    defaultValue: (broker) => String(broker.log.segmentMs),
    applyToLog: (log, value) => {
      log.segmentMs = Number(value);
    },
  },
  {
    name: 'unclean.leader.election.enable',
    type: 'boolean',
    documentation:
      'Whether a replica that is not in sync may become leader when no in-sync replica is left: the partition comes back, but acknowledged records can be lost.',
    problem: booleanProblem,
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

/** Why a set of topic config overrides is not acceptable: the first bad entry, in Kafka's words. */
export function topicConfigsProblem(configs: Record<string, string | null>): string | undefined {
  for (const [name, value] of Object.entries(configs)) {
    const definition = BY_NAME.get(name);
    if (!definition) return unknownTopicConfigMessage(name);
    if (value === null) return `Null value not supported for topic configs: ${name}`;
    const problem = definition.problem(value);
    if (problem) return invalidConfigValueMessage(name, value, problem);
  }
  const minLag = configs['min.compaction.lag.ms'];
  const maxLag = configs['max.compaction.lag.ms'];
  // Kafka refuses a minimum above the maximum: no record could ever be both old enough and young enough.
  if (typeof minLag === 'string' && typeof maxLag === 'string' && BigInt(minLag) > BigInt(maxLag)) {
    return `conflict topic config setting min.compaction.lag.ms (${minLag}) > max.compaction.lag.ms (${maxLag})`;
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
