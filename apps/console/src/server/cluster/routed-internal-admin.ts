import {
  type AuditEventPage,
  type AuditEventQuery,
  type Client,
  type ClusterEventQuery,
  ErrorCode,
  FindCoordinator,
  type GroupLagSummary,
  type GroupPartitionLagRow,
  type InternalAdminApi,
  type LogCleanerPartitionState,
  mergeAuditPages,
  type PartitionInternals,
  type PartitionMove,
  type ScanRecordsRequest,
  type ScanRecordsResult,
  type TopicListPage,
  type TopicListQuery,
  type TopicMetadata,
  type TopicSummary,
  WeirDescribePartitions,
  WeirError,
} from '@weir/protocol';
import { asKafkaError } from '../api/error-shapes';
import type { BrokerReachability } from './broker-reachability';
import { mergeLagHistories, mergeThroughputHistories } from './routed-history';

/** What the routed admin talks through: the cluster-wide client and one client per broker. */
export interface ClusterRouting {
  /** Knows every internal listener; its metadata names the leaders and the brokers. */
  readonly client: Client;
  /** The internal admin on {@link client}: requests to any live broker. */
  readonly any: InternalAdminApi;
  /** A client and internal admin that only ever talk to one broker's internal listener. */
  node(broker: { nodeId: number; host: string; port: number }): {
    client: Client;
    internal: InternalAdminApi;
  };
  readonly reachability: BrokerReachability;
}

/** FindCoordinator's key type for transactional ids. */
const TRANSACTION_KEY_TYPE = 1;

/** The largest page the broker serves (MAX_TOPIC_PAGE_ROWS); merging pulls the catalogue in such pages. */
const SUMMARY_PAGE_ROWS = 1000;

/** Codes that say the broker did not answer at all (as opposed to answering with an error). */
const UNANSWERED_CODES: ReadonlySet<number> = new Set([
  ErrorCode.NETWORK_EXCEPTION,
  ErrorCode.REQUEST_TIMED_OUT,
  ErrorCode.BROKER_NOT_AVAILABLE,
]);

/** Whether the broker did not answer: no Kafka code, or one of {@link UNANSWERED_CODES}. */
function unanswered(error: unknown): boolean {
  const coded = asKafkaError(error);
  return coded === null || UNANSWERED_CODES.has(coded.originalCode);
}

/**
 * The gateway's Weir-only calls on a cluster (docs/architecture.md §8). Each broker's operator
 * views answer only for the partitions it leads and the groups it coordinates, so per-partition
 * work goes to each partition's leader (from the cluster metadata, whose brokers on the internal
 * listener are advertised with their internal endpoints) and cluster-wide answers are merged over
 * every live broker. A broker that did not answer is skipped for a while ({@link
 * BrokerReachability}); its partitions are shown as the metadata describes them, without offsets.
 * With one broker in the metadata (standalone) every call goes straight to it, as before.
 */
export class RoutedInternalAdmin implements InternalAdminApi {
  readonly #routing: ClusterRouting;

  constructor(routing: ClusterRouting) {
    this.#routing = routing;
  }

  describeBroker() {
    return this.#routing.any.describeBroker();
  }

  /** Any broker answers: the timeline is read from the cluster's metadata store, not a broker's memory. */
  listClusterEvents(query: ClusterEventQuery) {
    return this.#routing.any.listClusterEvents(query);
  }

  /** Each broker keeps the actions it handled: every live broker's page is merged into one. */
  async listAuditEvents(query: AuditEventQuery): Promise<AuditEventPage> {
    return mergeAuditPages(
      await this.#everyLiveBroker((internal) => internal.listAuditEvents(query)),
      query.limit,
    );
  }

  /** Every live broker answers for the groups it coordinated; their histories are merged (routed-history.ts). */
  async describeLagHistory(
    groupIds: readonly string[],
    options: { sinceMs: number; includePartitions?: boolean },
  ) {
    return mergeLagHistories(
      await this.#everyLiveBroker((internal) => internal.describeLagHistory(groupIds, options)),
    );
  }

