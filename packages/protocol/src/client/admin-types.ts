import type { PartitionMetadata } from './cluster-metadata';

/** A topic to create. */
export interface NewTopic {
  readonly name: string;
  /** Default: the broker's `num.partitions` (needs CreateTopics v4, which Weir serves). */
  readonly partitions?: number;
  /** Default: the broker's default (1 on a single broker). */
  readonly replicationFactor?: number;
  /** Topic configs by their Kafka names, such as `{ 'retention.ms': '3600000' }`. */
  readonly configs?: Readonly<Record<string, string>>;
}

/** Settings of operations that only check when asked to. */
export interface ValidateOnlyOptions {
  /** Check the request without applying it. Default false. */
  readonly validateOnly?: boolean;
}

/** Settings of operations the broker may need time for. */
export interface AdminTimeoutOptions {
  /** How long the broker may take. Default: the client's `requestTimeoutMs`. */
  readonly timeoutMs?: number;
}

/** A topic as `describeTopics` reports it. */
export interface TopicDescription {
  readonly name: string;
  readonly isInternal: boolean;
  /** Sorted by partition number. */
  readonly partitions: readonly PartitionMetadata[];
}

/** A new partition count for a topic (it can only grow). */
export interface PartitionCountChange {
  readonly topic: string;
  readonly count: number;
}

/** Delete the records of a partition below an offset. */
export interface DeleteRecordsRequest {
  readonly topic: string;
  readonly partition: number;
  /** Records before this offset go; -1n means all records (up to the high watermark). */
  readonly beforeOffset: bigint;
}

/** A partition's new log start after `deleteRecords`. */
export interface DeletedRecords {
  readonly topic: string;
  readonly partition: number;
  readonly lowWatermark: bigint;
}

/** The earliest and latest offsets of one partition. */
export interface PartitionOffsetRange {
  readonly partition: number;
  /** The log start offset. */
  readonly earliest: bigint;
  /** The high watermark: the offset the next record will get. */
  readonly latest: bigint;
}

/** What a configuration belongs to. */
export type ConfigResourceType = 'topic' | 'broker';

/** A topic, or a broker by its node id as a string (`''` for the cluster-wide broker default). */
export interface ConfigResource {
  readonly type: ConfigResourceType;
  readonly name: string;
}

/** A resource whose configuration to describe. */
export interface DescribeConfigsRequest extends ConfigResource {
  /** Only these keys. Default: all of them. */
  readonly keys?: readonly string[];
}

/**
 * Where a config value comes from, as Kafka's `ConfigSource` names it, indexed by its wire id.
 * The browser-safe entry (src/names.ts) exports the list; this file imports only types.
 */
export const CONFIG_SOURCES = [
  'unknown',
  'topic',
  'dynamic-broker',
  'dynamic-default-broker',
  'static-broker',
  'default',
  'dynamic-broker-logger',
] as const;
export type ConfigSource = (typeof CONFIG_SOURCES)[number];

/** A config value's type, as Kafka's `ConfigType` names it, indexed by its wire id. */
export const CONFIG_VALUE_TYPES = [
  'unknown',
  'boolean',
  'string',
  'int',
  'short',
  'long',
  'double',
  'list',
  'class',
  'password',
] as const;
export type ConfigValueType = (typeof CONFIG_VALUE_TYPES)[number];

/** One configuration value. */
export interface ConfigEntry {
  readonly name: string;
  /** Null for sensitive values and unset ones. */
  readonly value: string | null;
  readonly readOnly: boolean;
  readonly isDefault: boolean;
  readonly isSensitive: boolean;
  /** 'unknown' from brokers that only speak DescribeConfigs v0 (unless the value is a default). */
  readonly source: ConfigSource;
  /** The values this one overrides, highest precedence first (only with `includeSynonyms`). */
  readonly synonyms: readonly {
    readonly name: string;
    readonly value: string | null;
    readonly source: ConfigSource;
  }[];
  /** The value's type; 'unknown' from brokers that only speak DescribeConfigs v0–2. */
  readonly type: ConfigValueType;
  /** What the config is for (only with `includeDocumentation`, from brokers speaking v3+). */
  readonly documentation: string | null;
}

/** A resource's configuration. */
export interface ConfigResourceDescription extends ConfigResource {
  readonly configs: readonly ConfigEntry[];
}

/**
 * A whole new configuration for a resource: AlterConfigs replaces it, so keys left out return to
 * their defaults. Prefer {@link IncrementalAlterConfigsRequest} to change single keys.
 */
export interface AlterConfigsRequest extends ConfigResource {
  readonly configs: Readonly<Record<string, string | null>>;
}

/** How IncrementalAlterConfigs changes one key. `append`/`subtract` work on list-valued keys. */
export type ConfigOperation = 'set' | 'delete' | 'append' | 'subtract';

/** Changes to single keys of a resource's configuration. */
export interface IncrementalAlterConfigsRequest extends ConfigResource {
  readonly changes: readonly {
    readonly name: string;
    readonly operation: ConfigOperation;
    /** Needed by every operation but `delete`. */
    readonly value?: string | null;
  }[];
}
