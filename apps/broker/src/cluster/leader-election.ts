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
export type ElectionReason =
  | 'leader-not-live'
  | 'offline-partition'
  | 'member-not-live'
  | 'member-lost-storage'
  | 'unclean';

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
  /** The storage id each live broker registered with; undefined when it did not say. */
  storageIdOf: (brokerId: number) => string | undefined = () => undefined,
): LeaderDecision | undefined {
  const lost = lostStorage(assignment, storageIdOf);
  if (lost.length > 0) return withoutLostMembers(assignment, lost, isLive, policy, storageIdOf);
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

/**
 * ISR and ELR members whose broker came back with another storage id than it had when it joined:
 * its log is gone (a new disk), so it holds nothing it once acknowledged (KIP-903's rule, by storage
 * rather than broker epoch: under this design's durability policy a restart that kept the disk
 * keeps every record the broker reported, docs/architecture.md §6.5).
 */
function lostStorage(
  assignment: PartitionAssignment,
  storageIdOf: (brokerId: number) => string | undefined,
): number[] {
  const recorded = assignment.memberStorage ?? {};
  return [...new Set([...assignment.isr, ...(assignment.elr ?? [])])].filter((id) => {
    const then = recorded[String(id)];
    const now = storageIdOf(id);
    return then !== undefined && now !== undefined && then !== now;
  });
}

/**
 * Takes members that lost their storage out of the ISR and ELR, even the last one; a leader among
 * them is replaced as a dead one would be. The rest of the rules then apply on the next pass.
 */
function withoutLostMembers(
  assignment: PartitionAssignment,
  lost: readonly number[],
  isLive: (brokerId: number) => boolean,
  policy: ElectionPolicy,
  storageIdOf: (brokerId: number) => string | undefined,
): LeaderDecision {
  const isr = assignment.isr.filter((id) => !lost.includes(id));
  const elr = (assignment.elr ?? []).filter((id) => !lost.includes(id));
  const pruned = { ...withSets(assignment, isr, elr), ...(isr.length === 0 ? { isr: [] } : {}) };
  if (!lost.includes(assignment.leader)) return { next: pruned, reason: 'member-lost-storage' };
  const replaced = leaderDecision({ ...pruned, leader: -1 }, isLive, policy, storageIdOf);
  const next = replaced?.next ?? { ...pruned, leader: -1, leaderEpoch: assignment.leaderEpoch + 1 };
  return { next: { ...next, leaderEpoch: assignment.leaderEpoch + 1 }, reason: 'member-lost-storage' };
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
