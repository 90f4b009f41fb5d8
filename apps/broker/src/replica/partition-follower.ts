import type { EpochEndOffset } from '../log/leader-epoch-cache';
import type { PartitionLog } from '../log/partition-log';
import type { AppendResult } from '../log/partition-log-types';

/** What a partition's follower side needs of the partition it belongs to (partition.ts). */
export interface FollowedPartition {
  /**
   * The log while this broker follows the partition at `leaderEpoch`; throws the error that says
   * why not (NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR) otherwise.
   */
  followerLog(leaderEpoch: number): PartitionLog;
  highWatermark(): number;
  /** Sets the high watermark and tells the parked fetches. */
  setHighWatermark(offset: number): void;
  /** Runs a cut of the log that began as a follower; the partition serves nothing as leader meanwhile. */
  cutting(cut: () => Promise<void>): Promise<void>;
}

/** What a follower's truncation asks the leader about: its log end and its newest leader epoch. */
export interface FollowerLogState {
  logStartOffset: number;
  logEndOffset: number;
  latestEpoch: number;
  endOffsetForEpoch(epoch: number): EpochEndOffset;
}

/**
 * A partition's follower side (docs/architecture.md §6.5): the leader's batches appended byte for
 * byte, the leader's high watermark and log start followed, and the cuts a follower makes to its
 * log (a divergent tail, a restart at the leader's log start). Every call names the leader epoch
 * it follows, and fails once the partition no longer follows at that epoch.
 */
export class PartitionFollower {
  constructor(private readonly partition: FollowedPartition) {}

  /**
   * Appends the batches a leader's fetch answer carried, as its follower at `leaderEpoch`, byte
   * for byte (their offsets and epochs are the leader's), and resolves once they are fdatasync'd:
   * the follower's next fetch reports them as its log end, and what the leader counts as
   * replicated must be on disk. Returns the new log end.
   */
  async append(batches: readonly Buffer[], leaderEpoch: number): Promise<number> {
    const log = this.partition.followerLog(leaderEpoch);
    const appends: Promise<AppendResult>[] = [];
    for (const batch of batches) {
      const header = log.validate(batch, 'replication');
      appends.push(log.appendValidated(batch, header, { origin: 'replication' }));
    }
    await Promise.all(appends);
    await log.waitUntilDurable(log.logEndOffset);
    return log.logEndOffset;
  }

  /**
   * What a leader's fetch answer says of the partition: the follower's high watermark becomes the
   * leader's, capped at its own log end, and its log start follows the leader's up to there.
   */
  async followLeaderOffsets(
    leaderEpoch: number,
    leaderOffsets: { highWatermark: number; logStartOffset: number },
  ): Promise<void> {
    const log = this.partition.followerLog(leaderEpoch);
    const highWatermark = Math.min(leaderOffsets.highWatermark, log.logEndOffset);
    if (highWatermark > this.partition.highWatermark()) this.partition.setHighWatermark(highWatermark);
    const logStart = Math.min(leaderOffsets.logStartOffset, this.partition.highWatermark());
    if (logStart > log.logStartOffset) await log.deleteRecordsBefore(logStart);
  }

  /**
   * Begins this follower's log again, empty, at the leader's log start, when its own log ends
   * below it (what it lacks is gone from the leader too). Its high watermark starts there.
   */
  async restartAt(leaderEpoch: number, offset: number): Promise<void> {
    const log = this.partition.followerLog(leaderEpoch);
    await this.partition.cutting(() => log.restartAt(offset));
    this.partition.setHighWatermark(offset);
  }

  /** Cuts this follower's log at `offset` (a divergent tail, found with OffsetForLeaderEpoch). */
  async truncate(leaderEpoch: number, offset: number): Promise<void> {
    const log = this.partition.followerLog(leaderEpoch);
    await this.partition.cutting(() => log.truncateTo(offset));
  }

  logState(leaderEpoch: number): FollowerLogState {
    const log = this.partition.followerLog(leaderEpoch);
    const epochs = log.leaderEpochs;
    return {
      logStartOffset: log.logStartOffset,
      logEndOffset: log.logEndOffset,
      latestEpoch: epochs.length === 0 ? -1 : epochs[epochs.length - 1]!.epoch,
      endOffsetForEpoch: (epoch) => log.endOffsetForEpoch(epoch),
    };
  }
}
