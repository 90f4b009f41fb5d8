/**
 * What a partition's leader knows of one follower's replica, from the follower's fetches (Kafka's
 * `ReplicaState`): the log end it reported (its fetch offset), and the last time it was caught up.
 */
export interface FollowerProgress {
  /** The follower's log end: the offset of its last fetch; -1 until it fetched under this leadership. */
  logEndOffset: number;
  /** The latest time the follower's fetch offset reached the leader's log end as of that time. */
  lastCaughtUpTimeMs: number;
  lastFetchTimeMs: number;
  /** The leader's log end when the follower last fetched. */
  lastFetchLeaderLogEndOffset: number;
}

/** How far one follower is behind the leader, for the metrics and the operator views. */
export interface FollowerLag {
  brokerId: number;
  logEndOffset: number;
  lagRecords: number;
  /** Milliseconds since it was last caught up. */
  lagMs: number;
}

/**
 * The leader's record of its followers' progress under one leadership, and Kafka's rule for
 * whether each is caught up (docs/architecture.md §6.5): a follower is caught up if its log end is
 * the leader's, or it was caught up within `replica.lag.time.max.ms`. A follower's fetch at offset
 * f at time t makes it caught up at t when f reached the leader's log end then, and at the time of
 * its previous fetch when f reached the leader's log end as of that fetch, so a follower that
 * fetches steadily behind a steady producer stays caught up.
 */
export class FollowerTracker {
  readonly #followers = new Map<number, FollowerProgress>();

  constructor(private readonly lagTimeMaxMs: number) {}

  /**
   * Starts a leadership: every follower's log end is unknown; the in-sync ones count as caught up
   * now, so none is removed before it had the time to fetch from the new leader.
   */
  reset(followers: readonly number[], inSync: readonly number[], nowMs: number): void {
    this.#followers.clear();
    for (const brokerId of followers) {
      this.#followers.set(brokerId, {
        logEndOffset: -1,
        lastCaughtUpTimeMs: inSync.includes(brokerId) ? nowMs : 0,
        lastFetchTimeMs: 0,
        lastFetchLeaderLogEndOffset: -1,
      });
    }
  }

  /** Follows a changed replica list within a leadership: new replicas start unknown, old ones go. */
  retain(followers: readonly number[]): void {
    for (const brokerId of [...this.#followers.keys()]) {
      if (!followers.includes(brokerId)) this.#followers.delete(brokerId);
    }
    for (const brokerId of followers) {
      if (!this.#followers.has(brokerId)) {
        this.#followers.set(brokerId, {
          logEndOffset: -1,
          lastCaughtUpTimeMs: 0,
          lastFetchTimeMs: 0,
          lastFetchLeaderLogEndOffset: -1,
        });
      }
    }
  }

  clear(): void {
    this.#followers.clear();
  }

  /** Records a follower's fetch at `fetchOffset` when the leader's log ended at `leaderLogEndOffset`. */
  recordFetch(brokerId: number, fetchOffset: number, leaderLogEndOffset: number, nowMs: number): void {
    const progress = this.#followers.get(brokerId);
    if (progress === undefined) return;
    if (fetchOffset >= leaderLogEndOffset) {
      progress.lastCaughtUpTimeMs = Math.max(progress.lastCaughtUpTimeMs, nowMs);
    } else if (
      fetchOffset >= progress.lastFetchLeaderLogEndOffset &&
      progress.lastFetchLeaderLogEndOffset >= 0
    ) {
      progress.lastCaughtUpTimeMs = Math.max(progress.lastCaughtUpTimeMs, progress.lastFetchTimeMs);
    }
    progress.logEndOffset = fetchOffset;
    progress.lastFetchLeaderLogEndOffset = leaderLogEndOffset;
    progress.lastFetchTimeMs = nowMs;
  }

  /** The follower's log end as its last fetch reported it; undefined before its first fetch. */
  logEndOf(brokerId: number): number | undefined {
    const progress = this.#followers.get(brokerId);
    return progress === undefined || progress.logEndOffset < 0 ? undefined : progress.logEndOffset;
  }

  isCaughtUp(brokerId: number, leaderLogEndOffset: number, nowMs: number): boolean {
    const progress = this.#followers.get(brokerId);
    if (progress === undefined) return false;
    return (
      progress.logEndOffset === leaderLogEndOffset || nowMs - progress.lastCaughtUpTimeMs <= this.lagTimeMaxMs
    );
  }

  /** Each follower's lag behind `leaderLogEndOffset` now. */
  lags(leaderLogEndOffset: number, nowMs: number): FollowerLag[] {
    return [...this.#followers].map(([brokerId, progress]) => ({
      brokerId,
      logEndOffset: progress.logEndOffset,
      lagRecords: Math.max(0, leaderLogEndOffset - Math.max(0, progress.logEndOffset)),
      lagMs:
        progress.logEndOffset === leaderLogEndOffset ? 0 : Math.max(0, nowMs - progress.lastCaughtUpTimeMs),
    }));
  }
}
