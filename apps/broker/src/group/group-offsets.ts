import { ErrorCode } from '@weir/protocol';
import type { ConsumerGroup } from './consumer/consumer-group';
import { type CoordinatorContext, groupWriteError } from './coordinator-context';
import { CONSUMER_PROTOCOL_TYPE, type CommittedOffset, type Group, partitionKey } from './group';
import { offsetRecordOf } from './group-persistence';
import type { CoordinatorRecord } from './offsets-records';
import type { Rebalancer } from './rebalancer';

export interface CommitPartition {
  partitionIndex: number;
  committedOffset: number;
  /** -1 when the client did not send one (OffsetCommit < v6). */
  committedLeaderEpoch: number;
  committedMetadata: string | null;
}

export interface CommitRequest {
  groupId: string;
  /** -1 with an empty member id: a "simple" commit, allowed only while the group is empty. */
  generationId: number;
  memberId: string;
  groupInstanceId: string | null;
  /** OffsetCommit v2–4's retention time; -1 for the broker's retention rules. */
  retentionTimeMs: number;
  /** The OffsetCommit version: consumer-protocol members must commit with v9+ (Kafka's rule). */
  apiVersion: number;
  topics: { name: string; partitions: CommitPartition[] }[];
}

/** One offset of a committed transaction (TxnOffsetCommit), as the group stores it. */
export interface TransactionalOffset {
  topic: string;
  partition: number;
  offset: number;
  leaderEpoch: number;
  metadata: string | null;
}

export type TopicPartitionErrors = {
  name: string;
  partitions: { partitionIndex: number; errorCode: number }[];
}[];

export interface FetchedOffset {
  partitionIndex: number;
  /** -1 when nothing is committed. */
  committedOffset: number;
  committedLeaderEpoch: number;
  metadata: string;
  errorCode: number;
}

export interface FetchedOffsets {
  errorCode: number;
  topics: { name: string; partitions: FetchedOffset[] }[];
}

interface OffsetChange {
  topic: string;
  partition: number;
  value: CommittedOffset | null;
}

/**
 * Committed offsets: OffsetCommit, OffsetFetch, OffsetDelete and retention. Every change is
 * written to the group's `__consumer_offsets` partition with `durable: true` before it is applied
 * or acknowledged, and only changes are written: a commit equal to what is stored costs nothing,
 * so the topic grows with commits, not with time.
 */
export class GroupOffsets {
  /** Orders writes of one run; a write applies only over an older one. Loaded offsets are 0. */
  #nextSequence = 1;

  constructor(
    private readonly context: CoordinatorContext,
    private readonly rebalancer: Rebalancer,
  ) {}

