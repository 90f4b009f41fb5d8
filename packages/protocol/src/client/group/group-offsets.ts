import { ErrorCode } from '../../errors/error-codes';
import { errorForCode } from '../../errors/weir-error';
import { OffsetCommit } from '../../messages/apis/offset-commit';
import { OffsetFetch } from '../../messages/apis/offset-fetch';
import type { TopicPartitions } from '../../records/consumer-protocol';
import type { ApiSchema, RequestOf, ResponseOf } from '../../schema/api';

/** Sends one request to a group's coordinator (over whichever connection the caller owns). */
export type CoordinatorSend = <A extends ApiSchema>(api: A, body: RequestOf<A>) => Promise<ResponseOf<A>>;

/** One partition's committed offset. */
export interface CommittedOffset {
  readonly topic: string;
  readonly partition: number;
  /** The next offset to read; -1n when the group has committed nothing for the partition. */
  readonly offset: bigint;
  readonly metadata: string | null;
}

/** A position to commit for one partition: the offset of the next record to process. */
export interface OffsetToCommit {
  readonly topic: string;
  readonly partition: number;
  readonly offset: bigint;
  readonly metadata?: string | null;
}

/**
 * The group's committed offsets: of the listed partitions, or (`null`) of every partition it has
 * committed. Throws the group-level or first partition-level error.
 */
export async function fetchCommittedOffsets(
  send: CoordinatorSend,
  groupId: string,
  partitions: readonly TopicPartitions[] | null,
): Promise<CommittedOffset[]> {
  const response = await send(OffsetFetch, {
    groupId,
    topics:
      partitions === null
        ? null
        : partitions.map((entry) => ({ name: entry.topic, partitionIndexes: [...entry.partitions] })),
  });
  if (response.errorCode !== ErrorCode.NONE) throw errorForCode(response.errorCode, `Group "${groupId}".`);
  const offsets: CommittedOffset[] = [];
  for (const topic of response.topics) {
    for (const partition of topic.partitions) {
      if (partition.errorCode !== ErrorCode.NONE) {
        throw errorForCode(
          partition.errorCode,
          `Group "${groupId}", ${topic.name}-${partition.partitionIndex}.`,
        );
      }
      offsets.push({
        topic: topic.name,
        partition: partition.partitionIndex,
        offset: partition.committedOffset,
        metadata: partition.metadata,
      });
    }
  }
  return offsets;
}

/**
 * Commits offsets as a member of `generationId` (or, with generation -1 and member id '', as an
 * admin tool, which the coordinator accepts only while the group is empty). Throws the first
 * partition's error.
 */
export async function commitOffsets(
  send: CoordinatorSend,
  request: {
    readonly groupId: string;
    readonly generationId: number;
    readonly memberId: string;
    /** The committing member's static instance id, if it has one. */
    readonly groupInstanceId?: string | null;
    readonly offsets: readonly OffsetToCommit[];
  },
): Promise<void> {
  if (request.offsets.length === 0) return;
  const topics: RequestOf<typeof OffsetCommit>['topics'] = [];
  for (const entry of request.offsets) {
    let topic = topics.find((candidate) => candidate.name === entry.topic);
    if (topic === undefined) {
      topic = { name: entry.topic, partitions: [] };
      topics.push(topic);
    }
    topic.partitions.push({
      partitionIndex: entry.partition,
      committedOffset: entry.offset,
      committedLeaderEpoch: -1,
      commitTimestampMs: -1n,
      committedMetadata: entry.metadata ?? '',
    });
  }
  const response = await send(OffsetCommit, {
    groupId: request.groupId,
    generationIdOrMemberEpoch: request.generationId,
    memberId: request.memberId,
    groupInstanceId: request.groupInstanceId ?? null,
    retentionTimeMs: -1n,
    topics,
  });
  for (const topic of response.topics) {
    for (const partition of topic.partitions) {
      if (partition.errorCode !== ErrorCode.NONE) {
        throw errorForCode(
          partition.errorCode,
          `Committing ${topic.name}-${partition.partitionIndex} for group "${request.groupId}".`,
        );
      }
    }
  }
}
