import { Reader } from '../codec/reader';
import { Writer } from '../codec/writer';
import { field, type StructInput, type StructValue, struct } from '../schema/struct';
import { array, int8, int16, int32, int64, string } from '../schema/types';

/**
 * The value of a `__transaction_state` record in Kafka's layout: its transaction-coordinator
 * message definition TransactionLogValue, which Kafka 3.9 defines at versions 0 (non-flexible) and
 * 1 (the first flexible one, KIP-915). Kafka 3.9 itself writes version 0 until the
 * transaction.version feature reaches 1 (which needs metadata version 4.0), and its reader takes
 * both, skipping tagged fields it does not know. The key (TransactionLogKey v0: int16 version 0,
 * string transactional id) is the broker's business (apps/broker/src/txn/transaction-records.ts).
 *
 * Weir writes version 1 with one tagged field of its own, {@link WEIR_STAGED_OFFSETS_TAG}: the
 * group offsets a transaction staged with TxnOffsetCommit, which Kafka instead writes to
 * `__consumer_offsets` as transactional records. The tag is far above the ones Kafka uses (4.0
 * defines 0–2: previous and next producer id, client transaction version), so Kafka's readers skip
 * it; it is written only when the transaction has staged offsets, so a value without them is
 * byte for byte what Kafka's version 1 writer would produce.
 */

/** Weir's tagged field of TransactionLogValue v1: the staged TxnOffsetCommit offsets. */
export const WEIR_STAGED_OFFSETS_TAG = 10_000;

/** The value version Weir writes (flexible, so the staged offsets fit in a tagged field). */
export const TRANSACTION_LOG_VALUE_VERSION = 1;

const stagedOffset = struct({
  topic: field(string),
  partition: field(int32),
  offset: field(int64),
  leaderEpoch: field(int32),
  metadata: field(string, { nullable: '0+' }),
});

/** Kafka 3.9's TransactionLogValue, plus Weir's tagged staged offsets. */
export const TransactionLogValue = struct({
  producerId: field(int64),
  producerEpoch: field(int16),
  transactionTimeoutMs: field(int32),
  /** Kafka's TransactionState id: Empty 0, Ongoing 1, PrepareCommit 2, PrepareAbort 3, CompleteCommit 4, CompleteAbort 5, Dead 6, PrepareEpochFence 7. */
  transactionStatus: field(int8),
  /** Null when the state is Empty (Kafka writes null there, and reads partitions only otherwise). */
  transactionPartitions: field(array(struct({ topic: field(string), partitionIds: field(array(int32)) })), {
    nullable: '0+',
  }),
  transactionLastUpdateTimestampMs: field(int64),
  transactionStartTimestampMs: field(int64),
  stagedOffsets: field(array(struct({ groupId: field(string), offsets: field(array(stagedOffset)) })), {
    versions: '1+',
    tag: WEIR_STAGED_OFFSETS_TAG,
  }),
});

export type TransactionLogValueFields = StructValue<typeof TransactionLogValue.fields>;

export function encodeTransactionLogValue(value: StructInput<typeof TransactionLogValue.fields>): Buffer {
  const writer = new Writer(128);
  writer.int16(TRANSACTION_LOG_VALUE_VERSION);
  TransactionLogValue.write(writer, value, true, TRANSACTION_LOG_VALUE_VERSION);
  return Buffer.from(writer.finish());
}

/**
 * Decodes a value of version 1, or returns undefined for another version (version 0 in a Weir log
 * is Weir's earlier layout, see transaction-records.ts; higher ones a newer writer's); throws a
 * DecodeError for bytes that do not match the layout.
 */
export function decodeTransactionLogValue(bytes: Uint8Array): TransactionLogValueFields | undefined {
  const reader = new Reader(bytes);
  if (reader.int16() !== TRANSACTION_LOG_VALUE_VERSION) return undefined;
  const value = TransactionLogValue.read(reader, true, TRANSACTION_LOG_VALUE_VERSION);
  reader.expectEnd('a transaction log value');
  return value;
}
