import { ErrorCode, WeirError } from '@weir/protocol';
import type { BrokerConfigOverrides } from '../metadata/metadata-store';
import type { AlterConfigsResource, ConfigSynonym, ConfigValueType } from './config-types';

/**
 * The broker configs that change at runtime, kept in the metadata store per broker or as the
 * cluster default (scope ""), so every broker sees a change without a restart. Only the follower's
 * replication throttle is dynamic so far: Weir throttles the fetches of replicas being added by a
 * reassignment (docs/architecture.md §6.6), which is what Kafka's follower throttle is set for.
 */
export const DYNAMIC_BROKER_CONFIGS = ['follower.replication.throttled.rate'] as const;
export type DynamicBrokerConfigName = (typeof DYNAMIC_BROKER_CONFIGS)[number];

/** What DescribeConfigs v3+ reports about each dynamic broker config. */
export const DYNAMIC_BROKER_CONFIG_FACTS: Record<
  DynamicBrokerConfigName,
  { type: ConfigValueType; documentation: string }
> = {
  'follower.replication.throttled.rate': {
    type: 'LONG',
    documentation:
      'The most bytes per second this broker fetches for replicas a reassignment is adding; unset means no limit.',
  },
};

/** Kafka's default for the throttle rates: Long.MAX_VALUE bytes/s, that is, none. */
export const UNTHROTTLED_RATE = '9223372036854775807';

export function isDynamicBrokerConfig(name: string): name is DynamicBrokerConfigName {
  return (DYNAMIC_BROKER_CONFIGS as readonly string[]).includes(name);
}

/**
 * One scope's overrides after an alteration, validated. AlterConfigs (`incremental` false)
 * replaces the scope's whole set; IncrementalAlterConfigs sets and deletes key by key. A static
 * broker config in the request is refused by name: it is set in the YAML, env or flags.
 */
export function alteredBrokerOverrides(
  current: Readonly<Record<string, string>>,
  changes: AlterConfigsResource['configs'],
  incremental: boolean,
): Record<string, string> {
  const next: Record<string, string> = incremental ? { ...current } : {};
  const seen = new Set<string>();
  for (const { name, value, operation } of changes) {
    if (seen.has(name)) {
      throw new WeirError(ErrorCode.INVALID_REQUEST, { detail: `config "${name}" is listed twice` });
    }
    seen.add(name);
    if (!isDynamicBrokerConfig(name)) {
      throw new WeirError(ErrorCode.INVALID_REQUEST, {
        detail: `cannot change "${name}" at runtime: static broker configs are set in the YAML/env/flags and need a restart (dynamic ones: ${DYNAMIC_BROKER_CONFIGS.join(', ')})`,
      });
    }
    if (operation === 'delete') {
      delete next[name];
      continue;
    }
    // Worded as Kafka words them (ConfigAdminManager, ConfigDef's LONG parser and Range validator).
    if (operation !== 'set') {
      throw new WeirError(ErrorCode.INVALID_CONFIG, {
        detail: `Config value ${operation} is not allowed for config key: ${name} (it is not a list config)`,
      });
    }
    if (value === null) {
      throw new WeirError(ErrorCode.INVALID_CONFIG, {
        detail: `Null value not supported for broker configs: ${name}`,
      });
    }
    const rate = value.trim();
    if (!/^-?\d+$/.test(rate) || BigInt(rate) > BigInt(UNTHROTTLED_RATE)) {
      throw new WeirError(ErrorCode.INVALID_CONFIG, {
        detail: `Invalid value ${value} for configuration ${name}: Not a number of type LONG (a rate in bytes per second)`,
      });
    }
    if (BigInt(rate) < 0n) {
      throw new WeirError(ErrorCode.INVALID_CONFIG, {
        detail: `Invalid value ${value} for configuration ${name}: Value must be at least 0`,
      });
    }
    next[name] = rate;
  }
  return next;
}

/**
 * A dynamic config's synonyms for one broker, most specific first: its own override, the cluster
 * default, then the built-in value.
 */
export function dynamicBrokerSynonyms(
  overrides: readonly BrokerConfigOverrides[],
  nodeId: number,
  name: DynamicBrokerConfigName,
): ConfigSynonym[] {
  const own = overrides.find((scope) => scope.scope === String(nodeId))?.configs[name];
  const clusterDefault = overrides.find((scope) => scope.scope === '')?.configs[name];
  return [
    ...(own === undefined ? [] : [{ name, value: own, source: 'DYNAMIC_BROKER_CONFIG' as const }]),
    ...(clusterDefault === undefined
      ? []
      : [{ name, value: clusterDefault, source: 'DYNAMIC_DEFAULT_BROKER_CONFIG' as const }]),
    { name, value: UNTHROTTLED_RATE, source: 'DEFAULT_CONFIG' },
  ];
}

/**
 * The follower throttle in force on `nodeId`, in bytes per second, or undefined when unthrottled
 * (no override, or Kafka's Long.MAX_VALUE). Read at each fetch, so a change applies at once.
 */
export function followerThrottleBytesPerSecond(
  overrides: readonly BrokerConfigOverrides[],
  nodeId: number,
): number | undefined {
  const value = dynamicBrokerSynonyms(overrides, nodeId, 'follower.replication.throttled.rate')[0]!.value!;
  if (value === UNTHROTTLED_RATE) return undefined;
  const rate = Number(value);
  return Number.isSafeInteger(rate) ? rate : undefined;
}
