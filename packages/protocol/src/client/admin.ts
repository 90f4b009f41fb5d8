import { ErrorCode } from '../errors/error-codes';
import { errorForCode, WeirError } from '../errors/weir-error';
import { AlterConfigs } from '../messages/apis/alter-configs';
import { CreatePartitions } from '../messages/apis/create-partitions';
import { CreateTopics } from '../messages/apis/create-topics';
import { DeleteRecords } from '../messages/apis/delete-records';
import { DeleteTopics } from '../messages/apis/delete-topics';
import { DescribeConfigs } from '../messages/apis/describe-configs';
import { IncrementalAlterConfigs } from '../messages/apis/incremental-alter-configs';
import type { ResponseOf } from '../schema/api';
import { createAcls, deleteAcls, describeAcls } from './acl/acl-admin';
import type { AclBinding, AclBindingFilter } from './acl/acl-types';
import { type AdminItemFailure, AdminItemsError, brokerError } from './admin-error';
import type {
  AdminTimeoutOptions,
  AlterConfigsRequest,
  ConfigEntry,
  ConfigOperation,
  ConfigResource,
  ConfigResourceDescription,
  ConfigResourceType,
  ConfigSource,
  DeletedRecords,
  DeleteRecordsRequest,
  DescribeConfigsRequest,
  IncrementalAlterConfigsRequest,
  NewTopic,
  PartitionCountChange,
  PartitionOffsetRange,
  TopicDescription,
  ValidateOnlyOptions,
} from './admin-types';
import type { Client, RequestTarget } from './client';
import type { ClusterMetadata } from './cluster-metadata';
import {
  deleteGroups,
  describeGroups,
  fetchGroupOffsets,
  type GroupDescription,
  type GroupListing,
  type GroupPartitionLag,
  groupLag,
  listGroups,
  type OffsetResetOptions,
  type OffsetResetTarget,
  type PlannedOffset,
  resetGroupOffsets,
} from './group/group-admin';
import type { CommittedOffset } from './group/group-offsets';
import { askPartitionLeaders, type PartitionAnswer, partitionKey } from './leader-requests';
import { listOffsets, type OffsetQuery, type PartitionOffset } from './list-offsets';
import {
  describeProducers,
  describeTransactions,
  listTransactions,
  type PartitionProducer,
  type TransactionDescription,
  type TransactionListFilters,
  type TransactionListing,
} from './transaction/transaction-admin';

/** Kafka's resource type ids (`ConfigResource.Type`). */
const RESOURCE_TYPE_IDS: Readonly<Record<ConfigResourceType, number>> = { topic: 2, broker: 4 };
/** Kafka's `ConfigSource` ids, by position. */
const CONFIG_SOURCES: readonly ConfigSource[] = [
  'unknown',
  'topic',
  'dynamic-broker',
  'dynamic-default-broker',
  'static-broker',
  'default',
  'dynamic-broker-logger',
];
const DEFAULT_CONFIG_SOURCE = 5;
/** IncrementalAlterConfigs operation ids. */
const CONFIG_OPERATION_IDS: Readonly<Record<ConfigOperation, number>> = {
  set: 0,
  delete: 1,
  append: 2,
  subtract: 3,
};

/** An answer about one named item (topic) of a controller request. */
interface NamedAnswer {
  readonly name: string;
  readonly errorCode: number;
  readonly errorMessage?: string | null;
}

/** An answer about one config resource. */
interface ResourceAnswer {
  readonly errorCode: number;
  readonly errorMessage: string | null;
  readonly resourceType: number;
  readonly resourceName: string;
}

type DescribedResource = ResponseOf<typeof DescribeConfigs>['results'][number];

/**
 * Cluster administration: topics, partitions, offsets, records and configurations, as the console
 * and the CLI need them. Requests are routed where Kafka wants them (topic changes to the
 * controller, offsets and record deletion to partition leaders, broker configs to that broker) and
 * retried like every client request.
 *
 * Operations over several items throw an {@link AdminItemsError} when any item fails: a
 * {@link WeirError} with the first failure's code plus every item's own error. Items not listed in
 * it succeeded. The admin does not own the client.
 */
export class Admin {
  readonly #client: Client;

  constructor(client: Client) {
    this.#client = client;
  }

