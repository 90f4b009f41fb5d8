/**
 * The states of a coordinator shard: the part of a coordinator (groups, transactions) that owns
 * one partition of its internal topic while this broker leads that partition
 * (docs/architecture.md §5).
 *
 * - loading: the partition is being replayed; its keys answer COORDINATOR_LOAD_IN_PROGRESS.
 * - active: replayed; its keys are served.
 * - failed: the partition could not be read; its keys answer COORDINATOR_NOT_AVAILABLE until a
 *   newer leader epoch loads it again.
 * - resigned: this broker no longer leads the partition at this epoch (it resigned, or a newer
 *   epoch replaced the shard). Terminal: whatever still holds the shard object (a replay, a write
 *   in flight, a retry) sees that it lost the partition and installs nothing.
 */
export type ShardState = 'loading' | 'active' | 'failed' | 'resigned';

export const SHARD_STATES: readonly ShardState[] = ['loading', 'active', 'failed', 'resigned'];

/** The transition table, as the states a shard may come *from*. A shard starts loading. */
const VALID_PREVIOUS_STATES: Readonly<Record<ShardState, readonly ShardState[]>> = {
  loading: [],
  // The replay finished and the shard still leads.
  active: ['loading'],
  // The replay threw (an unreadable log).
  failed: ['loading'],
  // onResign, a newer leader epoch, or the coordinator shutting down.
  resigned: ['loading', 'active', 'failed'],
};

/** A transition the table does not allow: always a coordinator bug. */
export class IllegalShardTransitionError extends Error {
  constructor(
    readonly partition: number,
    readonly from: ShardState,
    readonly to: ShardState,
  ) {
    super(`coordinator shard ${partition} cannot move from ${from} to ${to}`);
    this.name = 'IllegalShardTransitionError';
  }
}

export function canShardTransition(from: ShardState, to: ShardState): boolean {
  return VALID_PREVIOUS_STATES[to].includes(from);
}

/**
 * What every coordinator's shard has: its partition, the leader epoch it was loaded at (the
 * coordinator epoch: every write and replay of the shard names it, so that the replica layer can
 * refuse a shard that no longer leads, and transaction markers carry it) and its state.
 */
export class CoordinatorShard {
  #state: ShardState = 'loading';

  constructor(
    readonly partition: number,
    readonly leaderEpoch: number,
  ) {}

  get state(): ShardState {
    return this.#state;
  }

  /** Whether this shard still owns its partition (it has not resigned or been replaced). */
  get leads(): boolean {
    return this.#state !== 'resigned';
  }

  transitionTo(next: ShardState): void {
    if (!canShardTransition(this.#state, next)) {
      throw new IllegalShardTransitionError(this.partition, this.#state, next);
    }
    this.#state = next;
  }
}