  async commit(request: CommitRequest): Promise<TopicPartitionErrors> {
    const { groups } = this.context;
    let group = groups.get(request.groupId);
    let groupError: number = ErrorCode.NONE;
    if (!group) {
      // Unknown group: a simple commit creates it as a plain offset store; a member commit is
      // stale, which v9+ (the consumer protocol's versions) says as GROUP_ID_NOT_FOUND, as Kafka does.
      if (request.generationId < 0) group = this.rebalancer.createGroup(request.groupId);
      else groupError = request.apiVersion >= 9 ? ErrorCode.GROUP_ID_NOT_FOUND : ErrorCode.ILLEGAL_GENERATION;
    } else {
      groupError = this.#memberCommitError(group, request);
    }
    if (!group || groupError !== ErrorCode.NONE) return everyPartition(request.topics, groupError);

    const nowMs = this.context.scheduler.nowMs();
    const errors = new Map<string, number>();
    const changes: OffsetChange[] = [];
    for (const topic of request.topics) {
      for (const partition of topic.partitions) {
        const key = partitionKey(topic.name, partition.partitionIndex);
        const metadata = partition.committedMetadata ?? '';
        if (!this.context.catalog.hasPartition(topic.name, partition.partitionIndex)) {
          errors.set(key, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        } else if (Buffer.byteLength(metadata) > this.context.config.maxOffsetMetadataBytes) {
          errors.set(key, ErrorCode.OFFSET_METADATA_TOO_LARGE);
        } else {
          const value: CommittedOffset = {
            offset: partition.committedOffset,
            leaderEpoch: partition.committedLeaderEpoch,
            metadata,
            commitTimestampMs: nowMs,
            expireTimestampMs: request.retentionTimeMs >= 0 ? nowMs + request.retentionTimeMs : -1,
            sequence: 0,
          };
          if (!this.#isUnchanged(group, topic.name, partition.partitionIndex, value, nowMs)) {
            changes.push({ topic: topic.name, partition: partition.partitionIndex, value });
          }
        }
      }
    }
    const writeError = await this.#write(group, changes);
    return request.topics.map((topic) => ({
      name: topic.name,
      partitions: topic.partitions.map((partition) => ({
        partitionIndex: partition.partitionIndex,
        errorCode: errors.get(partitionKey(topic.name, partition.partitionIndex)) ?? writeError,
      })),
    }));
  }

  /**
   * Stores the offsets of a committed transaction (staged by TxnOffsetCommit, applied by the
   * transaction coordinator once the COMMIT markers are written). Kafka applies them whatever the
   * group's generation or state, since the transaction already checked its producer; an unknown
   * group is created as a plain offset store, as a simple commit would. `committer` is the
   * transaction's producer, named in the log when the write fails.
   */
  async commitTransactional(
    groupId: string,
    committer: { producerId: bigint; producerEpoch: number },
    offsets: readonly TransactionalOffset[],
  ): Promise<number> {
    const group = this.context.groups.get(groupId) ?? this.rebalancer.createGroup(groupId);
    if (group.is('Dead')) return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    const nowMs = this.context.scheduler.nowMs();
    const changes: OffsetChange[] = offsets.map((staged) => ({
      topic: staged.topic,
      partition: staged.partition,
      value: {
        offset: staged.offset,
        leaderEpoch: staged.leaderEpoch,
        metadata: staged.metadata ?? '',
        commitTimestampMs: nowMs,
        expireTimestampMs: -1,
        sequence: 0,
      },
    }));
    const errorCode = await this.#write(group, changes);
    if (errorCode !== ErrorCode.NONE) {
      this.context.logger.warn(
        {
          groupId,
          producerId: String(committer.producerId),
          producerEpoch: committer.producerEpoch,
          errorCode,
        },
        'applying transactional offsets failed',
      );
    }
    return errorCode;
  }

  /** Kafka's checks, in Kafka's order: what a commit by this member and generation may do. */
  #memberCommitError(group: Group, request: CommitRequest): number {
    if (group.is('Dead')) return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    if (group.consumer) return consumerMemberCommitError(group.consumer, request);
    if (group.isStaticMemberFenced(request.memberId, request.groupInstanceId))
      return ErrorCode.FENCED_INSTANCE_ID;
    if (request.generationId < 0 && group.is('Empty')) return ErrorCode.NONE;
    // The member has its new generation but not its assignment yet: it must not commit now.
    if (group.is('CompletingRebalance')) return ErrorCode.REBALANCE_IN_PROGRESS;
    const member = group.members.get(request.memberId);
    if (!member) return ErrorCode.UNKNOWN_MEMBER_ID;
    if (request.generationId !== group.generationId) return ErrorCode.ILLEGAL_GENERATION;
    // Eager consumers commit in their revoke callback, so PreparingRebalance accepts commits too.
    // A commit is as good as a heartbeat.
    if (!member.awaitingJoin && !member.awaitingSync) this.rebalancer.armSession(group, member);
    return ErrorCode.NONE;
  }

