/**
 * The states of a consumer-protocol group (KIP-848), with Kafka's names (what ListGroups,
 * DescribeGroups and ConsumerGroupDescribe report). Unlike the classic states, they are not steps
 * of a protocol: the coordinator recomputes the state after every change from the members and the
 * epochs (docs/architecture.md §5):
 *
 * - Empty: no members (the group may still hold committed offsets).
 * - Assigning: the group epoch moved past the target assignment's; a new target is due.
 * - Reconciling: some member has not reached the target assignment (epoch or partitions).
 * - Stable: every member owns exactly its target assignment at the target epoch.
 * - Dead: the group was deleted, converted to a classic group, or its shard was unloaded.
 */
export type ConsumerGroupState = 'Empty' | 'Assigning' | 'Reconciling' | 'Stable' | 'Dead';

/**
 * The transition table, as the states a group may come *from*. Any live state may follow any other
 * (one heartbeat can add a member, compute a target and reconcile it); nothing comes back from Dead.
 */
const VALID_PREVIOUS_STATES: Readonly<Record<ConsumerGroupState, readonly ConsumerGroupState[]>> = {
  // The last member left or was fenced.
  Empty: ['Empty', 'Assigning', 'Reconciling', 'Stable'],
  // Members or subscriptions changed and no target has been computed for the new group epoch.
  Assigning: ['Empty', 'Assigning', 'Reconciling', 'Stable'],
  // A new target was computed and members are moving towards it.
  Reconciling: ['Empty', 'Assigning', 'Reconciling', 'Stable'],
  // Every member reached the target.
  Stable: ['Empty', 'Assigning', 'Reconciling', 'Stable'],
  // Deleted, converted or unloaded; repeated deaths are harmless.
  Dead: ['Empty', 'Assigning', 'Reconciling', 'Stable', 'Dead'],
};

/** A transition the table does not allow: always a coordinator bug. */
export class IllegalConsumerGroupTransitionError extends Error {
  constructor(
    readonly groupId: string,
    readonly from: ConsumerGroupState,
    readonly to: ConsumerGroupState,
  ) {
    super(`consumer group "${groupId}" cannot move from ${from} to ${to}`);
    this.name = 'IllegalConsumerGroupTransitionError';
  }
}

export function assertConsumerGroupTransition(
  groupId: string,
  from: ConsumerGroupState,
  to: ConsumerGroupState,
): void {
  if (!VALID_PREVIOUS_STATES[to].includes(from))
    throw new IllegalConsumerGroupTransitionError(groupId, from, to);
}
