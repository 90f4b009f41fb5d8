import { ErrorCode } from '../errors/error-codes';
import { AlterConfigs } from '../messages/apis/alter-configs';
import { DescribeConfigs } from '../messages/apis/describe-configs';
import { IncrementalAlterConfigs } from '../messages/apis/incremental-alter-configs';
import type { ResponseOf } from '../schema/api';
import { type AdminItemFailure, AdminItemsError, brokerError } from './admin-error';
import { missingAnswer, unique } from './admin-items';
import {
  type AlterConfigsRequest,
  CONFIG_SOURCES,
  CONFIG_VALUE_TYPES,
  type ConfigEntry,
  type ConfigOperation,
  type ConfigResource,
  type ConfigResourceDescription,
  type ConfigResourceType,
  type DescribeConfigsRequest,
  type IncrementalAlterConfigsRequest,
  type ValidateOnlyOptions,
} from './admin-types';
import type { Client, RequestTarget } from './client';

/** Kafka's resource type ids (`ConfigResource.Type`). */
const RESOURCE_TYPE_IDS: Readonly<Record<ConfigResourceType, number>> = { topic: 2, broker: 4 };
const DEFAULT_CONFIG_SOURCE = 5;
/** IncrementalAlterConfigs operation ids. */
const CONFIG_OPERATION_IDS: Readonly<Record<ConfigOperation, number>> = {
  set: 0,
  delete: 1,
  append: 2,
  subtract: 3,
};

/** An answer about one config resource. */
interface ResourceAnswer {
  readonly errorCode: number;
  readonly errorMessage: string | null;
  readonly resourceType: number;
  readonly resourceName: string;
}

type DescribedResource = ResponseOf<typeof DescribeConfigs>['results'][number];

/** Configurations of topics and brokers, in the order asked. */
export async function describeConfigs(
  client: Client,
  resources: readonly DescribeConfigsRequest[],
  options: { includeSynonyms?: boolean; includeDocumentation?: boolean },
): Promise<ConfigResourceDescription[]> {
  const answers = await perResource(client, 'describeConfigs', resources, async (target, group) => {
    const response = await client.send(target, DescribeConfigs, {
      resources: group.map((resource) => ({
        resourceType: RESOURCE_TYPE_IDS[resource.type],
        resourceName: resource.name,
        configurationKeys: resource.keys === undefined ? null : [...resource.keys],
      })),
      includeSynonyms: options.includeSynonyms ?? false,
      includeDocumentation: options.includeDocumentation ?? false,
    });
    return response.results;
  });
  return resources.map((resource) => {
    const answer = answers.get(resourceKey(resource)) as DescribedResource;
    return { type: resource.type, name: resource.name, configs: answer.configs.map(configEntry) };
  });
}

/** Replaces resources' whole configurations (keys left out return to their defaults). */
export async function alterConfigs(
  client: Client,
  resources: readonly AlterConfigsRequest[],
  options: ValidateOnlyOptions,
): Promise<void> {
  await perResource(client, 'alterConfigs', resources, async (target, group) => {
    const response = await client.send(target, AlterConfigs, {
      resources: group.map((resource) => ({
        resourceType: RESOURCE_TYPE_IDS[resource.type],
        resourceName: resource.name,
        configs: Object.entries(resource.configs).map(([name, value]) => ({ name, value })),
      })),
      validateOnly: options.validateOnly ?? false,
    });
    return response.responses;
  });
  forgetTopics(client, resources);
}

