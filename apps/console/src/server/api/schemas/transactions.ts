import { TRANSACTIONAL_ID_STATES, type TransactionalIdState } from '@weir/protocol/names';
import { z } from 'zod';
import {
  actionPermissionSchema,
  asOfMsSchema,
  decimalSchema,
  pageLimitSchema,
  pageOffsetSchema,
  signedDecimalSchema,
  topicNameSchema,
} from './common';

/*
 * Transactions: the coordinator's view of transactional ids (ListTransactions +
 * DescribeTransactions), the producers each partition keeps state for (DescribeProducers), and the
 * gap a still-open transaction holds between a partition's last stable offset and its high
 * watermark. Producer ids and offsets are decimal strings; ages and timeouts are milliseconds.
 */

/** Kafka's transaction state names, as the coordinator reports them. */
export const transactionStateSchema = z.enum(TRANSACTIONAL_ID_STATES);

/** States in which a transaction is open: its records are not yet readable by read_committed consumers. */
export const OPEN_TRANSACTION_STATES: ReadonlySet<string> = new Set<TransactionalIdState>([
  'Ongoing',
  'PrepareCommit',
  'PrepareAbort',
  'PrepareEpochFence',
]);

export const transactionalIdSchema = z.string().min(1).max(32_767);

export const transactionSortKeySchema = z.enum(['age', 'id', 'state', 'partitions']);

export const transactionListInputSchema = z.object({
  /** Case-insensitive substring of the transactional id. */
  search: z.string().max(255).optional(),
  state: transactionStateSchema.optional(),
  /** Only transactions that are open (Ongoing, PrepareCommit, PrepareAbort, PrepareEpochFence). */
  openOnly: z.boolean().optional(),
  /** Only hanging transactions: open for longer than their own timeout. */
  hangingOnly: z.boolean().optional(),
  sortBy: transactionSortKeySchema.default('age'),
  /** Default: true for `age` (oldest first), false for the other keys. */
  descending: z.boolean().optional(),
  offset: pageOffsetSchema,
  limit: pageLimitSchema,
});

export const transactionRowSchema = z.object({
  transactionalId: z.string(),
  producerId: signedDecimalSchema,
  producerEpoch: z.number().int(),
  state: z.string(),
  open: z.boolean(),
  timeoutMs: z.number().int(),
  /** When the open transaction began (ms since the epoch); null when none is open. */
  startTimeMs: z.number().int().nullable(),
  /** `asOfMs − startTimeMs` for an open transaction, else null. */
  ageMs: z.number().int().nullable(),
  /** Open for longer than `timeoutMs`: the coordinator should have aborted it. */
  hanging: z.boolean(),
  partitionCount: z.number().int(),
  topics: z.array(z.string()),
});

export const transactionListSchema = z.object({
  asOfMs: asOfMsSchema,
  /** Transactions matching the filters, before paging. */
  totalCount: z.number().int(),
  /** Transactional ids per state over the whole (unfiltered) list. */
  stateCounts: z.record(z.string(), z.number().int()),
  openCount: z.number().int(),
  hangingCount: z.number().int(),
  transactions: z.array(transactionRowSchema),
});

export const transactionRefInputSchema = z.object({ transactionalId: transactionalIdSchema });

/** One partition of a transaction, with the transaction's producer there and the partition's offsets. */
export const transactionPartitionSchema = z.object({
  topic: z.string(),
  partition: z.number().int(),
  /** The first offset of this transaction on the partition (DescribeProducers); null when none is open there. */
  firstOffset: decimalSchema.nullable(),
  /** The producer's last sequence on the partition, -1 when it wrote only markers; null without state. */
  lastSequence: z.number().int().nullable(),
  lastTimestampMs: z.number().int().nullable(),
  /** Null when the partition could not be read (deleted topic, offline partition). */
  lastStableOffset: decimalSchema.nullable(),
  highWatermark: decimalSchema.nullable(),
  /** High watermark − last stable offset: records read_committed consumers cannot read yet. */
  gap: decimalSchema.nullable(),
  /** This transaction's first offset is the partition's last stable offset: it is what holds the LSO back. */
  holdsStableOffset: z.boolean(),
});

export const transactionDetailSchema = transactionRowSchema.extend({
  asOfMs: asOfMsSchema,
  partitions: z.array(transactionPartitionSchema),
  /** Only an open transaction can be aborted. */
  allowedActions: z.object({ abort: actionPermissionSchema }),
});

export const abortTransactionInputSchema = z.object({
  transactionalId: transactionalIdSchema,
  /** Logged by the broker with the console's principal. */
  reason: z.string().trim().min(1, 'a reason is required: the broker logs it with the abort').max(1000),
});

export const abortTransactionResultSchema = z.object({
  asOfMs: asOfMsSchema,
  transactionalId: z.string(),
  aborted: z.literal(true),
  /** The state after the abort (CompleteAbort once the markers are written). */
  state: z.string(),
  producerEpoch: z.number().int(),
});

export const topicProducersInputSchema = z.object({ topic: topicNameSchema });

export const partitionProducerSchema = z.object({
  producerId: signedDecimalSchema,
  producerEpoch: z.number().int(),
  /** -1 when the producer wrote only markers. */
  lastSequence: z.number().int(),
  lastTimestampMs: z.number().int(),
  /** The first offset of the producer's open transaction on the partition, or null. */
  openTransactionFirstOffset: decimalSchema.nullable(),
  /** The transactional id whose producer this is, when the coordinator knows one. */
  transactionalId: z.string().nullable(),
});

export const topicProducerPartitionSchema = z.object({
  partition: z.number().int(),
  lastStableOffset: decimalSchema,
  highWatermark: decimalSchema,
  gap: decimalSchema,
  producers: z.array(partitionProducerSchema),
});

export const topicProducersSchema = z.object({
  asOfMs: asOfMsSchema,
  topic: z.string(),
  partitions: z.array(topicProducerPartitionSchema),
});

export type TransactionState = z.infer<typeof transactionStateSchema>;
export type TransactionListInput = z.infer<typeof transactionListInputSchema>;
export type TransactionList = z.infer<typeof transactionListSchema>;
export type TransactionRow = z.infer<typeof transactionRowSchema>;
export type TransactionDetail = z.infer<typeof transactionDetailSchema>;
export type TransactionPartition = z.infer<typeof transactionPartitionSchema>;
export type AbortTransactionInput = z.infer<typeof abortTransactionInputSchema>;
export type AbortTransactionResult = z.infer<typeof abortTransactionResultSchema>;
export type TopicProducers = z.infer<typeof topicProducersSchema>;
export type PartitionProducerView = z.infer<typeof partitionProducerSchema>;
