import { type EpochEntry, writeLeaderEpochCheckpoint } from './leader-epoch-checkpoint';
import type { StorageIo } from './storage';

/** Kafka's "no epoch" and "no offset" in OffsetForLeaderEpoch answers. */
export const UNDEFINED_EPOCH = -1;
export const UNDEFINED_EPOCH_OFFSET = -1;

/** The end of a leader epoch as OffsetForLeaderEpoch answers it. */
export interface EpochEndOffset {
  /** The largest epoch at or below the one asked about that this log knows, or -1. */
  epoch: number;
  /** Where that epoch ends: the start of the next larger epoch, or the log end; -1 if unknown. */
  endOffset: number;
}

/** What assigning a batch's epoch did. */
export type EpochAssignment = 'unchanged' | 'appended' | 'stale';

/**
 * A partition's leader-epoch cache (KIP-101): for every leader epoch that wrote to the log, the
 * first offset it wrote, in order. The log appends an entry before the first batch of a new epoch
 * is written, cuts entries at or past a truncation point, and moves the first entries up when the
 * log start moves past them. Every change is persisted by replacing the partition's
 * `leader-epoch-checkpoint` file (leader-epoch-checkpoint.ts); writes are queued so the file only
 * ever moves forward. The log's owner (the replica layer) reads it to answer OffsetForLeaderEpoch
 * and the epoch of ListOffsets answers (docs/architecture.md §4, §6.1).
 */
export class LeaderEpochCache {
  #entries: EpochEntry[];
  #writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly io: StorageIo,
    private readonly path: string,
    entries: readonly EpochEntry[],
  ) {
    this.#entries = [...entries];
  }

  get entries(): readonly EpochEntry[] {
    return this.#entries;
  }

  /** The newest epoch that wrote to the log, or undefined when none did (an older Weir wrote -1). */
  get latestEpoch(): number | undefined {
    return this.#entries[this.#entries.length - 1]?.epoch;
  }

  /**
   * Notes that a batch stamped `epoch` is written at `startOffset`. A negative epoch (written
   * before Weir had epochs) and the current epoch change nothing; an older epoch than the newest is
   * `stale` and changes nothing either (Kafka ignores it too); a new epoch is appended, after
   * removing any entry that starts at or past its start (it could only be left from a cut tail).
   * The caller persists an `appended` change before the batch is written.
   */
  assign(epoch: number, startOffset: number): EpochAssignment {
    if (epoch < 0) return 'unchanged';
    const latest = this.#entries[this.#entries.length - 1];
    if (latest !== undefined && latest.epoch === epoch) return 'unchanged';
    if (latest !== undefined && epoch < latest.epoch) return 'stale';
    this.#entries = this.#entries.filter((entry) => entry.startOffset < startOffset);
    this.#entries.push({ epoch, startOffset });
    return 'appended';
  }

  /** Removes every entry starting at or past `endOffset` (the log was cut there); true if any went. */
  truncateFromEnd(endOffset: number): boolean {
    const kept = this.#entries.filter((entry) => entry.startOffset < endOffset);
    if (kept.length === this.#entries.length) return false;
    this.#entries = kept;
    return true;
  }

  /**
   * The log start moved to `startOffset`: entries wholly below it go, and the last one starting at
   * or below it now starts there (its epoch still holds the first offsets left); true if changed.
   */
  truncateFromStart(startOffset: number): boolean {
    let lastBelow = -1;
    for (let index = 0; index < this.#entries.length; index++) {
      if (this.#entries[index]!.startOffset <= startOffset) lastBelow = index;
    }
    if (lastBelow < 0) return false;
    const first = this.#entries[lastBelow]!;
    if (lastBelow === 0 && first.startOffset === startOffset) return false;
    this.#entries = [{ epoch: first.epoch, startOffset }, ...this.#entries.slice(lastBelow + 1)];
    return true;
  }

  /**
   * Kafka's answer to "where does epoch `requested` end" for a log ending at `logEndOffset`: the
   * newest epoch ends at the log end; an older one ends where the next larger epoch starts, and the
   * answer names the largest known epoch at or below it; one below every known epoch ends where the
   * first known epoch starts (its records are gone from the log, KIP-279); -1 and an epoch above
   * the newest are undefined (-1, -1).
   */
  endOffsetFor(requested: number, logEndOffset: number): EpochEndOffset {
    const undefinedAnswer = { epoch: UNDEFINED_EPOCH, endOffset: UNDEFINED_EPOCH_OFFSET };
    if (requested === UNDEFINED_EPOCH) return undefinedAnswer;
    if (this.latestEpoch === requested) return { epoch: requested, endOffset: logEndOffset };
    const higher = this.#entries.find((entry) => entry.epoch > requested);
    if (higher === undefined) return undefinedAnswer;
    let floor: EpochEntry | undefined;
    for (const entry of this.#entries) if (entry.epoch <= requested) floor = entry;
    return { epoch: floor === undefined ? requested : floor.epoch, endOffset: higher.startOffset };
  }

  /** The epoch that wrote `offset` (the last entry starting at or below it), or -1 when none is known. */
  epochForOffset(offset: number): number {
    let epoch = UNDEFINED_EPOCH;
    for (const entry of this.#entries) {
      if (entry.startOffset > offset) break;
      epoch = entry.epoch;
    }
    return epoch;
  }

  /**
   * Replaces the checkpoint file with the entries as they are when the write starts. Writes run one
   * at a time in call order, so a later change never lands before an earlier one.
   */
  persist(): Promise<void> {
    const write = this.#writes
      .catch(() => undefined)
      .then(() => writeLeaderEpochCheckpoint(this.io, this.path, this.#entries));
    this.#writes = write;
    return write;
  }
}
