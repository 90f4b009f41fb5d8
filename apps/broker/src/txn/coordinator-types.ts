import { ErrorCode } from '@weir/protocol';
import type { CoordinatorLogger } from '../coordination/coordinator-shards';
import type { PartitionCatalog } from '../group/coordinator-context';
import type { GroupScheduler } from '../group/group-scheduler';
import type { TransactionOffsetsSink } from './transaction-completion';
import type { TransactionMarkerWriter } from './transaction-contracts';
import type { TransactionLogSource, TransactionStore } from './transaction-log';
import { partitionKey, type StagedOffset } from './transaction-metadata';
import type { TransactionObserver } from './transaction-table';

/*
 * The transaction coordinator's configuration, dependencies and request shapes, and the staging
 * of TxnOffsetCommit offsets.
 */

/** The coordinator's settings (the broker's `transactions` config). */
export interface TransactionCoordinatorConfig {
  /** transaction.max.timeout.ms: longer InitProducerId timeouts get INVALID_TRANSACTION_TIMEOUT. */
  maxTimeoutMs: number;
  /** transactional.id.expiration.ms: idle ids are forgotten after this long without a request. */
  idExpirationMs: number;
  /** transaction.abort.timed.out.transaction.cleanup.interval.ms; the id expiry runs on it too. */
  abortTimedOutCheckIntervalMs: number;
  /** How long a completion whose markers or offsets failed waits before it is tried again. */
  completionRetryMs: number;
}

export interface TransactionCoordinatorDeps {
  config: TransactionCoordinatorConfig;
  store: TransactionStore;
  scheduler: GroupScheduler;
  logger: CoordinatorLogger;
  markers: TransactionMarkerWriter;
  offsets: TransactionOffsetsSink;
  catalog: Pick<PartitionCatalog, 'hasPartition'>;
  observer: TransactionObserver;
  /** A fresh producer id from the broker's allocator (the same one idempotent producers use). */
  allocateProducerId(): Promise<bigint>;
  /** Where a shard is replayed from when this broker gains its partition. */
  source: TransactionLogSource;
}

/** A request's claim to be the current producer of a transactional id. */
export interface ProducerClaim {
  transactionalId: string;
  producerId: bigint;
  producerEpoch: number;
}

export interface InitProducerIdOutcome {
  errorCode: number;
  producerId: bigint;
  producerEpoch: number;
}

/** TxnOffsetCommit's offsets, by topic as the wire carries them. */
export type StageOffsetsTopics = {
  name: string;
  partitions: { partitionIndex: number; offset: number; leaderEpoch: number; metadata: string | null }[];
}[];

export type PartitionErrors = { name: string; partitions: { partitionIndex: number; errorCode: number }[] }[];

/** Kafka's offset.metadata.max.bytes, as the group coordinator enforces it on plain commits. */
const MAX_OFFSET_METADATA_BYTES = 4096;

/**
 * Stages TxnOffsetCommit offsets into a group's map (a copy about to be persisted); returns the
 * error of each refused partition by partition key. A later offset for a partition replaces the
 * earlier one, as a later plain commit would.
 */
export function stageOffsets(
  staged: Map<string, StagedOffset>,
  topics: StageOffsetsTopics,
  catalog: Pick<PartitionCatalog, 'hasPartition'>,
): Map<string, number> {
  const errors = new Map<string, number>();
  for (const topic of topics) {
    for (const partition of topic.partitions) {
      const ref = { topic: topic.name, partition: partition.partitionIndex };
      const key = partitionKey(ref);
      if (!catalog.hasPartition(ref.topic, ref.partition)) {
        errors.set(key, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
      } else if (Buffer.byteLength(partition.metadata ?? '') > MAX_OFFSET_METADATA_BYTES) {
        errors.set(key, ErrorCode.OFFSET_METADATA_TOO_LARGE);
      } else {
        const { offset, leaderEpoch, metadata } = partition;
        staged.set(key, { ...ref, offset, leaderEpoch, metadata });
      }
    }
  }
  return errors;
}
