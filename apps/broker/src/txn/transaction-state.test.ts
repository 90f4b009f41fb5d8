import { describe, expect, it } from 'vitest';
import {
  assertTransition,
  canTransition,
  IllegalTransactionTransitionError,
  isCompleting,
  isIdle,
  TRANSACTION_STATES,
  type TransactionState,
} from './transaction-state';

/** Every allowed move, written out once more so a change to the table has to change this too. */
const ALLOWED: readonly [TransactionState, TransactionState][] = [
  ['Empty', 'Empty'],
  ['CompleteCommit', 'Empty'],
  ['CompleteAbort', 'Empty'],
  ['Empty', 'Ongoing'],
  ['Ongoing', 'Ongoing'],
  ['CompleteCommit', 'Ongoing'],
  ['CompleteAbort', 'Ongoing'],
  ['Ongoing', 'PrepareCommit'],
  ['Ongoing', 'PrepareAbort'],
  ['PrepareEpochFence', 'PrepareAbort'],
  ['PrepareCommit', 'CompleteCommit'],
  ['PrepareAbort', 'CompleteAbort'],
  ['Empty', 'Dead'],
  ['CompleteCommit', 'Dead'],
  ['CompleteAbort', 'Dead'],
  ['Ongoing', 'PrepareEpochFence'],
];

describe('transaction state table', () => {
  it('allows exactly the listed transitions', () => {
    const allowed = new Set(ALLOWED.map(([from, to]) => `${from}->${to}`));
    for (const from of TRANSACTION_STATES) {
      for (const to of TRANSACTION_STATES) {
        expect(canTransition(from, to), `${from} -> ${to}`).toBe(allowed.has(`${from}->${to}`));
      }
    }
  });

  it('throws on an illegal transition, naming the id and both states', () => {
    expect(() => assertTransition('tx', 'PrepareCommit', 'PrepareAbort')).toThrow(
      IllegalTransactionTransitionError,
    );
    expect(() => assertTransition('tx', 'Dead', 'Empty')).toThrow('"tx" cannot move from Dead to Empty');
    expect(() => assertTransition('tx', 'Ongoing', 'PrepareCommit')).not.toThrow();
  });

  it('never leaves Dead and never skips the prepare step', () => {
    for (const to of TRANSACTION_STATES) expect(canTransition('Dead', to)).toBe(false);
    expect(canTransition('Ongoing', 'CompleteCommit')).toBe(false);
    expect(canTransition('Ongoing', 'CompleteAbort')).toBe(false);
  });

  it('classifies completing and idle states', () => {
    expect(TRANSACTION_STATES.filter(isCompleting)).toEqual([
      'PrepareCommit',
      'PrepareAbort',
      'PrepareEpochFence',
    ]);
    expect(TRANSACTION_STATES.filter(isIdle)).toEqual(['Empty', 'CompleteCommit', 'CompleteAbort']);
  });
});
