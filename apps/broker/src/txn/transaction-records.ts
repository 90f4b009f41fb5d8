import {
  decodeTransactionLogValue,
  encodeTransactionLogValue,
  Reader,
  type TransactionLogValueFields,
  Writer,
} from '@weir/protocol';
import type { TopicPartitionRef } from './transaction-contracts';
import { partitionKey, type StagedOffset, type TransactionMetadata } from './transaction-metadata';
import { decodeLegacyTransactionValue, LEGACY_TRANSACTION_VALUE_VERSION } from './transaction-records-legacy';
import type { TransactionState } from './transaction-state';

/**
 * The records of `__transaction_state` in Kafka's layout (its TransactionLogKey and
 * TransactionLogValue schemas), so tools that read the topic parse them. Big-endian, Kafka's
 * primitive encodings.
 *
 * Key: TransactionLogKey v0, the only version Kafka defines: int16 version 0, string transactional
 * id (int16 length + UTF-8). Weir's earlier layout had the same bytes.
 *
 * Value: null is a tombstone (the id expired); otherwise TransactionLogValue v1
 * (@weir/protocol's transaction-log-value.ts): int64 producer id, int16 producer epoch, int32
 * timeout ms, int8 state (Kafka's ids, {@link STATE_IDS}), the partitions grouped by topic (null
 * when the state is Empty, as Kafka writes it), int64 last update ms, int64 start ms (-1: no
 * transaction), then the tagged fields.
 *
 * Why version 1 when Kafka 3.9 writes version 0: Weir stages TxnOffsetCommit offsets in the
 * transaction's value (Kafka writes them to `__consumer_offsets` as transactional records that
 * the markers commit), and a PrepareCommit found at start must still apply them, so they must be
 * durable together with the decision. Version 0 has no room for them; version 1 is flexible, and
 * Weir carries them in a tagged field of its own (WEIR_STAGED_OFFSETS_TAG) that Kafka's readers
 * skip. Kafka's reader accepts version 1 from 3.6 on (KIP-915 made it the first flexible
 * version), and 3.9's own reader reads both. Version 1 also keeps version 0 unambiguous: under
 * this key, value version 0 in a Weir log is always Weir's earlier layout
 * (transaction-records-legacy.ts), since Weir never wrote Kafka's version 0. Such records are
 * "outdated": a shard that replays one rewrites its state in the current layout before it serves
 * (transaction-shard.ts), and compaction removes the old records.
 *
 * A later record for the same key replaces an earlier one. Keys and values of a version this
 * broker does not know decode to undefined and are skipped when loading (a newer writer), instead
 * of failing the whole load.
 */

const TRANSACTION_KEY_VERSION = 0;

/** Kafka's TransactionState ids (its TransactionMetadata's `id` of each state). */
export const STATE_IDS: Readonly<Record<TransactionState, number>> = {
  Empty: 0,
  Ongoing: 1,
  PrepareCommit: 2,
  PrepareAbort: 3,
  CompleteCommit: 4,
  CompleteAbort: 5,
  Dead: 6,
  PrepareEpochFence: 7,
};

const STATES_BY_ID = new Map<number, TransactionState>(
  Object.entries(STATE_IDS).map(([state, id]) => [id, state as TransactionState]),
);

export interface TransactionRecord {
  transactionalId: string;
  /** Null for a tombstone. */
  value: TransactionMetadata | null;
}

export function encodeTransactionRecord(record: TransactionRecord): { key: Buffer; value: Buffer | null } {
  const key = new Writer(64).int16(TRANSACTION_KEY_VERSION).string(record.transactionalId);
  return { key: Buffer.from(key.finish()), value: record.value && encodeValue(record.value) };
}

