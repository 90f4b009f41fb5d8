import { type Assignment, AssignmentBuilder, EMPTY_ASSIGNMENT } from './assignment';
import { type ConsumerMember, updateMember } from './consumer-member';

/** Thrown when a member must start over: FENCED_MEMBER_EPOCH. */
export class MemberFencedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MemberFencedError';
  }
}

export interface ReconciliationInput {
  readonly targetAssignmentEpoch: number;
  readonly targetAssignment: Assignment;
  /** The epoch at which some member owns a partition, -1 when free (ConsumerGroup.currentPartitionEpoch). */
  currentPartitionEpoch(topicId: string, partition: number): number;
  /** What the member says it owns; null when the heartbeat left it out (unchanged). */
  readonly ownedPartitions: Assignment | null;
}

/**
 * One step of incremental reconciliation (Kafka's CurrentAssignmentBuilder): moves a member towards
 * the target assignment without ever giving it a partition another member still owns.
 *
 * - A stable member behind the target epoch recomputes its next assignment.
 * - A member that must revoke partitions stays where it is until its heartbeat no longer reports
 *   them as owned (a heartbeat without an owned list proves nothing); then it moves on, at the
 *   next epoch.
 * - A member waiting for unreleased partitions takes those that have been released meanwhile.
 *
 * The next assignment keeps what the member has and the target still gives it. If something must
 * be revoked, that comes first: the member stays at its epoch with only the kept partitions, the
 * rest pending revocation. Otherwise it moves to the target epoch and adds the target partitions
 * nobody owns; those still owned by others stay unreleased until they are freed.
 */
export function reconcile(member: ConsumerMember, input: ReconciliationInput): ConsumerMember {
  switch (member.state) {
    case 'stable':
      if (member.memberEpoch === input.targetAssignmentEpoch) return member;
      return nextAssignment(member, member.memberEpoch, member.assignedPartitions, input);
    case 'unrevoked-partitions':
      if (ownsAnyOf(input.ownedPartitions, member.partitionsPendingRevocation)) return member;
      return nextAssignment(member, member.memberEpoch + 1, member.assignedPartitions, input);
    case 'unreleased-partitions':
      return nextAssignment(member, member.memberEpoch, member.assignedPartitions, input);
    case 'unknown':
      if (input.ownedPartitions === null || input.ownedPartitions.size > 0) {
        throw new MemberFencedError(
          'The consumer group member is in an unknown state. The member must abandon all its partitions and rejoin.',
        );
      }
      return nextAssignment(member, input.targetAssignmentEpoch, member.assignedPartitions, input);
  }
}

/** Whether the owned list (null: not reported, so assumed) still holds any of `partitions`. */
function ownsAnyOf(owned: Assignment | null, partitions: Assignment): boolean {
  if (owned === null) return true;
  for (const [topicId, ownedPartitions] of owned) {
    const pending = partitions.get(topicId);
    if (!pending) continue;
    for (const partition of ownedPartitions) if (pending.has(partition)) return true;
  }
  return false;
}

function nextAssignment(
  member: ConsumerMember,
  memberEpoch: number,
  assigned: Assignment,
  input: ReconciliationInput,
): ConsumerMember {
  const kept = new AssignmentBuilder();
  const pendingRevocation = new AssignmentBuilder();
  const pendingAssignment = new AssignmentBuilder();
  let hasUnreleased = false;
  const topicIds = new Set([...input.targetAssignment.keys(), ...assigned.keys()]);
  for (const topicId of topicIds) {
    const target = input.targetAssignment.get(topicId) ?? new Set<number>();
    const current = assigned.get(topicId) ?? new Set<number>();
    for (const partition of current) {
      if (target.has(partition)) kept.add(topicId, partition);
      else pendingRevocation.add(topicId, partition);
    }
    for (const partition of target) {
      if (current.has(partition)) continue;
      if (input.currentPartitionEpoch(topicId, partition) === -1) pendingAssignment.add(topicId, partition);
      else hasUnreleased = true;
    }
  }
  const revocation = pendingRevocation.build();
  if (revocation.size > 0 && ownsAnyOf(input.ownedPartitions, revocation)) {
    return updateMember(member, {
      state: 'unrevoked-partitions',
      ...bumpedEpoch(member, memberEpoch),
      assignedPartitions: kept.build(),
      partitionsPendingRevocation: revocation,
    });
  }
  for (const [topicId, partition] of pendingAssignment.entries()) kept.add(topicId, partition);
  return updateMember(member, {
    state: hasUnreleased ? 'unreleased-partitions' : 'stable',
    ...bumpedEpoch(member, input.targetAssignmentEpoch),
    assignedPartitions: kept.build(),
    partitionsPendingRevocation: EMPTY_ASSIGNMENT,
  });
}

/** Kafka's updateMemberEpoch: the epoch the member had becomes its previous one. */
function bumpedEpoch(member: ConsumerMember, memberEpoch: number) {
  return { memberEpoch, previousMemberEpoch: member.memberEpoch };
}