  /** The brokers, the controller and the cluster id. */
  async describeCluster(): Promise<ClusterMetadata> {
    return (await this.#client.refreshMetadata([])).cluster;
  }

  /** Topic names, sorted. Internal topics only with `includeInternal`. */
  async listTopics(options: { includeInternal?: boolean } = {}): Promise<string[]> {
    const snapshot = await this.#client.refreshMetadata(null);
    return snapshot.topics
      .filter((topic) => topic.errorCode === ErrorCode.NONE && (options.includeInternal || !topic.isInternal))
      .map((topic) => topic.name)
      .sort();
  }

  /** Partitions with leader, replicas and in-sync replicas, per topic, in the order asked. */
  async describeTopics(names: readonly string[]): Promise<TopicDescription[]> {
    unique('describeTopics', names);
    const snapshot = await this.#client.refreshMetadata(names);
    const failures: AdminItemFailure[] = [];
    const descriptions: TopicDescription[] = [];
    for (const name of names) {
      const topic = snapshot.topics.find((candidate) => candidate.name === name);
      const code = topic === undefined ? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION : topic.errorCode;
      if (topic === undefined || code !== ErrorCode.NONE) {
        failures.push({ item: name, error: errorForCode(code, `Topic "${name}".`) });
        continue;
      }
      descriptions.push({ name: topic.name, isInternal: topic.isInternal, partitions: topic.partitions });
    }
    if (failures.length > 0) throw new AdminItemsError('describeTopics', failures, names.length);
    return descriptions;
  }

  /** Creates topics at the controller. */
  async createTopics(
    topics: readonly NewTopic[],
    options: ValidateOnlyOptions & AdminTimeoutOptions = {},
  ): Promise<void> {
    await this.#controllerItems('createTopics', topics, async (open) => {
      const response = await this.#client.send('controller', CreateTopics, {
        topics: open.map((topic) => ({
          name: topic.name,
          // -1 asks for the broker's default (CreateTopics v4+), as the Java admin client does.
          numPartitions: topic.partitions ?? -1,
          replicationFactor: topic.replicationFactor ?? -1,
          assignments: [],
          configs: Object.entries(topic.configs ?? {}).map(([name, value]) => ({ name, value })),
        })),
        timeoutMs: options.timeoutMs ?? this.#client.requestTimeoutMs,
        validateOnly: options.validateOnly ?? false,
      });
      return response.topics;
    });
  }

  /** Deletes topics at the controller. */
  async deleteTopics(names: readonly string[], options: AdminTimeoutOptions = {}): Promise<void> {
    await this.#controllerItems(
      'deleteTopics',
      names.map((name) => ({ name })),
      async (open) => {
        const response = await this.#client.send('controller', DeleteTopics, {
          topicNames: open.map((topic) => topic.name),
          timeoutMs: options.timeoutMs ?? this.#client.requestTimeoutMs,
        });
        return response.responses;
      },
    );
  }

  /** Raises topics' partition counts at the controller. */
  async createPartitions(
    changes: readonly PartitionCountChange[],
    options: ValidateOnlyOptions & AdminTimeoutOptions = {},
  ): Promise<void> {
    await this.#controllerItems(
      'createPartitions',
      changes.map((change) => ({ name: change.topic, count: change.count })),
      async (open) => {
        const response = await this.#client.send('controller', CreatePartitions, {
          topics: open.map((change) => ({ name: change.name, count: change.count, assignments: null })),
          timeoutMs: options.timeoutMs ?? this.#client.requestTimeoutMs,
          validateOnly: options.validateOnly ?? false,
        });
        return response.results;
      },
    );
  }

  /** Earliest, latest or by-time offsets, in the order asked; each partition at most once per call. */
  async listOffsets(queries: readonly OffsetQuery[]): Promise<PartitionOffset[]> {
    unique(
      'listOffsets',
      queries.map((query) => `${query.topic}-${query.partition}`),
    );
    const results = await listOffsets(this.#client, queries);
    return collect('listOffsets', queries, results);
  }

  /** The earliest and latest offset of every partition of a topic. */
  async topicOffsets(topic: string): Promise<PartitionOffsetRange[]> {
    const metadata = (await this.#client.retry(() => this.#client.topicsMetadata([topic]))).get(topic);
    if (metadata === undefined || metadata.errorCode !== ErrorCode.NONE) {
      throw errorForCode(metadata?.errorCode ?? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `Topic "${topic}".`);
    }
    const partitions = metadata.partitions.map((partition) => partition.partition);
    const [earliest, latest] = await Promise.all(
      (['earliest', 'latest'] as const).map((spec) =>
        this.listOffsets(partitions.map((partition) => ({ topic, partition, spec }))),
      ),
    );
    return partitions.map((partition, index) => ({
      partition,
      earliest: earliest![index]!.offset,
      latest: latest![index]!.offset,
    }));
  }

  /** Deletes records below offsets (moves the log start), at each partition's leader. */
  async deleteRecords(
    requests: readonly DeleteRecordsRequest[],
    options: AdminTimeoutOptions = {},
  ): Promise<DeletedRecords[]> {
    unique(
      'deleteRecords',
      requests.map((request) => `${request.topic}-${request.partition}`),
    );
    const results = await askPartitionLeaders<DeleteRecordsRequest, DeletedRecords>(
      this.#client,
      requests,
      async (leaderId, list) => {
        const topics = new Map<string, { partitionIndex: number; offset: bigint }[]>();
        for (const request of list) {
          const partitions = topics.get(request.topic) ?? [];
          partitions.push({ partitionIndex: request.partition, offset: request.beforeOffset });
          topics.set(request.topic, partitions);
        }
        const response = await this.#client.send(leaderId, DeleteRecords, {
          topics: [...topics].map(([name, partitions]) => ({ name, partitions })),
          timeoutMs: options.timeoutMs ?? this.#client.requestTimeoutMs,
        });
        const answers = new Map<string, PartitionAnswer<DeletedRecords>>();
        for (const topic of response.topics) {
          for (const partition of topic.partitions) {
            answers.set(
              partitionKey(topic.name, partition.partitionIndex),
              partition.errorCode === 0
                ? {
                    errorCode: 0,
                    value: {
                      topic: topic.name,
                      partition: partition.partitionIndex,
                      lowWatermark: partition.lowWatermark,
                    },
                  }
                : { errorCode: partition.errorCode },
            );
          }
        }
        return answers;
      },
    );
    return collect('deleteRecords', requests, results);
  }

  /** Configurations of topics and brokers, in the order asked. */
  async describeConfigs(
    resources: readonly DescribeConfigsRequest[],
    options: { includeSynonyms?: boolean } = {},
  ): Promise<ConfigResourceDescription[]> {
    const answers = await this.#perResource('describeConfigs', resources, async (target, group) => {
      const response = await this.#client.send(target, DescribeConfigs, {
        resources: group.map((resource) => ({
          resourceType: RESOURCE_TYPE_IDS[resource.type],
          resourceName: resource.name,
          configurationKeys: resource.keys === undefined ? null : [...resource.keys],
        })),
        includeSynonyms: options.includeSynonyms ?? false,
      });
      return response.results;
    });
    return resources.map((resource) => {
      const answer = answers.get(resourceKey(resource)) as DescribedResource;
      return { type: resource.type, name: resource.name, configs: answer.configs.map(configEntry) };
    });
  }

  /** Replaces resources' whole configurations (keys left out return to their defaults). */
  async alterConfigs(
    resources: readonly AlterConfigsRequest[],
    options: ValidateOnlyOptions = {},
  ): Promise<void> {
    await this.#perResource('alterConfigs', resources, async (target, group) => {
      const response = await this.#client.send(target, AlterConfigs, {
        resources: group.map((resource) => ({
          resourceType: RESOURCE_TYPE_IDS[resource.type],
          resourceName: resource.name,
          configs: Object.entries(resource.configs).map(([name, value]) => ({ name, value })),
        })),
        validateOnly: options.validateOnly ?? false,
      });
      return response.responses;
    });
    this.#forgetTopics(resources);
  }

  /** Sets, deletes, appends to or subtracts from single configuration keys. */
  async incrementalAlterConfigs(
    resources: readonly IncrementalAlterConfigsRequest[],
    options: ValidateOnlyOptions = {},
  ): Promise<void> {
    await this.#perResource('incrementalAlterConfigs', resources, async (target, group) => {
      const response = await this.#client.send(target, IncrementalAlterConfigs, {
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
    this.#forgetTopics(resources);
  }

  /**
   * Sends items to the controller, retrying those that fail retriably (NOT_CONTROLLER after a
   * controller move, …) and collecting the others' errors.
   */
  async #controllerItems<T extends { readonly name: string }>(
    operation: string,
    items: readonly T[],
    send: (open: readonly T[]) => Promise<readonly NamedAnswer[]>,
  ): Promise<void> {
    unique(
      operation,
      items.map((item) => item.name),
    );
    if (items.length === 0) return;
    const failures: AdminItemFailure[] = [];
    let open: readonly T[] = items;
    try {
      await this.#client.retry(async () => {
        const answers = await send(open);
        const again: T[] = [];
        let retryWith: WeirError | undefined;
        for (const item of open) {
          const answer = answers.find((candidate) => candidate.name === item.name);
          if (answer === undefined) {
            failures.push({ item: item.name, error: missingAnswer(item.name) });
          } else if (answer.errorCode !== ErrorCode.NONE) {
            const error = brokerError(answer.errorCode, answer.errorMessage, `Topic "${item.name}".`);
            if (error.retriable) {
              again.push(item);
              retryWith = error;
            } else {
              failures.push({ item: item.name, error });
            }
          }
        }
        open = again;
        if (retryWith !== undefined) throw retryWith;
      });
    } catch (error) {
      // A failure of the whole request, before any item was answered, is thrown as it is.
      if (!(error instanceof WeirError) || (open === items && failures.length === 0)) throw error;
      for (const item of open) failures.push({ item: item.name, error });
    } finally {
      for (const item of items) this.#client.invalidateMetadata(item.name);
    }
    if (failures.length > 0) throw new AdminItemsError(operation, failures, items.length);
  }

  /**
   * Sends config requests: broker resources to that broker (Kafka requires it), topic resources and
   * the cluster-wide broker default to any broker. Returns each resource's answer; throws an
   * {@link AdminItemsError} if any resource failed.
   */
  async #perResource<R extends ConfigResource, A extends ResourceAnswer>(
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
        const results = await this.#client.retry(() => send(target, group));
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

  // ---- consumer groups (implemented in ./group/group-admin.ts) ----

  /** Every group of every broker, sorted by id. */
  listGroups(): Promise<GroupListing[]> {
    return listGroups(this.#client);
  }

  /** State, assignor and members (subscriptions and assignments decoded) of groups, in the order asked. */
  describeGroups(groupIds: readonly string[]): Promise<GroupDescription[]> {
    return describeGroups(this.#client, groupIds);
  }

  /** A group's committed offsets, sorted by topic and partition. */
  fetchOffsets(groupId: string): Promise<CommittedOffset[]> {
    return fetchGroupOffsets(this.#client, groupId);
  }

  /** Per committed partition: committed offset, log end offset and lag. */
  groupLag(groupId: string): Promise<GroupPartitionLag[]> {
    return groupLag(this.#client, groupId);
  }

  /** Moves an empty group's positions; with `dryRun` only returns the plan. */
  resetOffsets(
    groupId: string,
    target: OffsetResetTarget,
    options: OffsetResetOptions = {},
  ): Promise<PlannedOffset[]> {
    return resetGroupOffsets(this.#client, groupId, target, options);
  }

  /** Deletes empty groups and their committed offsets. */
  deleteGroups(groupIds: readonly string[]): Promise<void> {
    return deleteGroups(this.#client, groupIds);
  }

  /** Transactional ids the coordinators know (KIP-664 ListTransactions). */
  listTransactions(filters?: TransactionListFilters): Promise<TransactionListing[]> {
    return listTransactions(this.#client, filters);
  }

  /** The coordinator's state of each transactional id. */
  describeTransactions(transactionalIds: readonly string[]): Promise<TransactionDescription[]> {
    return describeTransactions(this.#client, transactionalIds);
  }

  /** Producers with state on a topic's partitions: last sequence, open transaction's first offset. */
  describeProducers(topic: string, partitions?: readonly number[]): Promise<PartitionProducer[]> {
    return describeProducers(this.#client, topic, partitions);
  }

  /** Creates ACLs; an existing one is left as it is. Needs ALTER on the cluster. */
  createAcls(bindings: readonly AclBinding[]): Promise<void> {
    return createAcls(this.#client, bindings);
  }

  /** The ACLs a filter selects (`MATCH_ALL_ACLS` for every one). Needs DESCRIBE on the cluster. */
  describeAcls(filter: AclBindingFilter): Promise<AclBinding[]> {
    return describeAcls(this.#client, filter);
  }

  /** Deletes the ACLs the filters select; per filter, what it deleted. Needs ALTER on the cluster. */
  deleteAcls(filters: readonly AclBindingFilter[]): Promise<AclBinding[][]> {
    return deleteAcls(this.#client, filters);
  }

  #forgetTopics(resources: readonly ConfigResource[]): void {
    for (const resource of resources)
      if (resource.type === 'topic') this.#client.invalidateMetadata(resource.name);
  }
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
  };
}

/** The value of every item in order, or an AdminItemsError naming the failed ones. */
function collect<T>(
  operation: string,
  items: readonly { readonly topic: string; readonly partition: number }[],
  results: Map<string, T | WeirError>,
): T[] {
  const values: T[] = [];
  const failures: AdminItemFailure[] = [];
  for (const item of items) {
    const name = `${item.topic}-${item.partition}`;
    const result = results.get(partitionKey(item.topic, item.partition));
    if (result === undefined) failures.push({ item: name, error: missingAnswer(name) });
    else if (result instanceof WeirError) failures.push({ item: name, error: result });
    else values.push(result);
  }
  if (failures.length > 0) throw new AdminItemsError(operation, failures, items.length);
  return values;
}

function missingAnswer(item: string): WeirError {
  return new WeirError(ErrorCode.UNKNOWN_SERVER_ERROR, {
    detail: `the broker's answer does not mention ${item}.`,
  });
}

function unique(operation: string, names: readonly string[]): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new RangeError(`${operation}: ${name} is listed twice`);
    seen.add(name);
  }
}
