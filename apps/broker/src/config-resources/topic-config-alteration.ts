import { ErrorCode, WeirError } from '@weir/protocol';
import type { BrokerConfig } from '../config/broker-config';
import {
  topicConfigDefinition,
  topicConfigsProblem,
  unknownTopicConfigMessage,
} from '../topics/topic-configs';
import type { AlterConfigsResource } from './config-types';

type ConfigChange = AlterConfigsResource['configs'][number];

/**
 * The override set a topic ends with after an alteration, validated; throws a {@link WeirError}
 * (INVALID_REQUEST for a malformed request, INVALID_CONFIG for a config problem) otherwise.
 *
 * AlterConfigs (`incremental` false) replaces the whole set, so configs it does not list go back
 * to their defaults, as in Kafka. IncrementalAlterConfigs edits the current set key by key.
 */
export function alteredTopicOverrides(
  current: Readonly<Record<string, string>>,
  changes: readonly ConfigChange[],
  options: { incremental: boolean; broker: BrokerConfig },
): Record<string, string> {
  checkNoDuplicates(changes);
  const next: Record<string, string | null> = options.incremental ? { ...current } : {};
  for (const change of changes) applyChange(next, change, options);
  const problem = topicConfigsProblem(next);
  if (problem) throw new WeirError(ErrorCode.INVALID_CONFIG, { detail: problem });
  // topicConfigsProblem refuses null values, so every value is a string here.
  return next as Record<string, string>;
}

function checkNoDuplicates(changes: readonly ConfigChange[]): void {
  const seen = new Set<string>();
  for (const change of changes) {
    // Kafka refuses duplicates too: which of two values wins would depend on the broker.
    if (seen.has(change.name)) {
      throw new WeirError(ErrorCode.INVALID_REQUEST, { detail: `config "${change.name}" is listed twice` });
    }
    seen.add(change.name);
  }
}

function applyChange(
  next: Record<string, string | null>,
  change: ConfigChange,
  options: { incremental: boolean; broker: BrokerConfig },
): void {
  const { name, value, operation } = change;
  if (operation === null || (!options.incremental && operation !== 'set')) {
    throw new WeirError(ErrorCode.INVALID_REQUEST, { detail: `config "${name}" has an unknown operation` });
  }
  const definition = topicConfigDefinition(name);
  // Refused for every operation, DELETE included, so a typo never silently does nothing.
  if (!definition) throw new WeirError(ErrorCode.INVALID_CONFIG, { detail: unknownTopicConfigMessage(name) });
  if (operation === 'delete') {
    delete next[name];
    return;
  }
  if (operation === 'set') {
    next[name] = value;
    return;
  }
  // Kafka's words for both (ConfigAdminManager), with the operation named.
  if (definition.type !== 'list') {
    throw new WeirError(ErrorCode.INVALID_CONFIG, {
      detail: `Config value ${operation} is not allowed for config key: ${name} (it is not a list config)`,
    });
  }
  if (value === null) {
    throw new WeirError(ErrorCode.INVALID_CONFIG, {
      detail: `Null value not supported for topic configs: ${name}`,
    });
  }
  // Like Kafka, APPEND and SUBTRACT start from the default when the topic has no override.
  const items = listItems(next[name] ?? definition.defaultValue(options.broker));
  const changed = listItems(value);
  const result =
    operation === 'append'
      ? [...items, ...changed.filter((item) => !items.includes(item))]
      : items.filter((item) => !changed.includes(item));
  next[name] = result.join(',');
}

function listItems(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}
