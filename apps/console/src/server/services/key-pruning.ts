import { partitionForKey, type RecordFilter } from '@weir/protocol';

/*
 * Key → partition pruning. Producers with the default partitioner (the Java client's, kafkajs's
 * and our SDK's) put a keyed record on murmur2(key) % partitions, so a search for one exact key
 * needs to read only that partition. The broker cannot know which partitioner wrote a topic, and
 * records written before partitions were added hashed over the old count, so pruning is a default
 * that the search states and that the caller can turn off (`allPartitions`).
 */

/** The one partition a key search was narrowed to. */
export interface KeyPruning {
  readonly partition: number;
  readonly partitionCount: number;
}

const encoder = new TextEncoder();

/** The key of the first `key:equals` filter: filters compare UTF-8 bytes, and so does the hash. */
export function exactKeyOf(filters: readonly RecordFilter[]): string | undefined {
  return filters.find((filter) => filter.field === 'key' && filter.operator === 'equals')?.value;
}

/**
 * Narrows the partitions a search would read to the key's partition. Nothing changes when the key
 * hashes to a partition outside the selection: the caller chose those partitions explicitly.
 */
export function pruneToKeyPartition(
  candidates: readonly number[],
  key: string,
  partitionCount: number,
): { partitions: readonly number[]; pruning: KeyPruning | null } {
  const partition = partitionForKey(encoder.encode(key), partitionCount);
  if (!candidates.includes(partition)) return { partitions: candidates, pruning: null };
  return { partitions: [partition], pruning: { partition, partitionCount } };
}