  /** Every live broker answers for the partitions it leads; their histories are summed (routed-history.ts). */
  async describeThroughputHistory(topics: readonly string[], options: { sinceMs: number }) {
    return mergeThroughputHistories(
      await this.#everyLiveBroker((internal) => internal.describeThroughputHistory(topics, options)),
    );
  }

  /** Any broker answers, for the partitions it leads; the ISR page asks each broker itself. */
  describeReplication(topics?: readonly string[]) {
    return this.#routing.any.describeReplication(topics);
  }

  /**
   * Each broker cleans its own replicas, so every live broker holding a replica of the topics (of
   * any topic, without topics) is asked and the rows of all replicas merged, by topic, partition
   * and broker. A broker that did not answer is left out; when none answered, its failure is thrown.
   */
  async describeLogCleaner(topics?: readonly string[]): Promise<LogCleanerPartitionState[]> {
    const brokers = await this.#liveBrokers();
    if (brokers === undefined) return this.#routing.any.describeLogCleaner(topics);
    let holders = brokers;
    if (topics !== undefined) {
      const snapshot = await this.#routing.client.refreshMetadata([...topics]);
      const replicaNodes = new Set(
        snapshot.topics.flatMap((topic) => topic.partitions.flatMap((partition) => partition.replicaNodes)),
      );
      holders = brokers.filter((nodeId) => replicaNodes.has(nodeId));
      // An unknown topic has no replicas: the plain call names the error.
      if (holders.length === 0) return this.#routing.any.describeLogCleaner(topics);
    }
    const rows: LogCleanerPartitionState[] = [];
    let answered = false;
    let failure: unknown;
    await Promise.all(
      holders.map(async (nodeId) => {
        try {
          rows.push(...(await this.#onNode(nodeId, ({ internal }) => internal.describeLogCleaner(topics))));
          answered = true;
        } catch (error) {
          if (!unanswered(error)) throw error;
          failure ??= error;
        }
      }),
    );
    if (!answered) throw failure;
    return rows.sort(
      (left, right) =>
        compareText(left.topic, right.topic) ||
        left.partition - right.partition ||
        left.brokerId - right.brokerId,
    );
  }

  /** Any broker answers: a move is a compare-and-set of the stored assignment, which any broker may write. */
  alterPartitionReassignments(moves: readonly PartitionMove[], options?: { timeoutMs?: number }) {
    return this.#routing.any.alterPartitionReassignments(moves, options);
  }

  /** Any broker answers, from its view of the cluster metadata. */
  listPartitionReassignments(partitions?: readonly { topic: string; partition: number }[]) {
    return this.#routing.any.listPartitionReassignments(partitions);
  }

  /** Sent to the transactional id's coordinator, the only broker that can abort it. */
  async abortTransaction(transactionalId: string, reason: string): Promise<void> {
    const brokers = await this.#liveBrokers();
    if (brokers === undefined) return this.#routing.any.abortTransaction(transactionalId, reason);
    const { client } = this.#routing;
    const coordinator = await client.retry(async () => {
      const answer = await client.send('any', FindCoordinator, {
        key: transactionalId,
        keyType: TRANSACTION_KEY_TYPE,
      });
      if (answer.errorCode !== ErrorCode.NONE || answer.nodeId < 0) {
        throw new WeirError(
          answer.errorCode === ErrorCode.NONE ? ErrorCode.COORDINATOR_NOT_AVAILABLE : answer.errorCode,
          {
            detail: answer.errorMessage ?? `Transactional id "${transactionalId}".`,
          },
        );
      }
      return answer.nodeId;
    });
    await this.#onNode(coordinator, ({ internal }) => internal.abortTransaction(transactionalId, reason));
  }

  async describePartitions(topic: string): Promise<PartitionInternals[]> {
    const metadata = await this.#topicMetadata(topic);
    if (metadata === undefined) return this.#routing.any.describePartitions(topic);
    const byLeader = partitionsByLeader(
      metadata,
      metadata.partitions.map((partition) => partition.partition),
    );
    const rows = new Map<number, PartitionInternals>();
    await Promise.all(
      [...byLeader].map(async ([leaderId, partitions]) => {
        const broker = this.#routing.client.broker(leaderId);
        if (broker === undefined || this.#routing.reachability.isSkipped(leaderId)) return;
        try {
          const answer = await this.#onNode(leaderId, ({ client }) =>
            client.retry(() => client.send('any', WeirDescribePartitions, { topic })),
          );
          if (answer.errorCode !== ErrorCode.NONE) {
            throw new WeirError(answer.errorCode, { detail: answer.errorMessage ?? `Topic "${topic}".` });
          }
          const wanted = new Set(partitions);
          for (const row of answer.partitions) {
            if (!wanted.has(row.partitionIndex) || row.errorCode !== ErrorCode.NONE) continue;
            rows.set(row.partitionIndex, {
              partition: row.partitionIndex,
              leaderId: row.leaderId,
              replicas: row.replicaNodes,
              isr: row.isrNodes,
              logStartOffset: row.logStartOffset,
              logEndOffset: row.logEndOffset,
              highWatermark: row.highWatermark,
              lastStableOffset: row.lastStableOffset,
              sizeBytes: row.sizeBytes,
              segments: row.segments,
              producerCount: row.producerCount,
            });
          }
        } catch (error) {
          // An unreachable leader leaves its partitions without offsets; anything else is an answer.
          if (!unanswered(error)) throw error;
        }
      }),
    );
    return metadata.partitions.map(
      (partition) =>
        rows.get(partition.partition) ?? {
          partition: partition.partition,
          leaderId: partition.leaderId,
          replicas: partition.replicaNodes,
          isr: partition.isrNodes,
          logStartOffset: -1n,
          logEndOffset: -1n,
          highWatermark: -1n,
          lastStableOffset: -1n,
          sizeBytes: 0n,
          segments: [],
          producerCount: 0,
        },
    );
  }

  async scanRecords(request: ScanRecordsRequest): Promise<ScanRecordsResult> {
    const metadata = await this.#topicMetadata(request.topic);
    if (metadata === undefined) return this.#routing.any.scanRecords(request);
    const order = new Map(request.partitions.map((range, index) => [range.partition, index]));
    const byLeader = partitionsByLeader(
      metadata,
      request.partitions.map((range) => range.partition),
    );
    const offline = byLeader.get(-1) ?? [];
    if (offline.length > 0) {
      throw new WeirError(ErrorCode.LEADER_NOT_AVAILABLE, {
        detail: `${offline.map((partition) => `${request.topic}-${partition}`).join(', ')} has no leader (offline).`,
      });
    }
    // The record budget is shared, so one step over three brokers examines no more than over one.
    const maxScanRecords = Math.max(1, Math.ceil(request.maxScanRecords / byLeader.size));
    const answers = await Promise.all(
      [...byLeader].map(([leaderId, partitions]) => {
        const wanted = new Set(partitions);
        return this.#onNode(leaderId, ({ internal }) =>
          internal.scanRecords({
            ...request,
            maxScanRecords,
            partitions: request.partitions.filter((range) => wanted.has(range.partition)),
          }),
        );
      }),
    );
    const position = (partition: number) => order.get(partition) ?? 0;
    return {
      // Each broker answers its partitions in request order, each in offset order; a stable sort
      // by the request's partition order keeps both.
      records: answers
        .flatMap((answer) => answer.records)
        .sort((left, right) => position(left.partition) - position(right.partition)),
      partitions: answers
        .flatMap((answer) => answer.partitions)
        .sort((left, right) => position(left.partition) - position(right.partition)),
      scannedRecords: answers.reduce((sum, answer) => sum + answer.scannedRecords, 0),
      scannedBytes: answers.reduce((sum, answer) => sum + answer.scannedBytes, 0),
    };
  }

  async describeGroupLags(groupIds: readonly string[] | null): Promise<GroupLagSummary[]> {
    const brokers = await this.#liveBrokers();
    if (brokers === undefined) return this.#routing.any.describeGroupLags(groupIds);
    // Each group lives on its coordinator only. Named groups are asked one by one, since a broker
    // that does not coordinate a group answers GROUP_ID_NOT_FOUND for it.
    const questions = groupIds === null ? [null] : [...new Set(groupIds)].map((groupId) => [groupId]);
    const found = new Map<string, GroupLagSummary>();
    let notFound: unknown;
    let failure: unknown;
    let answered = false;
    await Promise.all(
      brokers.flatMap((nodeId) =>
        questions.map(async (question) => {
          try {
            const groups = await this.#onNode(nodeId, ({ internal }) => internal.describeGroupLags(question));
            answered = true;
            for (const group of groups) if (!found.has(group.groupId)) found.set(group.groupId, group);
          } catch (error) {
            if (isGroupNotFound(error)) {
              answered = true;
              notFound = error;
            } else if (unanswered(error)) failure ??= error;
            else throw error;
          }
        }),
      ),
    );
    if (!answered) throw failure;
    if (groupIds?.some((groupId) => !found.has(groupId))) throw notFound ?? failure;
    const groups = [...found.values()].sort((left, right) => compareText(left.groupId, right.groupId));
    return this.#withLeaderOffsets(groups);
  }

  async listTopicSummaries(query: TopicListQuery): Promise<TopicListPage> {
    const brokers = await this.#liveBrokers();
    if (brokers === undefined) return this.#routing.any.listTopicSummaries(query);
    const merged = new Map<string, { summary: TopicSummary; sizeBytes: bigint; messageCount: bigint }>();
    let answered = false;
    let failure: unknown;
    await Promise.all(
      brokers.map(async (nodeId) => {
        try {
          const rows = await this.#onNode(nodeId, ({ internal }) => allSummaries(internal, query));
          answered = true;
          for (const summary of rows) {
            const known = merged.get(summary.name);
            if (known === undefined)
              merged.set(summary.name, {
                summary,
                sizeBytes: summary.sizeBytes,
                messageCount: summary.messageCount,
              });
            else {
              known.sizeBytes += summary.sizeBytes;
              known.messageCount += summary.messageCount;
            }
          }
        } catch (error) {
          if (!unanswered(error)) throw error;
          failure ??= error;
        }
      }),
    );
    if (!answered) throw failure;
    const rows = [...merged.values()];
    const direction = query.descending === true ? -1 : 1;
    const sortBy = query.sortBy ?? 'name';
    const measure = (row: (typeof rows)[number]): bigint =>
      sortBy === 'sizeBytes'
        ? row.sizeBytes
        : sortBy === 'messages'
          ? row.messageCount
          : sortBy === 'partitions'
            ? BigInt(row.summary.partitionCount)
            : 0n;
    // The broker's order: by the key, ties by name A to Z in both directions; by name itself
    // following the direction.
    rows.sort((left, right) => {
      const byKey = measure(left) - measure(right);
      if (byKey !== 0n) return direction * (byKey < 0n ? -1 : 1);
      const byName = compareText(left.summary.name, right.summary.name);
      return sortBy === 'name' ? direction * byName : byName;
    });
    const offset = query.offset ?? 0;
    const page = rows.slice(offset, offset + query.limit);
    const lags = page.length === 0 ? new Map() : topicGroupLags(await this.describeGroupLags(null));
    return {
      totalCount: rows.length,
      topics: page.map((row) => ({
        ...row.summary,
        sizeBytes: row.sizeBytes,
        messageCount: row.messageCount,
        groups: [...(lags.get(row.summary.name) ?? new Map<string, bigint>())]
          .sort(([left], [right]) => compareText(left, right))
          .map(([groupId, lag]) => ({ groupId, lag })),
      })),
    };
  }

  /**
   * A coordinator reads offsets only of the partitions its broker leads; the others come back
   * with -1 offsets. Those are read from their leaders and the one lag rule applied to them.
   */
  async #withLeaderOffsets(groups: GroupLagSummary[]): Promise<GroupLagSummary[]> {
    const topics = new Set<string>();
    for (const group of groups)
      for (const row of group.partitions) if (row.logEndOffset < 0n) topics.add(row.topic);
    if (topics.size === 0) return groups;
    const offsets = new Map<string, PartitionInternals[]>();
    await Promise.all(
      [...topics].map(async (topic) => {
        try {
          offsets.set(topic, await this.describePartitions(topic));
        } catch (error) {
          // A deleted topic keeps its committed offsets; there is nothing to measure them against.
          if (asKafkaError(error) === null) throw error;
        }
      }),
    );
    return groups.map((group) => {
      const partitions = group.partitions.map((row): GroupPartitionLagRow => {
        if (row.logEndOffset >= 0n) return row;
        const leader = offsets.get(row.topic)?.[row.partition];
        if (leader === undefined || leader.highWatermark < 0n) return row;
        return { ...row, logEndOffset: leader.highWatermark, lag: partitionLag(leader, row.committedOffset) };
      });
      return {
        ...group,
        partitions,
        totalLag: partitions.reduce((sum, row) => sum + row.lag, 0n),
      };
    });
  }

