import type { PartitionAssignment } from '../metadata/metadata-store';
import { isrWithout, sameMembers } from '../replica/isr-change';

/** A topic's settings the controller's decisions depend on. */
export interface ElectionPolicy {
  /** min.insync.replicas: decides which members leaving the ISR stay eligible (KIP-966). */
  minInsyncReplicas: number;
  /** unclean.leader.election.enable: may an out-of-sync replica lead when nothing else can? */
  uncleanLeaderElectionEnable: boolean;
}

/** Why the controller changed a partition, for its log and the replication timeline. */
export type ElectionReason = 'leader-not-live' | 'offline-partition' | 'member-not-live' | 'unclean';

export interface LeaderDecision {
  next: PartitionAssignment;
  reason: ElectionReason;
}

/**
 * What the controller decides for one partition (docs/architecture.md §6.5), or undefined when it
 * is fine as it is. Members whose broker is not live leave the ISR (KRaft fences a broker's ISR
 * memberships with its session), except the last one, so a partition whose in-sync replicas all
 * died waits for one of them. A leader that is not live is replaced, with a new epoch, by the
 * first live in-sync replica, else the first live eligible leader replica (KIP-966), else, only if
 * the topic allows unclean election, the first live replica, which then is the whole ISR; with
 * none of those the partition goes offline (leader -1) at a new epoch, so nothing written under
 * the old leadership can still be acknowledged.
 */
export function leaderDecision(
  assignment: PartitionAssignment,
  isLive: (brokerId: number) => boolean,
  policy: ElectionPolicy,
): LeaderDecision | undefined {
  const { leader, leaderEpoch, isr } = assignment;
  const deadMembers = isr.filter((id) => !isLive(id));
  const leaderLive = leader !== -1 && isLive(leader);
  if (leaderLive) {
    if (deadMembers.length === 0 || deadMembers.length === isr.length) return undefined;
    const shrunk = isrWithout(assignment, deadMembers, policy.minInsyncReplicas);
    return { next: withSets(assignment, shrunk.isr, shrunk.elr), reason: 'member-not-live' };
  }
  const liveIsr = isr.filter(isLive);
  const eligible = (assignment.elr ?? []).filter(isLive);
  if (liveIsr.length > 0) {
    const shrunk = isrWithout(assignment, deadMembers, policy.minInsyncReplicas);
    const next = {
      ...withSets(assignment, shrunk.isr, shrunk.elr),
      leader: liveIsr[0]!,
      leaderEpoch: leaderEpoch + 1,
    };
    return { next, reason: leader === -1 ? 'offline-partition' : 'leader-not-live' };
  }
  if (eligible.length > 0) {
    const chosen = eligible[0]!;
    const elr = (assignment.elr ?? []).filter((id) => id !== chosen);
    const next = { ...withSets(assignment, [chosen], elr), leader: chosen, leaderEpoch: leaderEpoch + 1 };
    return { next, reason: leader === -1 ? 'offline-partition' : 'leader-not-live' };
  }
  if (policy.uncleanLeaderElectionEnable) {
    const chosen = assignment.replicas.find(isLive);
    if (chosen !== undefined) {
      return {
        next: { ...withSets(assignment, [chosen], []), leader: chosen, leaderEpoch: leaderEpoch + 1 },
        reason: 'unclean',
      };
    }
  }
  if (leader === -1) return undefined;
  return { next: { ...assignment, leader: -1, leaderEpoch: leaderEpoch + 1 }, reason: 'leader-not-live' };
}

function withSets(
  assignment: PartitionAssignment,
  isr: readonly number[],
  elr: readonly number[],
): PartitionAssignment {
  const { elr: _previous, ...rest } = assignment;
  if (sameMembers(isr, assignment.isr) && sameMembers(elr, assignment.elr ?? [])) return assignment;
  return elr.length === 0 ? { ...rest, isr } : { ...rest, isr, elr };
}
