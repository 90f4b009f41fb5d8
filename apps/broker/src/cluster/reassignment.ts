import { ErrorCode } from '@weir/protocol';
import type { PartitionAssignment } from '../metadata/metadata-store';

/** Whether a partition is being moved (KIP-455): it is while it has adding or removing replicas. */
export type ReassignmentState = 'idle' | 'moving';

/** What may happen to a partition's reassignment: an operator's alter or cancel, or the controller's completion. */
export type ReassignmentEvent = 'alter' | 'cancel' | 'complete';

/**
 * The transition table. An alter while moving replaces the target, computed from the current
 * replicas (which include the ones still being added), as KRaft's controller does; a cancel needs
 * a move in progress; completion only ends a move.
 */
const transitions: Readonly<
  Record<ReassignmentState, Partial<Record<ReassignmentEvent, ReassignmentState>>>
> = {
  idle: { alter: 'moving' },
  moving: { alter: 'moving', cancel: 'idle', complete: 'idle' },
};

export function reassignmentState(assignment: PartitionAssignment): ReassignmentState {
  const moving =
    (assignment.addingReplicas?.length ?? 0) > 0 || (assignment.removingReplicas?.length ?? 0) > 0;
  return moving ? 'moving' : 'idle';
}

export function reassignmentTransition(
  from: ReassignmentState,
  event: ReassignmentEvent,
): ReassignmentState | undefined {
  return transitions[from][event];
}

/** A request the controller refuses, with Kafka's error code and a message naming what is wrong. */
export interface ReassignmentRejection {
  errorCode: ErrorCode;
  message: string;
}

export type ReassignmentOutcome = { next: PartitionAssignment } | { rejected: ReassignmentRejection };

function partitionName(assignment: PartitionAssignment): string {
  return `${assignment.topic}-${assignment.partition}`;
}

/**
 * Checks a target replica list: it must be non-empty, name each broker once, and name only
 * registered brokers (Kafka's INVALID_REPLICA_ASSIGNMENT cases).
 */
export function targetRejection(
  target: readonly number[],
  isRegistered: (brokerId: number) => boolean,
): ReassignmentRejection | undefined {
  if (target.length === 0) {
    return { errorCode: ErrorCode.INVALID_REPLICA_ASSIGNMENT, message: 'The target replica list is empty.' };
  }
  const duplicates = [...new Set(target.filter((id, index) => target.indexOf(id) !== index))];
  if (duplicates.length > 0) {
    return {
      errorCode: ErrorCode.INVALID_REPLICA_ASSIGNMENT,
      message: `The target replica list names broker ${duplicates.join(', ')} more than once.`,
    };
  }
  const unknown = target.filter((id) => !isRegistered(id));
  if (unknown.length > 0) {
    return {
      errorCode: ErrorCode.INVALID_REPLICA_ASSIGNMENT,
      message: `The target replica list names unknown broker ${unknown.join(', ')}.`,
    };
  }
  return undefined;
}

/**
 * Starts (or replaces) a move to `target` (KIP-455): replicas become the target followed by the
 * current replicas not in it, which are the removing ones; the target members not yet replicas are
 * the adding ones. The ISR and leader stay, so the new replicas join as followers and catch up
 * before anything old leaves. A target equal to the replicas of an idle partition changes nothing.
 */
export function alterReassignment(
  assignment: PartitionAssignment | undefined,
  target: readonly number[],
  isRegistered: (brokerId: number) => boolean,
): ReassignmentOutcome {
  if (assignment === undefined) {
    return {
      rejected: { errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, message: 'The partition does not exist.' },
    };
  }
  const rejection = targetRejection(target, isRegistered);
  if (rejection !== undefined) return { rejected: rejection };
  const current = assignment.replicas;
  const removing = current.filter((id) => !target.includes(id));
  const adding = target.filter((id) => !current.includes(id));
  if (adding.length === 0 && removing.length === 0 && sameOrder(current, target)) {
    return { next: withoutMove(assignment) };
  }
  if (reassignmentTransition(reassignmentState(assignment), 'alter') === undefined) {
    throw new Error(`reassignment table forbids alter for ${partitionName(assignment)}`);
  }
  return {
    next: {
      ...assignment,
      replicas: [...target, ...removing],
      addingReplicas: adding,
      removingReplicas: removing,
    },
  };
}

