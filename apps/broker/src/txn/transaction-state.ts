import { TRANSACTIONAL_ID_STATES, type TransactionalIdState } from '@weir/protocol';

/**
 * The states of a transactional id, with Kafka's names (KIP-98): they are what DescribeTransactions
 * and ListTransactions report, so tools that know Kafka read them unchanged.
 *
 * - Empty: the producer is initialised and has no transaction open.
 * - Ongoing: partitions or consumer groups were added; data may be in the logs.
 * - PrepareCommit / PrepareAbort: the decision is durable in `__transaction_state`; markers and
 *   staged offsets are being written. Requests for the id get CONCURRENT_TRANSACTIONS meanwhile.
 * - CompleteCommit / CompleteAbort: every marker is written and the outcome is recorded.
 * - Dead: the id expired (`transactional.id.expiration.ms`); a tombstone is written and it is dropped.
 * - PrepareEpochFence: an open transaction is being fenced (InitProducerId from a new producer, or
 *   the transaction timed out): the epoch is bumped and the abort follows immediately.
 */
export type TransactionState = TransactionalIdState;

/** The wire's state names, defined once in the protocol package (the console shows the same). */
export const TRANSACTION_STATES: readonly TransactionState[] = TRANSACTIONAL_ID_STATES;

/**
 * The transition table, as the states a transaction may come *from* (Kafka's "valid previous
 * states"). Anything else is a coordinator bug.
 */
const VALID_PREVIOUS_STATES: Readonly<Record<TransactionState, readonly TransactionState[]>> = {
  // InitProducerId on a new id, or on an id whose last transaction finished (the epoch is bumped).
  Empty: ['Empty', 'CompleteCommit', 'CompleteAbort'],
  // AddPartitionsToTxn or AddOffsetsToTxn: the first one starts the transaction, later ones extend it.
  Ongoing: ['Ongoing', 'Empty', 'CompleteCommit', 'CompleteAbort'],
  // EndTxn(commit).
  PrepareCommit: ['Ongoing'],
  // EndTxn(abort), or the abort that follows a fence.
  PrepareAbort: ['Ongoing', 'PrepareEpochFence'],
  // Markers written and staged offsets applied.
  CompleteCommit: ['PrepareCommit'],
  // Markers written; staged offsets dropped.
  CompleteAbort: ['PrepareAbort'],
  // Expired after `transactional.id.expiration.ms` without a transaction.
  Dead: ['Empty', 'CompleteCommit', 'CompleteAbort'],
  // InitProducerId from a newer producer, or the transaction timeout passed.
  PrepareEpochFence: ['Ongoing'],
};

/** A transition the table does not allow: always a coordinator bug, never a client's fault. */
export class IllegalTransactionTransitionError extends Error {
  constructor(
    readonly transactionalId: string,
    readonly from: TransactionState,
    readonly to: TransactionState,
  ) {
    super(`transaction "${transactionalId}" cannot move from ${from} to ${to}`);
    this.name = 'IllegalTransactionTransitionError';
  }
}

export function canTransition(from: TransactionState, to: TransactionState): boolean {
  return VALID_PREVIOUS_STATES[to].includes(from);
}

/** Throws {@link IllegalTransactionTransitionError} unless the table allows `from` → `to`. */
export function assertTransition(
  transactionalId: string,
  from: TransactionState,
  to: TransactionState,
): void {
  if (!canTransition(from, to)) throw new IllegalTransactionTransitionError(transactionalId, from, to);
}

/** States in which markers or offsets are being written: other requests must wait (CONCURRENT_TRANSACTIONS). */
export function isCompleting(state: TransactionState): boolean {
  return state === 'PrepareCommit' || state === 'PrepareAbort' || state === 'PrepareEpochFence';
}

/** States without an open transaction: a new InitProducerId or transaction may start, or the id may expire. */
export function isIdle(state: TransactionState): boolean {
  return state === 'Empty' || state === 'CompleteCommit' || state === 'CompleteAbort';
}

export function isTransactionState(value: string): value is TransactionState {
  return (TRANSACTION_STATES as readonly string[]).includes(value);
}
