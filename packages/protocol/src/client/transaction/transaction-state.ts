/**
 * The states of a {@link TransactionalProducer}, as the Java client and kafkajs know them:
 * `uninitialized` until initTransactions, `ready` between transactions, `in-transaction` from
 * beginTransaction to commit or abort, `abortable` after a failure that only an abort can end,
 * `fatal` after fencing (another instance took over the transactional id), `closed` at the end.
 */
export type TransactionState =
  | 'uninitialized'
  | 'initializing'
  | 'ready'
  | 'in-transaction'
  | 'committing'
  | 'aborting'
  | 'abortable'
  | 'fatal'
  | 'closed';

/** Which state may follow which; anything else is a bug in the producer. */
export const TRANSACTION_TRANSITIONS: Readonly<Record<TransactionState, readonly TransactionState[]>> = {
  uninitialized: ['initializing', 'closed'],
  initializing: ['ready', 'uninitialized', 'fatal', 'closed'],
  ready: ['in-transaction', 'initializing', 'fatal', 'closed'],
  'in-transaction': ['committing', 'aborting', 'abortable', 'fatal', 'closed'],
  committing: ['ready', 'abortable', 'fatal', 'closed'],
  aborting: ['ready', 'abortable', 'fatal', 'closed'],
  abortable: ['aborting', 'fatal', 'closed'],
  fatal: ['closed'],
  closed: [],
};

export function canTransitionTransaction(from: TransactionState, to: TransactionState): boolean {
  return TRANSACTION_TRANSITIONS[from].includes(to);
}
