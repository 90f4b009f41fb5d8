import { ErrorCode, WeirError } from '@weir/protocol';
import type { CoordinatorLogger } from '../coordination/coordinator-shards';
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
}

/** Which topic-partitions exist, so commits of unknown ones are refused. */
export interface PartitionCatalog {
  hasPartition(topic: string, partition: number): boolean;
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
 * The error a client gets when a coordinator write fails, mapped as Kafka's group coordinator maps
 * the replica layer's append errors (so clients react as they do with Kafka): a partition this
 * broker no longer leads, or cannot write, means "look for the coordinator again"
 * (NOT_COORDINATOR); a partition that cannot take the write right now means "retry"
 * (COORDINATOR_NOT_AVAILABLE); a batch too large for the log is the commit's fault
 * (INVALID_COMMIT_OFFSET_SIZE). Any other Kafka error passes through unchanged.
 */
export function coordinatorWriteError(error: unknown): number {
  if (!(error instanceof WeirError)) return ErrorCode.UNKNOWN_SERVER_ERROR;
  switch (error.code) {
    case ErrorCode.NOT_LEADER_OR_FOLLOWER:
    case ErrorCode.KAFKA_STORAGE_ERROR:
    case ErrorCode.FENCED_LEADER_EPOCH:
      return ErrorCode.NOT_COORDINATOR;
    case ErrorCode.UNKNOWN_TOPIC_OR_PARTITION:
    case ErrorCode.NOT_ENOUGH_REPLICAS:
    case ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND:
    case ErrorCode.REQUEST_TIMED_OUT:
      return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    case ErrorCode.MESSAGE_TOO_LARGE:
    case ErrorCode.RECORD_LIST_TOO_LARGE:
    case ErrorCode.INVALID_FETCH_SIZE:
      return ErrorCode.INVALID_COMMIT_OFFSET_SIZE;
    default:
      return error.code;
  }
}
