import { ErrorCode, WeirError } from '@weir/protocol';
import type { PartitionAssignment } from '../metadata/metadata-store';
import { type FollowerLag, FollowerTracker } from './follower-progress';
import { type InSyncSets, isrWith, isrWithout, sameMembers } from './isr-change';

/** What a partition's replication needs from the replica layer around it. */
export interface PartitionReplication {
  nowMs(): number;
  /** replica.lag.time.max.ms: a follower not caught up for longer leaves the ISR. */
  replicaLagTimeMaxMs: number;
  /**
   * Stores an ISR change the leader made, as a compare-and-swap on the assignment's version
   * (docs/architecture.md §6.5); resolves once stored, rejects when another change came first.
   */
  alterIsr(next: PartitionAssignment): Promise<void>;
  /** Told when an ISR change the leader tried failed for another reason than a lost race. */
  onAlterIsrFailed(topic: string, partition: number, error: unknown): void;
  /** Told when the log of a partition this broker leads or follows failed (it gives up its place). */
  onLogOffline(topic: string, partition: number): void;
  /** The storage id a broker registered with now (cluster mode), recorded when it joins the ISR. */
  storageIdOf(brokerId: number): string | undefined;
  /** Whether a broker is registered (its session live): only a live follower may join the ISR. */
  isLive(brokerId: number): boolean;
}

/**
 * A partition leader's side of the ISR (docs/architecture.md §6.5): its followers' progress, the
 * ISR change it is storing, and the log end its leadership began with. A follower that has not
 * caught up within replica.lag.time.max.ms leaves the ISR; one whose log end reached the high
 * watermark and the start of this leadership joins it again. Each change is one compare-and-swap
 * on the assignment; the high watermark counts the members of both the stored ISR and the one
 * being stored (Kafka's maximal ISR), so a shrink counts only once stored and an expansion holds
 * the high watermark to the joining follower at once.
 */
export class LeaderIsr {
  readonly #followers: FollowerTracker;
  #pendingIsr: readonly number[] | undefined;
  #epochStartOffset = 0;

  constructor(
    private readonly localBrokerId: number,
    private readonly replication: PartitionReplication,
  ) {
    this.#followers = new FollowerTracker(replication.replicaLagTimeMaxMs);
  }

  /** The log end when this leadership began: no follower joins the ISR below it. */
  get epochStartOffset(): number {
    return this.#epochStartOffset;
  }

  /**
   * Follows an applied assignment. Whatever ISR change was being stored has landed or lost its
   * race, so the next check starts afresh; a new leadership starts with every follower's log end
   * unknown and its in-sync followers caught up as of now, so none leaves before it could fetch.
   */
  applied(assignment: PartitionAssignment, leadership: 'new' | 'same' | 'none', logEndOffset: number): void {
    this.#pendingIsr = undefined;
    const followers = assignment.replicas.filter((id) => id !== this.localBrokerId);
    if (leadership === 'new') {
      this.#epochStartOffset = logEndOffset;
      this.#followers.reset(followers, assignment.isr, this.replication.nowMs());
    } else if (leadership === 'same') {
      this.#followers.retain(followers);
    } else {
      this.#followers.clear();
    }
  }

  /** Records a follower's fetch: its fetch offset is its log end. */
  recordFetch(followerId: number, fetchOffset: number, leaderLogEndOffset: number): void {
    this.#followers.recordFetch(followerId, fetchOffset, leaderLogEndOffset, this.replication.nowMs());
  }

  /** Brings a follower whose log end reached the high watermark and this leadership's start back in. */
  maybeExpand(
    assignment: PartitionAssignment,
    followerId: number,
    highWatermark: number,
    minInsyncReplicas: number,
  ): void {
    if (this.#pendingIsr !== undefined || assignment.isr.includes(followerId)) return;
    // A follower fetching without a session (back from a cut, not registered again yet) is caught
    // up but not live: the controller would take it out again at once (KIP-841 keeps fenced
    // brokers out of the ISR for the same reason), so it joins once registered.
    if (!this.replication.isLive(followerId)) return;
    const logEndOffset = this.#followers.logEndOf(followerId);
    if (logEndOffset === undefined || logEndOffset < highWatermark || logEndOffset < this.#epochStartOffset)
      return;
    this.#alter(assignment, isrWith(assignment, followerId, minInsyncReplicas));
  }

  /** Removes the in-sync followers that have not caught up within the lag time. */
  checkShrink(assignment: PartitionAssignment, leaderLogEndOffset: number, minInsyncReplicas: number): void {
    if (this.#pendingIsr !== undefined) return;
    const nowMs = this.replication.nowMs();
    const lagging = assignment.isr.filter(
      (id) => id !== this.localBrokerId && !this.#followers.isCaughtUp(id, leaderLogEndOffset, nowMs),
    );
    if (lagging.length > 0) this.#alter(assignment, isrWithout(assignment, lagging, minInsyncReplicas));
  }

  /**
   * The smallest log end among the members of the maximal ISR, or undefined while one of them has
   * not fetched under this leadership.
   */
  highWatermarkCandidate(isr: readonly number[], localLogEndOffset: number): number | undefined {
    // This broker alone (a standalone broker, or a replicated partition whose ISR shrank to its
    // leader) with no change being stored: the leader's log end is the candidate. Every append
    // asks, so this spares the common case building a set.
    if (this.#pendingIsr === undefined && isr.length === 1 && isr[0] === this.localBrokerId)
      return localLogEndOffset;
    let candidate = Number.POSITIVE_INFINITY;
    for (const brokerId of new Set([...isr, ...(this.#pendingIsr ?? [])])) {
      const end = brokerId === this.localBrokerId ? localLogEndOffset : this.#followers.logEndOf(brokerId);
      if (end === undefined) return undefined;
      candidate = Math.min(candidate, end);
    }
    return Number.isFinite(candidate) ? candidate : undefined;
  }

  lags(leaderLogEndOffset: number): FollowerLag[] {
    return this.#followers.lags(leaderLogEndOffset, this.replication.nowMs());
  }

  #alter(assignment: PartitionAssignment, next: InSyncSets): void {
    if (sameMembers(next.isr, assignment.isr) && sameMembers(next.elr, assignment.elr ?? [])) return;
    const { elr: _previous, memberStorage: recorded, ...rest } = assignment;
    const pending = next.isr;
    this.#pendingIsr = pending;
    // A member that joins now is recorded with the storage it fetched from; the others keep theirs.
    const memberStorage: Record<string, string> = { ...recorded };
    for (const id of next.isr) {
      const storageId = this.replication.storageIdOf(id);
      if (!assignment.isr.includes(id) && storageId !== undefined) memberStorage[String(id)] = storageId;
    }
    this.replication
      .alterIsr({
        ...rest,
        isr: next.isr,
        ...(next.elr.length === 0 ? {} : { elr: next.elr }),
        ...(Object.keys(memberStorage).length === 0 ? {} : { memberStorage }),
      })
      .then(
        () => {},
        (error: unknown) => {
          // Lost to another change (its assignment is on its way) or not stored: try again later.
          if (this.#pendingIsr === pending) this.#pendingIsr = undefined;
          if (!(error instanceof WeirError && error.code === ErrorCode.INVALID_UPDATE_VERSION)) {
            this.replication.onAlterIsrFailed(assignment.topic, assignment.partition, error);
          }
        },
      );
  }
}
