import { describe, expect, it } from 'vitest';
import {
  CoordinatorShard,
  canShardTransition,
  IllegalShardTransitionError,
  SHARD_STATES,
  type ShardState,
} from './coordinator-shard';

/** Every allowed transition; anything else must be refused. */
const ALLOWED: readonly [ShardState, ShardState][] = [
  ['loading', 'active'],
  ['loading', 'failed'],
  ['loading', 'resigned'],
  ['active', 'resigned'],
  ['failed', 'resigned'],
];

const ALL_PAIRS = SHARD_STATES.flatMap((from) => SHARD_STATES.map((to) => [from, to] as const));

describe('coordinator shard states', () => {
  it.each(ALL_PAIRS)('%s → %s follows the table', (from, to) => {
    const allowed = ALLOWED.some(([a, b]) => a === from && b === to);
    expect(canShardTransition(from, to)).toBe(allowed);
  });

  it('starts loading, leads until it resigns, and refuses a move the table does not have', () => {
    const shard = new CoordinatorShard(3, 7);
    expect(shard).toMatchObject({ partition: 3, leaderEpoch: 7, state: 'loading', leads: true });
    shard.transitionTo('active');
    expect(() => shard.transitionTo('loading')).toThrow(IllegalShardTransitionError);
    shard.transitionTo('resigned');
    expect(shard.leads).toBe(false);
    expect(() => shard.transitionTo('active')).toThrow(/cannot move from resigned to active/);
  });
});