  /** A topic's metadata with its leaders, or undefined when there is only one broker to ask. */
  async #topicMetadata(topic: string): Promise<TopicMetadata | undefined> {
    const snapshot = await this.#routing.client.refreshMetadata([topic]);
    for (const broker of snapshot.cluster.brokers) this.#routing.reachability.remember(broker);
    if (snapshot.cluster.brokers.length <= 1) return undefined;
    const metadata = snapshot.topics.find((candidate) => candidate.name === topic);
    // An unknown topic or one being created: the plain call names the error as before.
    if (metadata === undefined || metadata.errorCode === ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
      return undefined;
    return metadata;
  }

  /** The live brokers not skipped as unreachable, or undefined when there is only one. */
  async #liveBrokers(): Promise<number[] | undefined> {
    const { cluster } = await this.#routing.client.refreshMetadata([]);
    for (const broker of cluster.brokers) this.#routing.reachability.remember(broker);
    if (cluster.brokers.length <= 1) return undefined;
    const reachable = cluster.brokers
      .map((broker) => broker.nodeId)
      .filter((nodeId) => !this.#routing.reachability.isSkipped(nodeId));
    if (reachable.length === 0) {
      throw new WeirError(ErrorCode.BROKER_NOT_AVAILABLE, {
        detail: 'no broker of the cluster answered lately.',
      });
    }
    return reachable;
  }

