import { ErrorCode } from '@weir/protocol';
import type { PartitionAssignment } from '../metadata/metadata-store';

/** Kafka's ElectLeaders election types. */
export const ElectionType = { preferred: 0, unclean: 1 } as const;
export type ElectionType = (typeof ElectionType)[keyof typeof ElectionType];

export type ElectionOutcome = { next: PartitionAssignment } | { errorCode: ErrorCode; message: string };

/**
 * A preferred election (Kafka's ElectLeaders type 0): the first replica leads again, at a new
 * epoch, when it is live and in the ISR. ELECTION_NOT_NEEDED when it already leads,
 * PREFERRED_LEADER_NOT_AVAILABLE when it is not live or not in sync.
 */
export function preferredElection(
  assignment: PartitionAssignment,
  isLive: (brokerId: number) => boolean,
): ElectionOutcome {
  const preferred = assignment.replicas[0];
  const name = `${assignment.topic}-${assignment.partition}`;
  if (preferred === undefined || assignment.leader === preferred) {
    return {
      errorCode: ErrorCode.ELECTION_NOT_NEEDED,
      message: `Broker ${preferred} already leads ${name}.`,
    };
  }
  if (!isLive(preferred) || !assignment.isr.includes(preferred)) {
    return {
      errorCode: ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE,
      message: `Preferred leader ${preferred} of ${name} is not a live in-sync replica.`,
    };
  }
  return { next: { ...assignment, leader: preferred, leaderEpoch: assignment.leaderEpoch + 1 } };
}

/**
 * An unclean election (type 1): only for a partition without a leader. A live in-sync replica is
 * chosen first, else any live replica, which then is the whole ISR (records only the old ISR held
 * may be lost, which is what the operator asked for). ELIGIBLE_LEADERS_NOT_AVAILABLE with none.
 */
export function uncleanElection(
  assignment: PartitionAssignment,
  isLive: (brokerId: number) => boolean,
): ElectionOutcome {
  const name = `${assignment.topic}-${assignment.partition}`;
  if (assignment.leader !== -1) {
    return { errorCode: ErrorCode.ELECTION_NOT_NEEDED, message: `${name} has leader ${assignment.leader}.` };
  }
  const inSync = assignment.isr.find(isLive);
  if (inSync !== undefined) {
    return { next: { ...assignment, leader: inSync, leaderEpoch: assignment.leaderEpoch + 1 } };
  }
  const anyLive = assignment.replicas.find(isLive);
  if (anyLive === undefined) {
    return {
      errorCode: ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE,
      message: `No replica of ${name} is live.`,
    };
  }
  return {
    next: {
      ...assignment,
      leader: anyLive,
      leaderEpoch: assignment.leaderEpoch + 1,
      isr: [anyLive],
      elr: [],
    },
  };
}

/**
 * The brokers whose leader imbalance exceeds `imbalancePercentage` (Kafka's
 * leader.imbalance.per.broker.percentage): of the partitions a broker is preferred leader of
 * (first replica), the share it does not lead. Auto leader rebalance runs preferred elections for
 * those brokers' partitions.
 */
export function imbalancedBrokers(
  assignments: Iterable<PartitionAssignment>,
  imbalancePercentage: number,
): number[] {
  const preferredCount = new Map<number, number>();
  const notLeadingCount = new Map<number, number>();
  for (const assignment of assignments) {
    const preferred = assignment.replicas[0];
    if (preferred === undefined) continue;
    preferredCount.set(preferred, (preferredCount.get(preferred) ?? 0) + 1);
    if (assignment.leader !== preferred)
      notLeadingCount.set(preferred, (notLeadingCount.get(preferred) ?? 0) + 1);
  }
  const brokers: number[] = [];
  for (const [brokerId, count] of preferredCount) {
    const ratioPercent = ((notLeadingCount.get(brokerId) ?? 0) * 100) / count;
    if (ratioPercent > imbalancePercentage) brokers.push(brokerId);
  }
  return brokers.sort((a, b) => a - b);
}
