import { ErrorCode, WeirError } from '@weir/protocol';
import type { Group } from './group';
import type { GroupScheduler } from './group-scheduler';
import type { GroupStore } from './offsets-topic';

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

/** The log lines the coordinator writes (pino-shaped, so the broker's logger fits). */
export interface CoordinatorLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** Which topic-partitions exist, so commits of unknown ones are refused. */
export interface PartitionCatalog {
  hasPartition(topic: string, partition: number): boolean;
}

/** What the membership and offset parts of the coordinator share. */
export interface CoordinatorContext {
  readonly config: GroupCoordinatorConfig;
  readonly scheduler: GroupScheduler;
  readonly store: GroupStore;
  readonly logger: CoordinatorLogger;
  readonly catalog: PartitionCatalog;
  readonly groups: Map<string, Group>;
  /** The `__consumer_offsets` partition of a group. */
  partitionOf(groupId: string): number;
  /** Called when a rebalance completes (the group reaches Stable). */
  onRebalanceCompleted(group: Group): void;
}

/**
 * The error a client gets when a coordinator write fails. A storage problem of the offsets
 * partition means "this coordinator cannot serve the group now" (COORDINATOR_NOT_AVAILABLE, which
 * clients answer by finding the coordinator again); a batch too large for the log is the
 * commit's fault (INVALID_COMMIT_OFFSET_SIZE).
 */
export function coordinatorWriteError(error: unknown): number {
  if (!(error instanceof WeirError)) return ErrorCode.UNKNOWN_SERVER_ERROR;
  switch (error.code) {
    case ErrorCode.KAFKA_STORAGE_ERROR:
    case ErrorCode.UNKNOWN_TOPIC_OR_PARTITION:
    case ErrorCode.NOT_LEADER_OR_FOLLOWER:
      return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    case ErrorCode.MESSAGE_TOO_LARGE:
    case ErrorCode.RECORD_LIST_TOO_LARGE:
      return ErrorCode.INVALID_COMMIT_OFFSET_SIZE;
    default:
      return error.code;
  }
}
