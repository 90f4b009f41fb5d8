import { Reader, Writer } from '@weir/protocol';
import type { TopicPartitionRef } from './transaction-contracts';
import { partitionKey, type StagedOffset, type TransactionMetadata } from './transaction-metadata';
import { isTransactionState } from './transaction-state';

/**
 * The records of `__transaction_state`: Weir's own versioned binary layout (Kafka's one record per
 * transactional id is the model; the bytes are not Kafka's). Big-endian, with Kafka's primitive
 * encodings: strings are int16 length + UTF-8 (-1 = null).
 *
 * Key: int16 key type 0, string transactional id.
 *
 * Value — null is a tombstone (the id expired); otherwise an int16 value version first:
 *   v0: int64 producer id, int16 producer epoch, int32 timeout ms, string state (Kafka's name),
 *       int64 start time ms (-1: no transaction), int64 last update ms,
 *       int32 partition count, then per partition: string topic, int32 partition,
 *       int32 group count, then per group: string group id, int32 offset count, then per offset:
 *       string topic, int32 partition, int64 offset, int32 leader epoch, nullable string metadata.
 *
 * Staged offsets are part of the value because a PrepareCommit found at start must still apply
 * them. A later record for the same key replaces an earlier one. Keys of an unknown type and
 * values of an unknown version decode to undefined and are skipped when loading (a newer broker
 * wrote them) instead of failing the whole load.
 */

const TRANSACTION_KEY_TYPE = 0;
const TRANSACTION_VALUE_VERSION = 0;

export interface TransactionRecord {
  transactionalId: string;
  /** Null for a tombstone. */
  value: TransactionMetadata | null;
}

export function encodeTransactionRecord(record: TransactionRecord): { key: Buffer; value: Buffer | null } {
  const key = new Writer(64).int16(TRANSACTION_KEY_TYPE).string(record.transactionalId);
  return { key: Buffer.from(key.finish()), value: record.value && encodeValue(record.value) };
}

function encodeValue(metadata: TransactionMetadata): Buffer {
  const writer = new Writer(128);
  writer
    .int16(TRANSACTION_VALUE_VERSION)
    .int64(metadata.producerId)
    .int16(metadata.producerEpoch)
    .int32(metadata.timeoutMs)
    .string(metadata.state)
    .int64(BigInt(metadata.startTimeMs))
    .int64(BigInt(metadata.lastUpdateMs))
    .int32(metadata.partitions.size);
  for (const partition of metadata.partitions.values()) {
    writer.string(partition.topic).int32(partition.partition);
  }
  writer.int32(metadata.offsetGroups.size);
  for (const [groupId, offsets] of metadata.offsetGroups) {
    writer.string(groupId).int32(offsets.size);
    for (const staged of offsets.values()) {
      writer
        .string(staged.topic)
        .int32(staged.partition)
        .int64(BigInt(staged.offset))
        .int32(staged.leaderEpoch)
        .nullableString(staged.metadata);
    }
  }
  return Buffer.from(writer.finish());
}

/**
 * Decodes one record. Returns undefined for a key type or value version this broker does not know;
 * throws a DecodeError for bytes that do not match their declared layout.
 */
export function decodeTransactionRecord(
  key: Uint8Array,
  value: Uint8Array | null,
): TransactionRecord | undefined {
  const reader = new Reader(key);
  if (reader.int16() !== TRANSACTION_KEY_TYPE) return undefined;
  const transactionalId = reader.string();
  reader.expectEnd('a transaction key');
  if (value === null) return { transactionalId, value: null };
  const decoded = decodeValue(transactionalId, value);
  return decoded && { transactionalId, value: decoded };
}

function decodeValue(transactionalId: string, bytes: Uint8Array): TransactionMetadata | undefined {
  const reader = new Reader(bytes);
  if (reader.int16() !== TRANSACTION_VALUE_VERSION) return undefined;
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
  reader.expectEnd('a transaction value');
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