  /**
   * `call` on every live broker (straight to the one broker when standalone); the brokers that
   * did not answer are left out, and when none answered, the first failure is thrown.
   */
  async #everyLiveBroker<T>(call: (internal: InternalAdminApi) => Promise<T>): Promise<T[]> {
    const brokers = await this.#liveBrokers();
    if (brokers === undefined) return [await call(this.#routing.any)];
    const answers: T[] = [];
    let failure: unknown;
    await Promise.all(
      brokers.map(async (nodeId) => {
        try {
          answers.push(await this.#onNode(nodeId, ({ internal }) => call(internal)));
        } catch (error) {
          if (!unanswered(error)) throw error;
          failure ??= error;
        }
      }),
    );
    if (answers.length === 0) throw failure;
    return answers;
  }

  /** Runs `call` on one broker, noting whether it answered. */
  async #onNode<T>(
    nodeId: number,
    call: (node: { client: Client; internal: InternalAdminApi }) => Promise<T>,
  ): Promise<T> {
    const broker = this.#routing.client.broker(nodeId);
    if (broker === undefined) {
      throw new WeirError(ErrorCode.BROKER_NOT_AVAILABLE, {
        detail: `broker ${nodeId} is not among the cluster's live brokers.`,
      });
    }
    const failure = this.#routing.reachability.lastFailure(nodeId);
    if (failure !== undefined && this.#routing.reachability.isSkipped(nodeId)) {
      throw new WeirError(ErrorCode.BROKER_NOT_AVAILABLE, {
        detail: `broker ${nodeId} (${broker.host}:${broker.port}) did not answer lately: ${failure.message}`,
      });
    }
    try {
      const result = await call(this.#routing.node(broker));
      this.#routing.reachability.markAnswered(nodeId);
      return result;
    } catch (error) {
      if (unanswered(error)) this.#routing.reachability.markFailed(nodeId, error);
      else this.#routing.reachability.markAnswered(nodeId);
      throw error;
    }
  }
}

/** Partitions grouped by their leader's node id (-1: offline). */
function partitionsByLeader(metadata: TopicMetadata, partitions: readonly number[]): Map<number, number[]> {
  const byLeader = new Map<number, number[]>();
  for (const partition of partitions) {
    const leaderId = metadata.partitions[partition]?.leaderId ?? -1;
    let list = byLeader.get(leaderId);
    if (list === undefined) {
      list = [];
      byLeader.set(leaderId, list);
    }
    list.push(partition);
  }
  return byLeader;
}

/** Every summary matching the query's search on one broker, in pages, ignoring its paging. */
async function allSummaries(internal: InternalAdminApi, query: TopicListQuery): Promise<TopicSummary[]> {
  const rows: TopicSummary[] = [];
  for (;;) {
    const page = await internal.listTopicSummaries({
      ...(query.search === undefined ? {} : { search: query.search }),
      ...(query.includeInternal === undefined ? {} : { includeInternal: query.includeInternal }),
      sortBy: 'name',
      offset: rows.length,
      limit: SUMMARY_PAGE_ROWS,
    });
    rows.push(...page.topics);
    if (page.topics.length === 0 || rows.length >= page.totalCount) return rows;
  }
}

/** Topic → group → lag, summed over the group's partitions of the topic. */
function topicGroupLags(groups: readonly GroupLagSummary[]): Map<string, Map<string, bigint>> {
  const lags = new Map<string, Map<string, bigint>>();
  for (const group of groups) {
    for (const row of group.partitions) {
      let byGroup = lags.get(row.topic);
      if (byGroup === undefined) {
        byGroup = new Map();
        lags.set(row.topic, byGroup);
      }
      byGroup.set(group.groupId, (byGroup.get(group.groupId) ?? 0n) + row.lag);
    }
  }
  return lags;
}

/**
 * The one lag rule (docs/architecture.md §8), as the broker's group-lag view applies it, for
 * partitions whose offsets only their leader has: last stable offset − max(committed offset, log
 * start), never negative; with nothing committed (-1) it counts from the log start.
 */
function partitionLag(offsets: PartitionInternals, committedOffset: bigint): bigint {
  const from =
    committedOffset < 0n
      ? offsets.logStartOffset
      : committedOffset > offsets.logStartOffset
        ? committedOffset
        : offsets.logStartOffset;
  const lag = offsets.lastStableOffset - from;
  return lag > 0n ? lag : 0n;
}

/** An AdminItemsError (by shape, see api/error-shapes.ts) whose every row is GROUP_ID_NOT_FOUND. */
function isGroupNotFound(error: unknown): boolean {
  const failures = (error as { failures?: unknown } | null)?.failures;
  return (
    asKafkaError(error) !== null &&
    Array.isArray(failures) &&
    failures.every(
      (failure: { error?: { originalCode?: unknown } }) =>
        failure.error?.originalCode === ErrorCode.GROUP_ID_NOT_FOUND,
    )
  );
}

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