function encodeValue(metadata: TransactionMetadata): Buffer {
  return encodeTransactionLogValue({
    producerId: metadata.producerId,
    producerEpoch: metadata.producerEpoch,
    transactionTimeoutMs: metadata.timeoutMs,
    transactionStatus: STATE_IDS[metadata.state],
    transactionPartitions: metadata.state === 'Empty' ? null : partitionsByTopic(metadata.partitions),
    transactionLastUpdateTimestampMs: BigInt(metadata.lastUpdateMs),
    transactionStartTimestampMs: BigInt(metadata.startTimeMs),
    stagedOffsets: [...metadata.offsetGroups].map(([groupId, offsets]) => ({
      groupId,
      offsets: [...offsets.values()].map((staged) => ({
        topic: staged.topic,
        partition: staged.partition,
        offset: BigInt(staged.offset),
        leaderEpoch: staged.leaderEpoch,
        metadata: staged.metadata,
      })),
    })),
  });
}

/** Kafka groups a transaction's partitions by topic, in the order the topics first appear. */
function partitionsByTopic(
  partitions: ReadonlyMap<string, TopicPartitionRef>,
): { topic: string; partitionIds: number[] }[] {
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of partitions.values()) {
    const ids = byTopic.get(topic);
    if (ids) ids.push(partition);
    else byTopic.set(topic, [partition]);
  }
  return [...byTopic].map(([topic, partitionIds]) => ({ topic, partitionIds }));
}

/**
 * Whether a stored record is in the layout Weir wrote before Kafka's (a value of version 0; the
 * key never changed). Tombstones are the same in both.
 */
export function isOutdatedTransactionRecord(_key: Uint8Array, value: Uint8Array | null): boolean {
  return (
    value !== null && value.length >= 2 && ((value[0]! << 8) | value[1]!) === LEGACY_TRANSACTION_VALUE_VERSION
  );
}

/**
 * Decodes one record. Returns undefined for a key or value version this broker does not know (or
 * a state id it does not know); throws a DecodeError for bytes that do not match their declared
 * layout.
 */
export function decodeTransactionRecord(
  key: Uint8Array,
  value: Uint8Array | null,
): TransactionRecord | undefined {
  const reader = new Reader(key);
  if (reader.int16() !== TRANSACTION_KEY_VERSION) return undefined;
  const transactionalId = reader.string();
  reader.expectEnd('a transaction key');
  if (value === null) return { transactionalId, value: null };
  const decoded = isOutdatedTransactionRecord(key, value)
    ? decodeLegacyTransactionValue(transactionalId, value)
    : decodeValue(transactionalId, value);
  return decoded && { transactionalId, value: decoded };
}

function decodeValue(transactionalId: string, bytes: Uint8Array): TransactionMetadata | undefined {
  const value = decodeTransactionLogValue(bytes);
  if (!value) return undefined;
  const state = STATES_BY_ID.get(value.transactionStatus);
  if (state === undefined) return undefined;
  return {
    transactionalId,
    producerId: value.producerId,
    producerEpoch: value.producerEpoch,
    timeoutMs: value.transactionTimeoutMs,
    state,
    // As Kafka's reader, an Empty transaction has no partitions whatever the record says.
    partitions: state === 'Empty' ? new Map() : partitionMap(value),
    offsetGroups: offsetGroupMap(value),
    startTimeMs: Number(value.transactionStartTimestampMs),
    lastUpdateMs: Number(value.transactionLastUpdateTimestampMs),
  };
}

function partitionMap(value: TransactionLogValueFields): Map<string, TopicPartitionRef> {
  const partitions = new Map<string, TopicPartitionRef>();
  for (const { topic, partitionIds } of value.transactionPartitions ?? []) {
    for (const partition of partitionIds)
      partitions.set(partitionKey({ topic, partition }), { topic, partition });
  }
  return partitions;
}

function offsetGroupMap(value: TransactionLogValueFields): Map<string, Map<string, StagedOffset>> {
  const groups = new Map<string, Map<string, StagedOffset>>();
  for (const { groupId, offsets } of value.stagedOffsets) {
    const staged = new Map<string, StagedOffset>();
    for (const entry of offsets) {
      staged.set(partitionKey(entry), {
        topic: entry.topic,
        partition: entry.partition,
        offset: Number(entry.offset),
        leaderEpoch: entry.leaderEpoch,
        metadata: entry.metadata,
      });
    }
    groups.set(groupId, staged);
  }
  return groups;
}