  /**
   * Whether a commit repeats what is stored (or being stored). Repeats are not written, except
   * once half the retention period has passed, so a consumer that keeps committing the same
   * position of an idle partition still refreshes the commit time that expiry looks at.
   */
  #isUnchanged(
    group: Group,
    topic: string,
    partition: number,
    next: CommittedOffset,
    nowMs: number,
  ): boolean {
    const pending = group.pendingOffsetWrites.get(partitionKey(topic, partition));
    const current = pending ? pending.value : group.committedOffset(topic, partition);
    return (
      current !== null &&
      current !== undefined &&
      current.offset === next.offset &&
      current.leaderEpoch === next.leaderEpoch &&
      current.metadata === next.metadata &&
      current.expireTimestampMs === next.expireTimestampMs &&
      nowMs - current.commitTimestampMs < this.context.config.offsetsRetentionMs / 2
    );
  }

  /** Writes offset changes durably, then applies them; returns the error for every change. */
  async #write(group: Group, changes: OffsetChange[]): Promise<number> {
    if (changes.length === 0) return ErrorCode.NONE;
    const records: CoordinatorRecord[] = [];
    const sequences: number[] = [];
    for (const change of changes) {
      const sequence = this.#nextSequence++;
      sequences.push(sequence);
      if (change.value) change.value.sequence = sequence;
      group.pendingOffsetWrites.set(partitionKey(change.topic, change.partition), {
        sequence,
        value: change.value,
      });
      records.push({
        kind: 'offset',
        groupId: group.groupId,
        topic: change.topic,
        partition: change.partition,
        value: change.value === null ? null : offsetRecordOf(change.value),
      });
    }
    try {
      await this.context.write(group.groupId, records, { durable: true });
      changes.forEach((change, index) => {
        const current = group.committedOffset(change.topic, change.partition);
        if (!current || current.sequence < sequences[index]!) {
          group.setCommittedOffset(change.topic, change.partition, change.value);
        }
      });
      return ErrorCode.NONE;
    } catch (error) {
      this.context.logger.warn({ groupId: group.groupId, err: error }, 'storing committed offsets failed');
      return groupWriteError(error);
    } finally {
      changes.forEach((change, index) => {
        const key = partitionKey(change.topic, change.partition);
        if (group.pendingOffsetWrites.get(key)?.sequence === sequences[index])
          group.pendingOffsetWrites.delete(key);
      });
    }
  }

  /**
   * OffsetFetch: the committed offsets of the listed partitions (null: every committed one).
   * Nothing committed reads as offset -1, empty metadata and no error, as Kafka answers.
   */
  fetch(groupId: string, topics: { name: string; partitionIndexes: number[] }[] | null): FetchedOffsets {
    const group = this.context.groups.get(groupId);
    if (topics === null) {
      const byTopic = new Map<string, FetchedOffset[]>();
      if (group) {
        for (const { topic, partition, committed } of group.allOffsets()) {
          const list = byTopic.get(topic) ?? [];
          list.push(fetched(partition, committed));
          byTopic.set(topic, list);
        }
      }
      return {
        errorCode: ErrorCode.NONE,
        topics: [...byTopic].map(([name, partitions]) => ({ name, partitions })),
      };
    }
    return {
      errorCode: ErrorCode.NONE,
      topics: topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitionIndexes.map((partition) =>
          fetched(partition, group?.committedOffset(topic.name, partition)),
        ),
      })),
    };
  }

  /**
   * OffsetDelete: removes committed offsets of topics the group does not consume. A consumer group
   * refuses topics it subscribes to (GROUP_SUBSCRIBED_TO_TOPIC); a group of another protocol only
   * while it is empty.
   */
  async delete(
    groupId: string,
    topics: { name: string; partitions: number[] }[],
  ): Promise<{ errorCode: number; topics: TopicPartitionErrors }> {
    const group = this.context.groups.get(groupId);
    if (!group || group.is('Dead')) return { errorCode: ErrorCode.GROUP_ID_NOT_FOUND, topics: [] };
    const consumerGroup = group.protocolType === CONSUMER_PROTOCOL_TYPE || group.consumer !== undefined;
    if (!consumerGroup && !group.is('Empty')) return { errorCode: ErrorCode.NON_EMPTY_GROUP, topics: [] };
    const errors = new Map<string, number>();
    const changes: OffsetChange[] = [];
    for (const topic of topics) {
      for (const partition of topic.partitions) {
        const key = partitionKey(topic.name, partition);
        if (!this.context.catalog.hasPartition(topic.name, partition)) {
          errors.set(key, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        } else if (consumerGroup && group.isSubscribedTo(topic.name)) {
          errors.set(key, ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC);
        } else if (group.committedOffset(topic.name, partition) || group.pendingOffsetWrites.has(key)) {
          changes.push({ topic: topic.name, partition, value: null });
        }
      }
    }
    const writeError = await this.#write(group, changes);
    return {
      errorCode: ErrorCode.NONE,
      topics: topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map((partition) => ({
          partitionIndex: partition,
          errorCode: errors.get(partitionKey(topic.name, partition)) ?? writeError,
        })),
      })),
    };
  }

  /**
   * Removes offsets past retention (Kafka's rules): an explicit expire time from OffsetCommit v2–4
   * wins; otherwise an Empty consumer group's offsets expire `offsetsRetentionMs` after it became
   * empty, a live consumer group's offsets of topics it no longer subscribes to expire that long
   * after their commit, and a plain offset store's (no protocol) too. Partitions with a write in
   * flight wait for the next round.
   */
  async expire(group: Group): Promise<number> {
    const nowMs = this.context.scheduler.nowMs();
    const retentionMs = this.context.config.offsetsRetentionMs;
    const changes: OffsetChange[] = [];
    for (const { topic, partition, committed } of group.allOffsets()) {
      if (group.pendingOffsetWrites.has(partitionKey(topic, partition))) continue;
      let expired: boolean;
      if (committed.expireTimestampMs >= 0) expired = nowMs >= committed.expireTimestampMs;
      else if (group.consumer) {
        // Kafka's rule for consumer-protocol groups: an offset of a topic no member subscribes to
        // expires that long after its commit.
        expired = !group.consumer.isSubscribedTo(topic) && committed.commitTimestampMs + retentionMs <= nowMs;
      } else if (group.protocolType === null) expired = committed.commitTimestampMs + retentionMs <= nowMs;
      else if (group.is('Empty')) expired = group.stateTimestampMs + retentionMs <= nowMs;
      else if (group.protocolType === CONSUMER_PROTOCOL_TYPE && group.subscribedTopics !== undefined) {
        expired = !group.subscribedTopics.has(topic) && committed.commitTimestampMs + retentionMs <= nowMs;
      } else expired = false;
      if (expired) changes.push({ topic, partition, value: null });
    }
    const errorCode = await this.#write(group, changes);
    if (errorCode !== ErrorCode.NONE) return 0;
    return changes.length;
  }
}

