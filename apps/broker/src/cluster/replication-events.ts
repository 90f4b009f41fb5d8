import type { ReplicationCounters } from '../http/replication-metrics';
import type { AssignmentChangeCause } from '../metadata/assignment-change';
import type { PartitionAssignment } from '../metadata/metadata-store';
import type { LeaderDecision } from './leader-election';

type IsrSets = Pick<PartitionAssignment, 'isr'>;

/** Whether `next` lacks a member of `previous`'s ISR. */
export function isrShrank(previous: IsrSets, next: IsrSets): boolean {
  return previous.isr.some((id) => !next.isr.includes(id));
}

/** Whether `next` has a member `previous`'s ISR lacked. */
export function isrExpanded(previous: IsrSets, next: IsrSets): boolean {
  return next.isr.some((id) => !previous.isr.includes(id));
}

/**
 * Counts an ISR change the leader stored (`alterIsr`), by comparing the stored ISR before and
 * after: a swap of one member for another would count as both, which the leader never does.
 */
export function countLeaderIsrChange(
  counters: Pick<ReplicationCounters, 'isrShrinksTotal' | 'isrExpandsTotal'>,
  previous: IsrSets | undefined,
  next: IsrSets,
): void {
  if (previous === undefined) return;
  if (isrShrank(previous, next)) counters.isrShrinksTotal.inc();
  if (isrExpanded(previous, next)) counters.isrExpandsTotal.inc();
}

/**
 * Counts an election made on demand (ElectLeaders) or by the auto leader rebalance, by its cause,
 * and an unclean one also as such, so the unclean-election alert fires whoever asked for it.
 */
export function countRequestedElection(
  counters: Pick<ReplicationCounters, 'leaderElectionsTotal' | 'uncleanLeaderElectionsTotal'>,
  cause: AssignmentChangeCause,
): void {
  counters.leaderElectionsTotal.inc({ reason: cause });
  if (cause === 'unclean') counters.uncleanLeaderElectionsTotal.inc();
}

/**
 * Counts a change the controller stored. An election is a change that gives the partition a new
 * live leader; taking a partition offline (leader -1) is not one, and neither is dropping a member
 * that is not live, which counts as an ISR shrink (KRaft's controller fences such members in the
 * same way). An unclean election replaces the whole ISR with the chosen replica, which is counted
 * as an election, not as a shrink and an expand.
 */
export function countControllerChange(
  counters: ReplicationCounters,
  previous: PartitionAssignment,
  { next, reason }: LeaderDecision,
): void {
  const elected = next.leader !== -1 && next.leaderEpoch !== previous.leaderEpoch;
  if (elected) counters.leaderElectionsTotal.inc({ reason });
  if (reason === 'unclean') {
    counters.uncleanLeaderElectionsTotal.inc();
    return;
  }
  if (isrShrank(previous, next)) counters.isrShrinksTotal.inc();
}
