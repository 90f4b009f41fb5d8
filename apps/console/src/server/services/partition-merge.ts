import type { ScannedRecord } from '@weir/protocol';
import type { Cursor } from './search-cursor';
import type { PartitionStart } from './start-positions';

/*
 * The deterministic order of a multi-partition search: a k-way merge of the partitions' record
 * streams (each in offset order), always taking the head with the smallest
 * (timestampMs, partition, offset). A head is only known once the partition has a buffered match
 * or has been scanned to its end; while some partition has neither, the merge waits for it. Since
 * the merge depends only on the streams and the per-partition positions, continuing from a cursor
 * (the positions after a page) yields exactly the rows a single larger page would have had next.
 */

interface PartitionState {
  readonly partition: number;
  /** Where this request began: with `endOffset`, the span that progress is measured against. */
  readonly startOffset: bigint;
  readonly endOffset: bigint;
  /** Where the broker scan continues. */
  scanOffset: bigint;
  /** Scanned to `endOffset`. */
  scanDone: boolean;
  /** Matches scanned but not yet taken, in offset order. */
  readonly buffer: ScannedRecord[];
}

/** One span of one partition the broker must scan next, and how many matches it may return. */
export interface ScanNeed {
  readonly partition: number;
  readonly startOffset: bigint;
  readonly endOffset: bigint;
  readonly matches: number;
}

/** Where a partition's part of the search stands, for progress: the offsets covered so far. */
export interface MergePosition {
  readonly partition: number;
  readonly startOffset: bigint;
  /** Covered is `nextOffset - startOffset` out of `endOffset - startOffset`. */
  readonly nextOffset: bigint;
  readonly endOffset: bigint;
  readonly done: boolean;
}

/** The order a search hands out rows in: oldest first (PartitionMerge) or newest first. */
export interface SearchMerge {
  /**
   * What to scan next for `remaining` more rows. `stepRecords` is how many records the next scan
   * step may examine in all, so a merge that needs a span scanned whole can size it to fit.
   */
  needs(remaining: number, stepRecords: number): ScanNeed[];
  addScan(partition: number, records: readonly ScannedRecord[], nextOffset: bigint, done: boolean): void;
  take(limit: number): ScannedRecord[];
  readonly exhausted: boolean;
  cursor(): Cursor;
  positions(): MergePosition[];
}

function precedes(left: ScannedRecord, right: ScannedRecord): boolean {
  if (left.timestampMs !== right.timestampMs) return left.timestampMs < right.timestampMs;
  if (left.partition !== right.partition) return left.partition < right.partition;
  return left.offset < right.offset;
}

/**
 * The k-way merge step both orders share: takes up to `limit` buffered rows, each time the head
 * that `comesFirst` puts before every other, and stops as soon as a partition with nothing
 * buffered is not `done`, since its next match could come before every head.
 */
export function takeInOrder<State extends { readonly buffer: ScannedRecord[] }>(
  states: readonly State[],
  limit: number,
  comesFirst: (left: ScannedRecord, right: ScannedRecord) => boolean,
  done: (state: State) => boolean,
): ScannedRecord[] {
  const taken: ScannedRecord[] = [];
  while (taken.length < limit) {
    let best: State | undefined;
    let blocked = false;
    for (const state of states) {
      const head = state.buffer[0];
      if (head === undefined) {
        if (!done(state)) blocked = true;
        continue;
      }
      if (best === undefined || comesFirst(head, best.buffer[0]!)) best = state;
    }
    if (blocked || best === undefined) break;
    taken.push(best.buffer.shift()!);
  }
  return taken;
}

export class PartitionMerge implements SearchMerge {
  readonly #states: PartitionState[];

  constructor(starts: readonly PartitionStart[]) {
    this.#states = starts.map((start) => ({
      partition: start.partition,
      startOffset: start.startOffset,
      endOffset: start.endOffset,
      scanOffset: start.startOffset,
      scanDone: start.startOffset >= start.endOffset,
      buffer: [],
    }));
  }

  /**
   * Partitions that must be scanned further to supply `remaining` more rows, with how many each.
   * Those the merge is blocked on (nothing buffered) come first: the broker spends a step's record
   * budget in request order, and a page cut short by its budget only moves forward in partitions
   * it scanned past their buffered rows, so the blocking ones must never be starved.
   */
  needs(remaining: number): ScanNeed[] {
    return this.#states
      .filter((state) => !state.scanDone && state.buffer.length < remaining)
      .sort((left, right) => Number(left.buffer.length > 0) - Number(right.buffer.length > 0))
      .map((state) => ({
        partition: state.partition,
        startOffset: state.scanOffset,
        endOffset: state.endOffset,
        matches: remaining - state.buffer.length,
      }));
  }

  /** Records one scan step's answer for a partition. */
  addScan(partition: number, records: readonly ScannedRecord[], nextOffset: bigint, done: boolean): void {
    const state = this.#states.find((candidate) => candidate.partition === partition);
    if (state === undefined) return;
    state.buffer.push(...records);
    state.scanOffset = nextOffset > state.scanOffset ? nextOffset : state.scanOffset;
    state.scanDone = done || state.scanOffset >= state.endOffset;
  }

  /** Takes up to `limit` rows in merge order, stopping early where the next head is not known yet. */
  take(limit: number): ScannedRecord[] {
    return takeInOrder(this.#states, limit, precedes, (state) => state.scanDone);
  }

  /** Every partition read to its end with nothing left to take. */
  get exhausted(): boolean {
    return this.#states.every((state) => state.scanDone && state.buffer.length === 0);
  }

  /**
   * Where a next page continues: the first match not yet taken, or, with none buffered, where the
   * scan stopped (everything before it was taken or did not match).
   */
  cursor(): Cursor {
    return new Map(
      this.#states.map((state) => [state.partition, state.buffer[0]?.offset ?? state.scanOffset] as const),
    );
  }

  positions(): MergePosition[] {
    return this.#states.map((state) => ({
      partition: state.partition,
      startOffset: state.startOffset,
      nextOffset: state.buffer[0]?.offset ?? state.scanOffset,
      endOffset: state.endOffset,
      done: state.scanDone && state.buffer.length === 0,
    }));
  }
}
