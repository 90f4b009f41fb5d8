import { describe, expect, it } from 'vitest';
import {
  assertTransition,
  canRebalance,
  canTransition,
  GROUP_STATES,
  type GroupState,
  IllegalGroupTransitionError,
} from './group-state';

/** Kafka's table, written out once more as the specification the code must match. */
const ALLOWED: ReadonlySet<string> = new Set([
  'PreparingRebalance->Empty',
  'Empty->PreparingRebalance',
  'CompletingRebalance->PreparingRebalance',
  'Stable->PreparingRebalance',
  'PreparingRebalance->CompletingRebalance',
  'CompletingRebalance->Stable',
  'Empty->Dead',
  'PreparingRebalance->Dead',
  'CompletingRebalance->Dead',
  'Stable->Dead',
  'Dead->Dead',
]);

describe('group state table', () => {
  it.each(GROUP_STATES.flatMap((from) => GROUP_STATES.map((to) => [from, to] as [GroupState, GroupState])))(
    '%s → %s follows Kafka',
    (from, to) => {
      const allowed = ALLOWED.has(`${from}->${to}`);
      expect(canTransition(from, to)).toBe(allowed);
      if (allowed) expect(() => assertTransition('g', from, to)).not.toThrow();
      else expect(() => assertTransition('g', from, to)).toThrow(IllegalGroupTransitionError);
    },
  );

  it('rebalances only from Empty, CompletingRebalance and Stable', () => {
    expect(GROUP_STATES.filter(canRebalance)).toEqual(['Empty', 'CompletingRebalance', 'Stable']);
  });

  it('names the group and both states in the error', () => {
    expect(() => assertTransition('orders', 'Empty', 'Stable')).toThrow(
      'group "orders" cannot move from Empty to Stable',
    );
  });
});
