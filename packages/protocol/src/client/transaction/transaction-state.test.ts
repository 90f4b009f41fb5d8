import { describe, expect, it } from 'vitest';
import {
  canTransitionTransaction,
  TRANSACTION_TRANSITIONS,
  type TransactionState,
} from './transaction-state';

describe('transactional producer states', () => {
  const states = Object.keys(TRANSACTION_TRANSITIONS) as TransactionState[];

  it('lets close follow every state but closed, which is final', () => {
    for (const state of states) {
      if (state === 'closed') continue;
      expect(canTransitionTransaction(state, 'closed')).toBe(true);
    }
    expect(TRANSACTION_TRANSITIONS.closed).toEqual([]);
  });

  it('leaves fatal only to close', () => {
    expect(TRANSACTION_TRANSITIONS.fatal).toEqual(['closed']);
  });

  it('reaches ready from an abortable transaction only through an abort', () => {
    expect(canTransitionTransaction('abortable', 'ready')).toBe(false);
    expect(canTransitionTransaction('abortable', 'committing')).toBe(false);
    expect(canTransitionTransaction('abortable', 'aborting')).toBe(true);
    expect(canTransitionTransaction('aborting', 'ready')).toBe(true);
  });

  it('needs initTransactions before the first transaction', () => {
    expect(canTransitionTransaction('uninitialized', 'in-transaction')).toBe(false);
    expect(canTransitionTransaction('initializing', 'ready')).toBe(true);
    expect(canTransitionTransaction('ready', 'in-transaction')).toBe(true);
  });

  it('names only known states as targets', () => {
    for (const targets of Object.values(TRANSACTION_TRANSITIONS))
      for (const target of targets) expect(states).toContain(target);
  });
});
