import { ErrorCode } from '../errors/error-codes';
import { createAcls, deleteAcls, describeAcls } from './acl/acl-admin';
import type { AclBinding, AclBindingFilter } from './acl/acl-types';
import type {
  AdminTimeoutOptions,
  AlterConfigsRequest,
  ConfigResourceDescription,
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
import type { Client } from './client';
import type { ClusterMetadata } from './cluster-metadata';
import { alterConfigs, describeConfigs, incrementalAlterConfigs } from './config-admin';
import { type ElectLeadersRequest, electLeaders, type PartitionElectionResult } from './election-admin';
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
import type { OffsetQuery, PartitionOffset } from './list-offsets';
import { describeLogDirs, type LogDirDescription, type LogDirTopicFilter } from './log-dirs-admin';
import {
  alterClientQuotas,
  type ClientQuotaAlteration,
  type ClientQuotaEntry,
  type ClientQuotaFilterComponent,
  describeClientQuotas,
} from './quota-admin';
import { deleteRecords, listPartitionOffsets, topicOffsets } from './record-admin';
import { createPartitions, createTopics, deleteTopics, describeTopics } from './topic-admin';
import {
  describeProducers,
  describeTransactions,
  listTransactions,
  type PartitionProducer,
  type TransactionDescription,
  type TransactionListFilters,
  type TransactionListing,
} from './transaction/transaction-admin';

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

  // ---- topics, offsets and records (implemented in ./topic-admin.ts and ./record-admin.ts) ----

  /** Partitions with leader, replicas and in-sync replicas, per topic, in the order asked. */
  describeTopics(names: readonly string[]): Promise<TopicDescription[]> {
    return describeTopics(this.#client, names);
  }

  /** Creates topics at the controller. */
  createTopics(
    topics: readonly NewTopic[],
    options: ValidateOnlyOptions & AdminTimeoutOptions = {},
  ): Promise<void> {
    return createTopics(this.#client, topics, options);
  }

  /** Deletes topics at the controller. */
  deleteTopics(names: readonly string[], options: AdminTimeoutOptions = {}): Promise<void> {
    return deleteTopics(this.#client, names, options);
  }

  /** Raises topics' partition counts at the controller. */
  createPartitions(
    changes: readonly PartitionCountChange[],
    options: ValidateOnlyOptions & AdminTimeoutOptions = {},
  ): Promise<void> {
    return createPartitions(this.#client, changes, options);
  }

  /** Earliest, latest or by-time offsets, in the order asked; each partition at most once per call. */
  listOffsets(queries: readonly OffsetQuery[]): Promise<PartitionOffset[]> {
    return listPartitionOffsets(this.#client, queries);
  }

  /**
   * The earliest and latest offset of every partition of a topic; `read_committed` makes the latest
   * the last stable offset.
   */
  topicOffsets(
    topic: string,
    isolation: 'read_committed' | 'read_uncommitted' = 'read_uncommitted',
  ): Promise<PartitionOffsetRange[]> {
    return topicOffsets(this.#client, topic, isolation);
  }

  /** Deletes records below offsets (moves the log start), at each partition's leader. */
  deleteRecords(
    requests: readonly DeleteRecordsRequest[],
    options: AdminTimeoutOptions = {},
  ): Promise<DeletedRecords[]> {
    return deleteRecords(this.#client, requests, options);
  }

  // ---- configurations (implemented in ./config-admin.ts) ----

  /**
   * Configurations of topics and brokers, in the order asked. `includeSynonyms` adds the values
   * each one overrides; `includeDocumentation` adds what each config is for.
   */
  describeConfigs(
    resources: readonly DescribeConfigsRequest[],
    options: { includeSynonyms?: boolean; includeDocumentation?: boolean } = {},
  ): Promise<ConfigResourceDescription[]> {
    return describeConfigs(this.#client, resources, options);
  }

  /** Replaces resources' whole configurations (keys left out return to their defaults). */
  alterConfigs(resources: readonly AlterConfigsRequest[], options: ValidateOnlyOptions = {}): Promise<void> {
    return alterConfigs(this.#client, resources, options);
  }

  /** Sets, deletes, appends to or subtracts from single configuration keys. */
  incrementalAlterConfigs(
    resources: readonly IncrementalAlterConfigsRequest[],
    options: ValidateOnlyOptions = {},
  ): Promise<void> {
    return incrementalAlterConfigs(this.#client, resources, options);
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

  /**
   * The log directories of a broker (every broker when `brokerId` is absent) with each partition
   * replica's size and lag, optionally only the partitions `options.topics` names. Needs DESCRIBE
   * on the cluster.
   */
  describeLogDirs(
    brokerId?: number,
    options: { topics?: LogDirTopicFilter } = {},
  ): Promise<LogDirDescription[]> {
    return describeLogDirs(this.#client, brokerId, options.topics);
  }

  /**
   * Preferred or unclean leader elections (Kafka's ElectLeaders) for the partitions named, or every
   * partition; one result per partition, sorted, with its own error code (ELECTION_NOT_NEEDED for a
   * partition already led by the replica the election would choose). Needs ALTER on the cluster.
   */
  electLeaders(request: ElectLeadersRequest): Promise<PartitionElectionResult[]> {
    return electLeaders(this.#client, request);
  }

  /** Creates ACLs; an existing one is left as it is. Needs ALTER on the cluster. */
  createAcls(bindings: readonly AclBinding[]): Promise<void> {
    return createAcls(this.#client, bindings);
  }

  /** The ACLs a filter selects (`MATCH_ALL_ACLS` for every one). Needs DESCRIBE on the cluster. */
  describeAcls(filter: AclBindingFilter): Promise<AclBinding[]> {
    return describeAcls(this.#client, filter);
  }

  // ---- client quotas (implemented in ./quota-admin.ts) ----

  /** The quotas a filter selects (every quota for an empty filter); `strict`: exactly its entity types. */
  describeClientQuotas(
    components: readonly ClientQuotaFilterComponent[] = [],
    options: { strict?: boolean } = {},
  ): Promise<ClientQuotaEntry[]> {
    return describeClientQuotas(this.#client, components, options);
  }

  /** Sets and removes client quotas, per entity. */
  alterClientQuotas(
    alterations: readonly ClientQuotaAlteration[],
    options: { validateOnly?: boolean } = {},
  ): Promise<void> {
    return alterClientQuotas(this.#client, alterations, options);
  }

  /** Deletes the ACLs the filters select; per filter, what it deleted. Needs ALTER on the cluster. */
  deleteAcls(filters: readonly AclBindingFilter[]): Promise<AclBinding[][]> {
    return deleteAcls(this.#client, filters);
  }
}
