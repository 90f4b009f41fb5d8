import type { TopicPartitionRef } from './transaction-contracts';
import type { StagedOffset, TransactionMetadata } from './transaction-metadata';
import type { TransactionState } from './transaction-state';

/** A transactional id as operators see it (DescribeTransactions, the console). Plain data. */
export interface TransactionView {
  transactionalId: string;
  state: TransactionState;
  producerId: bigint;
  producerEpoch: number;
  timeoutMs: number;
  /** -1 without an open transaction. */
  startTimeMs: number;
  lastUpdateMs: number;
  /** The partitions of the open transaction, by topic, partitions ascending. */
  topics: { topic: string; partitions: number[] }[];
  /** Consumer groups added to the open transaction, with their staged offsets. */
  groups: { groupId: string; offsets: StagedOffset[] }[];
}

export function viewOf(metadata: TransactionMetadata): TransactionView {
  return {
    transactionalId: metadata.transactionalId,
    state: metadata.state,
    producerId: metadata.producerId,
    producerEpoch: metadata.producerEpoch,
    timeoutMs: metadata.timeoutMs,
    startTimeMs: metadata.startTimeMs,
    lastUpdateMs: metadata.lastUpdateMs,
    topics: byTopic(metadata.partitions.values()),
    groups: [...metadata.offsetGroups].map(([groupId, offsets]) => ({
      groupId,
      offsets: [...offsets.values()],
    })),
  };
}

/** Partitions grouped by topic, topics and partitions sorted, for stable answers. */
export function byTopic(partitions: Iterable<TopicPartitionRef>): { topic: string; partitions: number[] }[] {
  const topics = new Map<string, number[]>();
  for (const { topic, partition } of partitions) {
    const list = topics.get(topic) ?? [];
    list.push(partition);
    topics.set(topic, list);
  }
  return [...topics]
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    .map(([topic, list]) => ({ topic, partitions: list.sort((left, right) => left - right) }));
}
