import { PARTITION_HEALTH_STATES, type PartitionHealthState } from './partition-health-states';

/**
 * What one leader says about a partition it leads beyond the metadata: when its ISR and leader
 * last changed and how far each follower is behind (WeirDescribeReplication). Brokers report only
 * the partitions they lead, so a cluster's picture is merged from every broker's answer.
 */
export interface LeaderReplicationReport {
  readonly topic: string;
  readonly partition: number;
  readonly isrChangedAtMs: number | null;
  readonly leaderChangedAtMs: number | null;
  readonly followers: readonly { brokerId: number; lagRecords: bigint; lagMs: number }[];
}

/** A partition as the metadata describes it, which is all the judgement needs besides the report. */
export interface PartitionAssignmentView {
  readonly partition: number;
  /** -1 when the partition has no leader. */
  readonly leaderId: number;
  /** The first one is the preferred leader. */
  readonly replicaNodes: readonly number[];
  readonly isrNodes: readonly number[];
}

/** A replica outside the ISR, and why, in words. */
export interface LaggingFollower {
  brokerId: number;
  /** Records behind the leader's log end (a decimal string), when the leader reported it; else null. */
  lagRecords: string | null;
  /** How long since it was last caught up, when the leader reported it; else null. */
  lagMs: number | null;
  /** Whether the broker is registered (has a live session) in the cluster metadata. */
  registered: boolean;
  /** Why it is behind: "broker 3's session ended", "broker 2 is not in the ISR: … behind". */
  reason: string;
}

/**
 * One partition's judgement: its states worst first (empty when nothing needs attention) and every
 * reason in words, the most important first. The console's ISR page and `weir cluster status`
 * show these same words.
 */
export interface PartitionHealth {
  topic: string;
  partition: number;
  states: PartitionHealthState[];
  leaderId: number;
  /** The first replica, which preferred-leader election moves leadership back to; -1 without replicas. */
  preferredLeaderId: number;
  replicas: number[];
  isr: number[];
  minInsyncReplicas: number;
  reasons: string[];
  laggingFollowers: LaggingFollower[];
  /** When the ISR last changed, when the leader reported it; else null. */
  isrChangedAtMs: number | null;
  /** When the leader last changed, when the leader reported it; else null. */
  leaderChangedAtMs: number | null;
}

const STATE_ORDER = new Map<PartitionHealthState, number>(
  PARTITION_HEALTH_STATES.map((state, index) => [state, index]),
);

/**
 * Judges one partition from its metadata, its topic's min.insync.replicas, the brokers registered
 * (with a live session) and its leader's report when the leader answered. Without a report the
 * states are the same; only the lag of the followers outside the ISR is not known.
 */
export function judgePartition(
  topic: string,
  partition: PartitionAssignmentView,
  minInsyncReplicas: number,
  registered: ReadonlySet<number>,
  report: LeaderReplicationReport | undefined,
): PartitionHealth {
  const states: PartitionHealthState[] = [];
  const reasons: string[] = [];
  const replicas = partition.replicaNodes;
  const isr = partition.isrNodes;
  const preferredLeaderId = replicas[0] ?? -1;
  if (partition.leaderId < 0) {
    states.push('offline');
    reasons.push(offlineReason(replicas, isr, registered));
  } else {
    if (isr.length < minInsyncReplicas) {
      states.push('under-min-isr');
      reasons.push(
        `ISR ${isr.length} < min.insync.replicas ${minInsyncReplicas}: acks=all writes are refused`,
      );
    } else if (isr.length === minInsyncReplicas && isr.length < replicas.length) {
      states.push('at-min-isr');
      reasons.push(
        `ISR ${isr.length} = min.insync.replicas ${minInsyncReplicas}: one more lost replica refuses acks=all writes`,
      );
    }
    if (isr.length < replicas.length) states.push('under-replicated');
    if (preferredLeaderId >= 0 && partition.leaderId !== preferredLeaderId) {
      states.push('non-preferred-leader');
    }
  }
  const laggingFollowers = laggingFollowersOf(replicas, isr, registered, report);
  // An offline partition's one reason already names the replicas that matter.
  if (partition.leaderId >= 0) reasons.push(...laggingFollowers.map((follower) => follower.reason));
  if (states.includes('non-preferred-leader')) {
    reasons.push(nonPreferredReason(partition.leaderId, preferredLeaderId, isr, registered));
  }
  states.sort((left, right) => (STATE_ORDER.get(left) ?? 0) - (STATE_ORDER.get(right) ?? 0));
  return {
    topic,
    partition: partition.partition,
    states,
    leaderId: partition.leaderId,
    preferredLeaderId,
    replicas: [...replicas],
    isr: [...isr],
    minInsyncReplicas,
    reasons,
    laggingFollowers,
    isrChangedAtMs: report?.isrChangedAtMs ?? null,
    leaderChangedAtMs: report?.leaderChangedAtMs ?? null,
  };
}

function offlineReason(
  replicas: readonly number[],
  isr: readonly number[],
  registered: ReadonlySet<number>,
): string {
  const gone = replicas.filter((brokerId) => !registered.has(brokerId));
  if (gone.length === replicas.length) {
    return `no leader: the session of every replica's broker (${replicas.join(', ')}) ended`;
  }
  const ended = gone.length === 0 ? '' : `; ${gone.map((id) => `broker ${id}'s session ended`).join(', ')}`;
  return `no leader elected from ISR [${isr.join(', ')}]${ended}`;
}

function laggingFollowersOf(
  replicas: readonly number[],
  isr: readonly number[],
  registered: ReadonlySet<number>,
  report: LeaderReplicationReport | undefined,
): LaggingFollower[] {
  const followers = new Map((report?.followers ?? []).map((follower) => [follower.brokerId, follower]));
  return replicas
    .filter((brokerId) => !isr.includes(brokerId))
    .map((brokerId) => {
      const follower = followers.get(brokerId);
      const isRegistered = registered.has(brokerId);
      const reason = !isRegistered
        ? `broker ${brokerId}'s session ended`
        : follower === undefined
          ? `broker ${brokerId} is not in the ISR`
          : `broker ${brokerId} is not in the ISR: ${formatRecords(follower.lagRecords)} / ${formatSeconds(follower.lagMs)} behind`;
      return {
        brokerId,
        lagRecords: follower === undefined ? null : follower.lagRecords.toString(),
        lagMs: follower === undefined ? null : follower.lagMs,
        registered: isRegistered,
        reason,
      };
    });
}

function nonPreferredReason(
  leaderId: number,
  preferredLeaderId: number,
  isr: readonly number[],
  registered: ReadonlySet<number>,
): string {
  const why = !registered.has(preferredLeaderId)
    ? ` (broker ${preferredLeaderId}'s session ended)`
    : isr.includes(preferredLeaderId)
      ? ' (in the ISR: a preferred election moves it back)'
      : ' (not in the ISR yet)';
  return `led by broker ${leaderId}, not the preferred broker ${preferredLeaderId}${why}`;
}

function formatRecords(records: bigint): string {
  return `${records.toLocaleString('en-US')} record${records === 1n ? '' : 's'}`;
}

function formatSeconds(ms: number): string {
  return ms < 1_000 ? `${ms} ms` : `${Math.round(ms / 1_000).toLocaleString('en-US')} s`;
}