/** Sets, deletes, appends to or subtracts from single configuration keys. */
export async function incrementalAlterConfigs(
  client: Client,
  resources: readonly IncrementalAlterConfigsRequest[],
  options: ValidateOnlyOptions,
): Promise<void> {
  await perResource(client, 'incrementalAlterConfigs', resources, async (target, group) => {
    const response = await client.send(target, IncrementalAlterConfigs, {
      resources: group.map((resource) => ({
        resourceType: RESOURCE_TYPE_IDS[resource.type],
        resourceName: resource.name,
        configs: resource.changes.map((change) => {
          if (change.operation !== 'delete' && (change.value === undefined || change.value === null)) {
            throw new RangeError(`${resource.name}: "${change.operation}" of ${change.name} needs a value`);
          }
          return {
            name: change.name,
            configOperation: CONFIG_OPERATION_IDS[change.operation],
            value: change.value ?? null,
          };
        }),
      })),
      validateOnly: options.validateOnly ?? false,
    });
    return response.responses;
  });
  forgetTopics(client, resources);
}

/**
 * Sends config requests: broker resources to that broker (Kafka requires it), topic resources and
 * the cluster-wide broker default to any broker. Returns each resource's answer; throws an
 * {@link AdminItemsError} if any resource failed.
 */
async function perResource<R extends ConfigResource, A extends ResourceAnswer>(
  client: Client,
  operation: string,
  resources: readonly R[],
  send: (target: RequestTarget, group: readonly R[]) => Promise<readonly A[]>,
): Promise<Map<string, A>> {
  unique(operation, resources.map(resourceKey));
  const groups = new Map<RequestTarget, R[]>();
  for (const resource of resources) {
    const target = targetOf(resource);
    const group = groups.get(target) ?? [];
    group.push(resource);
    groups.set(target, group);
  }
  const answers = new Map<string, A>();
  const failures: AdminItemFailure[] = [];
  await Promise.all(
    [...groups].map(async ([target, group]) => {
      const results = await client.retry(() => send(target, group));
      for (const resource of group) {
        const key = resourceKey(resource);
        const answer = results.find(
          (candidate) =>
            candidate.resourceType === RESOURCE_TYPE_IDS[resource.type] &&
            candidate.resourceName === resource.name,
        );
        if (answer === undefined) failures.push({ item: key, error: missingAnswer(key) });
        else if (answer.errorCode !== ErrorCode.NONE) {
          failures.push({
            item: key,
            error: brokerError(answer.errorCode, answer.errorMessage, `${key}.`),
          });
        } else answers.set(key, answer);
      }
    }),
  );
  if (failures.length > 0) throw new AdminItemsError(operation, failures, resources.length);
  return answers;
}

/** Drops the cached metadata of the topics among `resources`, as every topic change does. */
function forgetTopics(client: Client, resources: readonly ConfigResource[]): void {
  for (const resource of resources) if (resource.type === 'topic') client.invalidateMetadata(resource.name);
}

function targetOf(resource: ConfigResource): RequestTarget {
  if (resource.type !== 'broker' || resource.name === '') return 'any';
  const nodeId = Number(resource.name);
  if (!Number.isInteger(nodeId) || nodeId < 0) {
    throw new RangeError(`a broker resource is named by its node id, got "${resource.name}"`);
  }
  return nodeId;
}

function resourceKey(resource: ConfigResource): string {
  return `${resource.type}:${resource.name}`;
}

function configEntry(entry: DescribedResource['configs'][number]): ConfigEntry {
  // v0 reports isDefault; v1+ reports the source instead (and decodes isDefault as false).
  const source =
    entry.configSource >= 0
      ? (CONFIG_SOURCES[entry.configSource] ?? 'unknown')
      : entry.isDefault
        ? 'default'
        : 'unknown';
  return {
    name: entry.name,
    value: entry.value,
    readOnly: entry.readOnly,
    isDefault: entry.isDefault || entry.configSource === DEFAULT_CONFIG_SOURCE,
    isSensitive: entry.isSensitive,
    source,
    synonyms: entry.synonyms.map((synonym) => ({
      name: synonym.name,
      value: synonym.value,
      source: CONFIG_SOURCES[synonym.source] ?? 'unknown',
    })),
    type: CONFIG_VALUE_TYPES[entry.configType] ?? 'unknown',
    documentation: entry.documentation,
  };
}
