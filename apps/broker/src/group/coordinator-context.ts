import { ErrorCode } from '@weir/protocol';
import type { CoordinatorLogger } from '../coordination/coordinator-shards';
import { coordinatorWriteError } from '../coordination/coordinator-write-error';
import type { Group } from './group';
import type { GroupScheduler } from './group-scheduler';
import type { CoordinatorRecord } from './offsets-records';

export type { CoordinatorLogger } from '../coordination/coordinator-shards';

/** The coordinator's settings (the broker's `groups` config, in the units the code uses). */
export interface GroupCoordinatorConfig {
  initialRebalanceDelayMs: number;
  minSessionTimeoutMs: number;
  maxSessionTimeoutMs: number;
  offsetsRetentionMs: number;
  offsetsRetentionCheckIntervalMs: number;
  /** offset.metadata.max.bytes: longer commit metadata is refused with OFFSET_METADATA_TOO_LARGE. */
  maxOffsetMetadataBytes: number;
  /** group.consumer.heartbeat.interval.ms: how often consumer-protocol members heartbeat. */
  consumerHeartbeatIntervalMs: number;
  /** group.consumer.session.timeout.ms: a consumer-protocol member silent this long is fenced. */
  consumerSessionTimeoutMs: number;
}

/** A topic as the coordinator needs it: consumer-protocol assignments name topics by id. */
export interface CatalogTopic {
  readonly name: string;
  readonly topicId: string;
  readonly partitionCount: number;
}

/**
 * Which topics and partitions exist: commits of unknown ones are refused, and consumer-protocol
 * groups assign the partitions of the topics their members subscribe to.
 */
export interface PartitionCatalog {
  hasPartition(topic: string, partition: number): boolean;
  /** The topic of that name, or undefined when it does not exist. */
  topic(name: string): CatalogTopic | undefined;
  /** The topic with that id, or undefined when no topic has it. */
  topicById(topicId: string): CatalogTopic | undefined;
}

/**
 * The groups of the shards this coordinator leads, found by group id. Requests reach it only
 * after the coordinator's gate said the group's shard is active, so `set` on a group whose shard
 * is not active is a coordinator bug and throws.
 */
export interface GroupDirectory {
  get(groupId: string): Group | undefined;
  set(groupId: string, group: Group): void;
  delete(groupId: string): void;
}

/** What the membership and offset parts of the coordinator share. */
export interface CoordinatorContext {
  readonly config: GroupCoordinatorConfig;
  readonly scheduler: GroupScheduler;
  readonly logger: CoordinatorLogger;
  readonly catalog: PartitionCatalog;
  readonly groups: GroupDirectory;
  /**
   * Appends records of a group to its shard's `__consumer_offsets` partition, with the shard's
   * leader epoch; with `durable`, resolves once they are fdatasync'd. Rejects with NOT_COORDINATOR
   * when the group's shard is not active here any more.
   */
  write(groupId: string, records: readonly CoordinatorRecord[], options: { durable: boolean }): Promise<void>;
  /** Called when a rebalance completes (the group reaches Stable). */
  onRebalanceCompleted(group: Group): void;
}

/**
 * A failed `__consumer_offsets` write as the client is told it: Kafka's mapping, with a batch too
 * large for the log the commit's fault (INVALID_COMMIT_OFFSET_SIZE).
 */
export function groupWriteError(error: unknown): number {
  return coordinatorWriteError(error, {
    codes: [ErrorCode.MESSAGE_TOO_LARGE, ErrorCode.RECORD_LIST_TOO_LARGE, ErrorCode.INVALID_FETCH_SIZE],
    answer: ErrorCode.INVALID_COMMIT_OFFSET_SIZE,
  });
}
