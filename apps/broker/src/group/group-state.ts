/**
 * The states of a classic consumer group (docs/architecture.md §5), with Kafka's names: they are what
 * DescribeGroups reports, so tools that know Kafka read them unchanged.
 *
 * - Empty: no members; the group may still hold committed offsets.
 * - PreparingRebalance: a rebalance started; JoinGroup responses are held until members rejoin.
 * - CompletingRebalance: the join finished; members wait for the leader's assignment (SyncGroup).
 * - Stable: every member has its assignment.
 * - Dead: the group was deleted or expired; its object is about to be dropped.
 */
export type GroupState = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead';

export const GROUP_STATES: readonly GroupState[] = [
  'Empty',
  'PreparingRebalance',
  'CompletingRebalance',
  'Stable',
  'Dead',
];

/**
 * The transition table, as the states a group may come *from* (Kafka's "valid previous states").
 * Anything else is a coordinator bug.
 */
const VALID_PREVIOUS_STATES: Readonly<Record<GroupState, readonly GroupState[]>> = {
  // The join of a rebalance completed and no member had rejoined.
  Empty: ['PreparingRebalance'],
  // A member joined, left, changed its protocols or timed out.
  PreparingRebalance: ['Empty', 'CompletingRebalance', 'Stable'],
  // Every member rejoined (or the rebalance timeout passed) and a leader was chosen.
  CompletingRebalance: ['PreparingRebalance'],
  // The leader's assignment was stored.
  Stable: ['CompletingRebalance'],
  // Deleted (DeleteGroups, offset expiry) or unloaded; repeated deaths are harmless.
  Dead: ['Empty', 'PreparingRebalance', 'CompletingRebalance', 'Stable', 'Dead'],
};

/** A transition the table does not allow: always a coordinator bug, never a client's fault. */
export class IllegalGroupTransitionError extends Error {
  constructor(
    readonly groupId: string,
    readonly from: GroupState,
    readonly to: GroupState,
  ) {
    super(`group "${groupId}" cannot move from ${from} to ${to}`);
    this.name = 'IllegalGroupTransitionError';
  }
}

export function canTransition(from: GroupState, to: GroupState): boolean {
  return VALID_PREVIOUS_STATES[to].includes(from);
}

/** Throws {@link IllegalGroupTransitionError} unless the table allows `from` → `to`. */
export function assertTransition(groupId: string, from: GroupState, to: GroupState): void {
  if (!canTransition(from, to)) throw new IllegalGroupTransitionError(groupId, from, to);
}

/** States from which a rebalance may start (the valid previous states of PreparingRebalance). */
export function canRebalance(state: GroupState): boolean {
  return canTransition(state, 'PreparingRebalance');
}