/**
 * Cancels a move: the replicas go back to the original ones (the current replicas without the
 * adding ones, in the current order: the assignment does not keep the original order, and Kafka's
 * revert does the same), and the adding ones leave the ISR. An adding replica that leads (it was elected
 * while the move ran) hands leadership to the first live original in-sync replica at a new epoch.
 */
export function cancelReassignment(
  assignment: PartitionAssignment | undefined,
  isLive: (brokerId: number) => boolean,
): ReassignmentOutcome {
  if (assignment === undefined) {
    return {
      rejected: { errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, message: 'The partition does not exist.' },
    };
  }
  if (reassignmentTransition(reassignmentState(assignment), 'cancel') === undefined) {
    return {
      rejected: {
        errorCode: ErrorCode.NO_REASSIGNMENT_IN_PROGRESS,
        message: `No reassignment of ${partitionName(assignment)} is in progress.`,
      },
    };
  }
  const adding = assignment.addingReplicas ?? [];
  const replicas = assignment.replicas.filter((id) => !adding.includes(id));
  const isr = assignment.isr.filter((id) => !adding.includes(id));
  if (isr.length === 0) {
    return {
      rejected: {
        errorCode: ErrorCode.INVALID_REPLICA_ASSIGNMENT,
        message: `Cancelling the reassignment of ${partitionName(assignment)} would leave no in-sync original replica.`,
      },
    };
  }
  const next = { ...withoutMove(assignment), replicas, isr };
  if (adding.includes(assignment.leader)) {
    const leader = isr.find(isLive) ?? -1;
    return { next: { ...next, leader, leaderEpoch: assignment.leaderEpoch + 1 } };
  }
  return { next };
}

/**
 * The controller's completion of a move, or undefined while it must wait: every adding replica
 * must be in the ISR and some target member must be a live in-sync replica. Then replicas become
 * the target (in its order), the ISR keeps only target members, and a leader being removed hands
 * over to the first live in-sync target member at leaderEpoch + 1, so nothing acknowledged is lost.
 */
export function reassignmentCompletion(
  assignment: PartitionAssignment,
  isLive: (brokerId: number) => boolean,
): PartitionAssignment | undefined {
  if (reassignmentTransition(reassignmentState(assignment), 'complete') === undefined) return undefined;
  const adding = assignment.addingReplicas ?? [];
  const removing = assignment.removingReplicas ?? [];
  if (!adding.every((id) => assignment.isr.includes(id))) return undefined;
  const target = assignment.replicas.filter((id) => !removing.includes(id));
  const isr = assignment.isr.filter((id) => target.includes(id));
  const liveIsr = isr.filter(isLive);
  if (liveIsr.length === 0) return undefined;
  const next = { ...withoutMove(assignment), replicas: target, isr };
  if (!target.includes(assignment.leader)) {
    return { ...next, leader: liveIsr[0]!, leaderEpoch: assignment.leaderEpoch + 1 };
  }
  return next;
}

/** Is `brokerId` still catching up as an adding replica (its fetches are the throttled ones)? */
export function isAddingReplica(assignment: PartitionAssignment, brokerId: number): boolean {
  return (assignment.addingReplicas ?? []).includes(brokerId);
}

function withoutMove(assignment: PartitionAssignment): PartitionAssignment {
  const { addingReplicas: _adding, removingReplicas: _removing, ...rest } = assignment;
  return rest;
}

function sameOrder(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, index) => b[index] === id);
}