/**
 * Kafka's check of a commit to a consumer-protocol group (ConsumerGroup.validateOffsetCommit): a
 * simple commit (epoch -1) only while the group has no members; a member's only with OffsetCommit
 * v9+ and its current member epoch: a greater one is FENCED_MEMBER_EPOCH, a smaller one
 * STALE_MEMBER_EPOCH (the member commits again after its next heartbeat).
 */
function consumerMemberCommitError(consumer: ConsumerGroup, request: CommitRequest): number {
  if (request.generationId < 0 && consumer.isEmpty) return ErrorCode.NONE;
  const member = consumer.members.get(request.memberId);
  if (!member) return ErrorCode.UNKNOWN_MEMBER_ID;
  if (request.apiVersion < 9) return ErrorCode.UNSUPPORTED_VERSION;
  if (request.generationId > member.memberEpoch) return ErrorCode.FENCED_MEMBER_EPOCH;
  if (request.generationId < member.memberEpoch) return ErrorCode.STALE_MEMBER_EPOCH;
  return ErrorCode.NONE;
}

function fetched(partition: number, committed: CommittedOffset | undefined): FetchedOffset {
  return {
    partitionIndex: partition,
    committedOffset: committed?.offset ?? -1,
    committedLeaderEpoch: committed?.leaderEpoch ?? -1,
    metadata: committed?.metadata ?? '',
    errorCode: ErrorCode.NONE,
  };
}

/** The same error for every partition of a request. */
export function everyPartition(
  topics: readonly { name: string; partitions: readonly { partitionIndex: number }[] }[],
  errorCode: number,
): TopicPartitionErrors {
  return topics.map((topic) => ({
    name: topic.name,
    partitions: topic.partitions.map((partition) => ({
      partitionIndex: partition.partitionIndex,
      errorCode,
    })),
  }));
}
