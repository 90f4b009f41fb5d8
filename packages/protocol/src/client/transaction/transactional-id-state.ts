/**
 * The states of a transactional id at its coordinator, with Kafka's names (KIP-98): what
 * ListTransactions and DescribeTransactions report, and what ListTransactions' state filter takes.
 * Not to be confused with `TransactionState` (transaction-state.ts), the states of the SDK's own
 * transactional producer.
 *
 * - Empty: the producer is initialised and has no transaction open.
 * - Ongoing: partitions or consumer groups were added; data may be in the logs.
 * - PrepareCommit / PrepareAbort: the decision is durable; markers and staged offsets are being
 *   written.
 * - CompleteCommit / CompleteAbort: every marker is written and the outcome is recorded.
 * - Dead: the id expired and is being dropped.
 * - PrepareEpochFence: an open transaction is being fenced; the abort follows.
 *
 * This file imports nothing: the browser-safe entry (src/names.ts) exports the list.
 */
export const TRANSACTIONAL_ID_STATES = [
  'Empty',
  'Ongoing',
  'PrepareCommit',
  'PrepareAbort',
  'CompleteCommit',
  'CompleteAbort',
  'Dead',
  'PrepareEpochFence',
] as const;
export type TransactionalIdState = (typeof TRANSACTIONAL_ID_STATES)[number];
