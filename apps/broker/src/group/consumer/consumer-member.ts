import { type Assignment, EMPTY_ASSIGNMENT } from './assignment';

/**
 * Where a member is in its reconciliation (Kafka's MemberState, with the byte values Kafka stores
 * in ConsumerGroupCurrentMemberAssignment records):
 * - stable (0): it owns its assignment at its epoch; nothing is pending.
 * - unrevoked-partitions (1): it must give up `partitionsPendingRevocation` before it moves on.
 * - unreleased-partitions (2): it is at the target epoch, but some of its target partitions are
 *   still owned by others; it gets them once they are released.
 * - unknown (127): a state a newer coordinator wrote; the member is fenced and starts over.
 */
export type MemberState = 'stable' | 'unrevoked-partitions' | 'unreleased-partitions' | 'unknown';

export const MEMBER_STATE_BYTES: Readonly<Record<MemberState, number>> = {
  stable: 0,
  'unrevoked-partitions': 1,
  'unreleased-partitions': 2,
  unknown: 127,
};

export function memberStateOfByte(value: number): MemberState {
  for (const [state, byte] of Object.entries(MEMBER_STATE_BYTES) as [MemberState, number][]) {
    if (byte === value) return state;
  }
  return 'unknown';
}

/** Epoch -1 in a heartbeat: the member leaves the group. */
export const LEAVE_GROUP_MEMBER_EPOCH = -1;
/** Epoch -2 in a heartbeat: a static member leaves for now and keeps its place until its session ends. */
export const LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2;

/**
 * One member of a consumer-protocol group. Immutable: every change builds a new object (see
 * {@link updateMember}), so a group snapshot can hold members by reference and the records to
 * write are found by comparing the old object with the new one.
 */
export interface ConsumerMember {
  readonly memberId: string;
  readonly instanceId: string | null;
  readonly rackId: string | null;
  readonly clientId: string;
  readonly clientHost: string;
  readonly subscribedTopicNames: readonly string[];
  readonly rebalanceTimeoutMs: number;
  /** The assignor the member asked for; null when it left the choice to the coordinator. */
  readonly serverAssignor: string | null;
  readonly memberEpoch: number;
  /** The epoch before the last bump: a heartbeat with it is still accepted (the bump may have been lost). */
  readonly previousMemberEpoch: number;
  readonly state: MemberState;
  /** What the member owns (and may fetch) at its epoch. */
  readonly assignedPartitions: Assignment;
  /** What it still owns but must give up before it moves to the next epoch. */
  readonly partitionsPendingRevocation: Assignment;
}

export function newMember(memberId: string, clientId: string, clientHost: string): ConsumerMember {
  return {
    memberId,
    instanceId: null,
    rackId: null,
    clientId,
    clientHost,
    subscribedTopicNames: [],
    rebalanceTimeoutMs: -1,
    serverAssignor: null,
    memberEpoch: 0,
    previousMemberEpoch: 0,
    state: 'stable',
    assignedPartitions: EMPTY_ASSIGNMENT,
    partitionsPendingRevocation: EMPTY_ASSIGNMENT,
  };
}

export function updateMember(member: ConsumerMember, changes: Partial<ConsumerMember>): ConsumerMember {
  return { ...member, ...changes };
}

/** Whether the fields of the member's ConsumerGroupMemberMetadata record differ. */
export function metadataDiffers(left: ConsumerMember, right: ConsumerMember): boolean {
  return (
    left.instanceId !== right.instanceId ||
    left.rackId !== right.rackId ||
    left.clientId !== right.clientId ||
    left.clientHost !== right.clientHost ||
    left.rebalanceTimeoutMs !== right.rebalanceTimeoutMs ||
    left.serverAssignor !== right.serverAssignor ||
    !sameTopicNames(left.subscribedTopicNames, right.subscribedTopicNames)
  );
}

export function sameTopicNames(left: readonly string[], right: readonly string[]): boolean {
  if (left.length !== right.length) return false;
  const sorted = [...right].sort();
  return [...left].sort().every((name, index) => name === sorted[index]);
}

/** Whether the member is done: at the target epoch, owning exactly its target. */
export function isReconciledTo(member: ConsumerMember, targetAssignmentEpoch: number): boolean {
  return member.state === 'stable' && member.memberEpoch === targetAssignmentEpoch;
}
