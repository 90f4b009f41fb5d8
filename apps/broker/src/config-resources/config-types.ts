/**
 * The vocabulary of the config commands (DescribeConfigs, AlterConfigs, IncrementalAlterConfigs),
 * with Kafka's numeric ids next to the names so handlers translate without a table of their own.
 */

import type { TopicConfigDefinition } from '../topics/topic-configs';

/** The resources whose configs Weir serves. */
export type ConfigResourceType = 'topic' | 'broker';

/** Kafka's `ConfigResource.Type` ids for the resources Weir serves. */
export const CONFIG_RESOURCE_TYPE_IDS: Readonly<Record<ConfigResourceType, number>> = {
  topic: 2,
  broker: 4,
};

/**
 * The resource type for a Kafka id, or null for one Weir does not serve (broker loggers, groups,
 * client metrics…); the command answers those with INVALID_REQUEST, as Kafka does.
 */
export function configResourceTypeOf(id: number): ConfigResourceType | null {
  if (id === CONFIG_RESOURCE_TYPE_IDS.topic) return 'topic';
  if (id === CONFIG_RESOURCE_TYPE_IDS.broker) return 'broker';
  return null;
}

/**
 * Where a config's value comes from, with the names of Kafka's admin client and the ids
 * DescribeConfigs v1+ carries on the wire (`DescribeConfigsResponse.ConfigSource`).
 */
export const CONFIG_SOURCE_IDS = {
  UNKNOWN: 0,
  DYNAMIC_TOPIC_CONFIG: 1,
  DYNAMIC_BROKER_CONFIG: 2,
  DYNAMIC_DEFAULT_BROKER_CONFIG: 3,
  STATIC_BROKER_CONFIG: 4,
  DEFAULT_CONFIG: 5,
  DYNAMIC_BROKER_LOGGER_CONFIG: 6,
} as const;

export type ConfigSource = keyof typeof CONFIG_SOURCE_IDS;

/** Kafka's ConfigType ids: DescribeConfigs v3+ reports each config's type as one of these. */
export const CONFIG_VALUE_TYPE_IDS = {
  UNKNOWN: 0,
  BOOLEAN: 1,
  STRING: 2,
  INT: 3,
  SHORT: 4,
  LONG: 5,
  DOUBLE: 6,
  LIST: 7,
  CLASS: 8,
  PASSWORD: 9,
} as const;

export type ConfigValueType = keyof typeof CONFIG_VALUE_TYPE_IDS;

/** The topic config definitions' type names in Kafka's ConfigType terms. */
export const TOPIC_CONFIG_VALUE_TYPES: Record<TopicConfigDefinition['type'], ConfigValueType> = {
  long: 'LONG',
  int: 'INT',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
  string: 'STRING',
  list: 'LIST',
};

/** One place a config's value could come from, most specific first (Kafka's "synonyms"). */
export interface ConfigSynonym {
  name: string;
  /** Null when the config is sensitive. */
  value: string | null;
  source: ConfigSource;
}

/** One config of a resource as DescribeConfigs reports it. */
export interface ConfigEntryDescription {
  name: string;
  /** The effective value; null when the config is sensitive, so secrets never leave the broker. */
  value: string | null;
  readOnly: boolean;
  /** True when nothing overrides the built-in default (DescribeConfigs v0's `is_default`). */
  isDefault: boolean;
  source: ConfigSource;
  isSensitive: boolean;
  /** Empty unless synonyms were asked for. */
  synonyms: ConfigSynonym[];
  type: ConfigValueType;
  /** Null unless documentation was asked for. */
  documentation: string | null;
}

/** A resource to describe; `keys` null or empty means every config (Kafka treats both so). */
export interface DescribeConfigsResource {
  /** Null for a resource type Weir does not serve. */
  type: ConfigResourceType | null;
  name: string;
  keys: string[] | null;
}

/** The outcome for one resource; `entries` is empty when `errorCode` is not 0. */
export interface ResourceConfigsDescription {
  errorCode: number;
  errorMessage: string | null;
  /** The unexpected failure behind an UNKNOWN_SERVER_ERROR, for the request context to report. */
  cause?: unknown;
  entries: ConfigEntryDescription[];
}

/** IncrementalAlterConfigs' per-config operations. */
export type ConfigOperation = 'set' | 'delete' | 'append' | 'subtract';

const CONFIG_OPERATIONS: readonly ConfigOperation[] = ['set', 'delete', 'append', 'subtract'];

/** The operation for Kafka's id (0 SET, 1 DELETE, 2 APPEND, 3 SUBTRACT), or null for another id. */
export function configOperationOf(id: number): ConfigOperation | null {
  return CONFIG_OPERATIONS[id] ?? null;
}

/** A resource to change. AlterConfigs sends every config with operation 'set'. */
export interface AlterConfigsResource {
  /** Null for a resource type Weir does not serve. */
  type: ConfigResourceType | null;
  name: string;
  configs: { name: string; value: string | null; operation: ConfigOperation | null }[];
}

/** The outcome for one altered resource. */
export interface ResourceAlterResult {
  errorCode: number;
  errorMessage: string | null;
  /** The unexpected failure behind an UNKNOWN_SERVER_ERROR, for the request context to report. */
  cause?: unknown;
}
