import type { TopicPartitionRef } from './transaction-contracts';
import { assertTransition, type TransactionState } from './transaction-state';

/** No transaction open: the start time of an idle transactional id. */
export const NO_START_TIME = -1;

/** The largest producer epoch (int16); the next InitProducerId moves to a new producer id. */
export const MAX_PRODUCER_EPOCH = 32767;

/** An offset sent with TxnOffsetCommit: applied to its group on commit, dropped on abort. */
export interface StagedOffset extends TopicPartitionRef {
  readonly offset: number;
  /** -1 when the client did not send one (TxnOffsetCommit < v2). */
  readonly leaderEpoch: number;
  readonly metadata: string | null;
}

/**
 * What the coordinator keeps per transactional id (Kafka's TransactionMetadata). Instances are
 * replaced, never edited in place once installed: a change is made on a copy, written to
 * `__transaction_state`, and only then installed, so a failed write leaves the old state intact.
 */
export interface TransactionMetadata {
  readonly transactionalId: string;
  producerId: bigint;
  producerEpoch: number;
  timeoutMs: number;
  state: TransactionState;
  /** The partitions added to the open transaction, by {@link partitionKey}. */
  partitions: Map<string, TopicPartitionRef>;
  /** Consumer groups added with AddOffsetsToTxn, each with the offsets staged for it by partition key. */
  offsetGroups: Map<string, Map<string, StagedOffset>>;
  /** When the open transaction began (its first AddPartitions/AddOffsets), or {@link NO_START_TIME}. */
  startTimeMs: number;
  lastUpdateMs: number;
}

export function partitionKey(partition: TopicPartitionRef): string {
  return `${partition.topic}\u0000${partition.partition}`;
}

export function newTransactionMetadata(
  transactionalId: string,
  fields: { producerId: bigint; producerEpoch: number; timeoutMs: number; nowMs: number },
): TransactionMetadata {
  return {
    transactionalId,
    producerId: fields.producerId,
    producerEpoch: fields.producerEpoch,
    timeoutMs: fields.timeoutMs,
    state: 'Empty',
    partitions: new Map(),
    offsetGroups: new Map(),
    startTimeMs: NO_START_TIME,
    lastUpdateMs: fields.nowMs,
  };
}

/** A deep copy to change and persist before it replaces the installed metadata. */
export function copyMetadata(metadata: TransactionMetadata): TransactionMetadata {
  return {
    ...metadata,
    partitions: new Map(metadata.partitions),
    offsetGroups: new Map([...metadata.offsetGroups].map(([group, offsets]) => [group, new Map(offsets)])),
  };
}

/**
 * Moves `metadata` to `to`, asserting the transition table. Reaching an idle state clears what
 * belonged to the finished transaction; starting one records its start time.
 */
export function transition(metadata: TransactionMetadata, to: TransactionState, nowMs: number): void {
  assertTransition(metadata.transactionalId, metadata.state, to);
  if (to === 'Ongoing' && metadata.state !== 'Ongoing') metadata.startTimeMs = nowMs;
  if (to === 'Empty' || to === 'CompleteCommit' || to === 'CompleteAbort') {
    metadata.partitions = new Map();
    metadata.offsetGroups = new Map();
    metadata.startTimeMs = NO_START_TIME;
  }
  metadata.state = to;
  metadata.lastUpdateMs = nowMs;
}

/** The staged offsets of every group, grouped by topic as the group coordinator takes them. */
export function stagedOffsetsByGroup(
  metadata: TransactionMetadata,
): { groupId: string; offsets: StagedOffset[] }[] {
  return [...metadata.offsetGroups]
    .filter(([, offsets]) => offsets.size > 0)
    .map(([groupId, offsets]) => ({ groupId, offsets: [...offsets.values()] }));
}
