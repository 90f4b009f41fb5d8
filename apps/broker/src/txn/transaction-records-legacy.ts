import { Reader } from '@weir/protocol';
import type { TopicPartitionRef } from './transaction-contracts';
import { partitionKey, type StagedOffset, type TransactionMetadata } from './transaction-metadata';
import { isTransactionState } from './transaction-state';

/**
 * The value layout Weir wrote to `__transaction_state` before Kafka's (docs/kafka-compat.md §6.7),
 * kept only to upgrade older data directories: a shard that replays one of these rewrites its
 * state in Kafka's layout (transaction-records.ts), so nothing writes this layout any more.
 * Big-endian: int16 version 0, int64 producer id, int16 producer epoch, int32 timeout ms, string
 * state (Kafka's name), int64 start time ms (-1: no transaction), int64 last update ms, int32
 * partition count, then per partition: string topic, int32 partition; int32 group count, then per
 * group: string group id, int32 offset count, then per offset: string topic, int32 partition,
 * int64 offset, int32 leader epoch, nullable string metadata.
 */

export const LEGACY_TRANSACTION_VALUE_VERSION = 0;

/** Undefined for a state name this broker does not know; throws a DecodeError for bytes that lie. */
export function decodeLegacyTransactionValue(
  transactionalId: string,
  bytes: Uint8Array,
): TransactionMetadata | undefined {
  const reader = new Reader(bytes);
  if (reader.int16() !== LEGACY_TRANSACTION_VALUE_VERSION) return undefined;
  const producerId = reader.int64();
  const producerEpoch = reader.int16();
  const timeoutMs = reader.int32();
  const state = reader.string();
  if (!isTransactionState(state)) return undefined;
  const startTimeMs = Number(reader.int64());
  const lastUpdateMs = Number(reader.int64());
  const partitions = new Map<string, TopicPartitionRef>();
  const partitionCount = reader.int32();
  for (let index = 0; index < partitionCount; index++) {
    const partition = { topic: reader.string(), partition: reader.int32() };
    partitions.set(partitionKey(partition), partition);
  }
  const offsetGroups = new Map<string, Map<string, StagedOffset>>();
  const groupCount = reader.int32();
  for (let index = 0; index < groupCount; index++) {
    const groupId = reader.string();
    const offsets = new Map<string, StagedOffset>();
    const offsetCount = reader.int32();
    for (let entry = 0; entry < offsetCount; entry++) {
      const staged: StagedOffset = {
        topic: reader.string(),
        partition: reader.int32(),
        offset: Number(reader.int64()),
        leaderEpoch: reader.int32(),
        metadata: reader.nullableString(),
      };
      offsets.set(partitionKey(staged), staged);
    }
    offsetGroups.set(groupId, offsets);
  }
  reader.expectEnd('a transaction value in the earlier layout');
  return {
    transactionalId,
    producerId,
    producerEpoch,
    timeoutMs,
    state,
    partitions,
    offsetGroups,
    startTimeMs,
    lastUpdateMs,
  };
}
