/** One follower of a partition, as its leader sees it from the follower's fetches. */
export interface FollowerReplication {
  brokerId: number;
  /** The follower's log end as of its last fetch; -1 until it fetched from this leader. */
  logEndOffset: bigint;
  /** How many offsets the follower is behind the leader's log end. */
  lagRecords: bigint;
  /** Milliseconds since the follower was last caught up with the leader's log end. */
  lagMs: number;
}

/** A partition the answering broker leads (WeirDescribeReplication). */
export interface LedPartitionReplication {
  topic: string;
  partition: number;
  leaderEpoch: number;
  replicas: readonly number[];
  isr: readonly number[];
  minInsyncReplicas: number;
  highWatermark: bigint;
  logEndOffset: bigint;
  /** When the ISR last changed, where the metadata recorded it; null otherwise. */
  isrChangedAtMs: number | null;
  /** When the leader last changed, where the metadata recorded it; null otherwise. */
  leaderChangedAtMs: number | null;
  followers: readonly FollowerReplication[];
}
