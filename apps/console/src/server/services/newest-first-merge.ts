import type { ScannedRecord } from '@weir/protocol';
import { type MergePosition, type ScanNeed, type SearchMerge, takeInOrder } from './partition-merge';
import type { Cursor } from './search-cursor';
import type { PartitionStart } from './start-positions';

/*
 * The order of a "newest N" search: newest first. Each partition is read from the end of its span
 * down to its start in chunks; a chunk is scanned forward (the broker only scans forward), and once
 * it is complete its matches join the partition's buffer in descending offset order. The merge
 * always takes the head with the largest (timestampMs, partition, offset), the exact mirror of
 * PartitionMerge, and waits while some partition has neither a buffered match nor reached its start.
 *
 * The cursor is, per partition, the exclusive upper bound of what is left: one past the newest
 * match not yet taken or, with none buffered, the lowest offset scanned so far. So the next page
 * continues exactly where this one ended, neither repeating nor skipping a record.
 *
 * A chunk never has more offsets than matches it may return (`ScanNeed.matches`), so the broker's
 * match limit can never cut a chunk short at its old end while its newest matches go unread.
 * Without filters every offset matches and the first chunk holds just the rows the page still
 * needs; with filters matches are sparse, so a chunk that came back short makes the next one
 * larger, up to MAX_CHUNK_OFFSETS.
 */

/** The most offsets one chunk spans, which also bounds the matches one scan may return. */
const MAX_CHUNK_OFFSETS = 2_000n;

interface PartitionState {
  readonly partition: number;
  /** The lowest offset this search reads (the newest-N window's start). */
  readonly startOffset: bigint;
  /** The exclusive upper bound this request began at. */
  readonly endOffset: bigint;
  /** Everything at or above this offset has been scanned. */
  scannedDownTo: bigint;
  /** The chunk being scanned, [low, high), and where its forward scan continues. */
  chunk: { low: bigint; high: bigint; next: bigint; records: ScannedRecord[] } | undefined;
  /** The offsets the next chunk spans. */
  chunkOffsets: bigint;
  /** Matches scanned but not yet taken, newest (highest offset) first. */
  readonly buffer: ScannedRecord[];
}

function follows(left: ScannedRecord, right: ScannedRecord): boolean {
  if (left.timestampMs !== right.timestampMs) return left.timestampMs > right.timestampMs;
  if (left.partition !== right.partition) return left.partition > right.partition;
  return left.offset > right.offset;
}

function isDone(state: PartitionState): boolean {
  return state.chunk === undefined && state.scannedDownTo <= state.startOffset;
}

export class NewestFirstMerge implements SearchMerge {
  readonly #states: PartitionState[];

  constructor(starts: readonly PartitionStart[]) {
    this.#states = starts.map((start) => ({
      partition: start.partition,
      startOffset: start.startOffset,
      endOffset: start.endOffset,
      scannedDownTo: start.endOffset,
      chunk: undefined,
      chunkOffsets: 0n,
      buffer: [],
    }));
  }

  /**
   * As PartitionMerge.needs: partitions the merge is blocked on come first. A new chunk fits in its
   * share of the next step's record budget: a chunk left unfinished when a page's budget ends
   * moves no cursor, so a chunk larger than the budget would never let paging advance.
   */
  needs(remaining: number, stepRecords: number): ScanNeed[] {
    const needs: ScanNeed[] = [];
    const states = this.#states
      .filter((state) => !isDone(state) && state.buffer.length < remaining)
      .sort((left, right) => Number(left.buffer.length > 0) - Number(right.buffer.length > 0));
    const starting = states.filter((state) => state.chunk === undefined).length;
    const budgetShare = BigInt(Math.max(1, Math.floor(stepRecords / Math.max(1, starting))));
    for (const state of states) {
      if (state.chunk === undefined) {
        const wantedOffsets = bigMax(state.chunkOffsets, BigInt(remaining - state.buffer.length));
        const offsets = bigMin(bigMin(wantedOffsets, MAX_CHUNK_OFFSETS), budgetShare);
        const low = bigMax(state.scannedDownTo - offsets, state.startOffset);
        state.chunk = { low, high: state.scannedDownTo, next: low, records: [] };
        state.chunkOffsets = offsets;
      }
      const { chunk } = state;
      needs.push({
        partition: state.partition,
        startOffset: chunk.next,
        endOffset: chunk.high,
        matches: Number(chunk.high - chunk.low),
      });
    }
    return needs;
  }

  /** Records one scan step's answer for a partition: part or the rest of its current chunk. */
  addScan(partition: number, records: readonly ScannedRecord[], nextOffset: bigint, done: boolean): void {
    const state = this.#states.find((candidate) => candidate.partition === partition);
    const chunk = state?.chunk;
    if (state === undefined || chunk === undefined) return;
    chunk.records.push(...records);
    chunk.next = bigMax(nextOffset, chunk.next);
    if (!done && chunk.next < chunk.high) return;
    const found = chunk.records.length;
    for (let index = found - 1; index >= 0; index -= 1) state.buffer.push(chunk.records[index]!);
    state.scannedDownTo = chunk.low;
    state.chunk = undefined;
    // Sparse matches: the next chunk looks four times as far back.
    if (BigInt(found) * 2n < chunk.high - chunk.low) state.chunkOffsets *= 4n;
  }

  /** Takes up to `limit` rows newest first, stopping early where the next head is not known yet. */
  take(limit: number): ScannedRecord[] {
    return takeInOrder(this.#states, limit, follows, isDone);
  }

  get exhausted(): boolean {
    return this.#states.every((state) => isDone(state) && state.buffer.length === 0);
  }

  cursor(): Cursor {
    return new Map(this.#states.map((state) => [state.partition, upperBound(state)] as const));
  }

  /**
   * Reading down from the end, the covered offsets are those from the upper bound to the end; they
   * are reported as forward progress over the same span, so one progress bar serves both orders.
   */
  positions(): MergePosition[] {
    return this.#states.map((state) => ({
      partition: state.partition,
      startOffset: state.startOffset,
      nextOffset: state.startOffset + (state.endOffset - upperBound(state)),
      endOffset: state.endOffset,
      done: isDone(state) && state.buffer.length === 0,
    }));
  }
}

/** One past the newest match not yet taken, or the lowest offset scanned when none is buffered. */
function upperBound(state: PartitionState): bigint {
  const head = state.buffer[0];
  return head === undefined ? state.scannedDownTo : head.offset + 1n;
}

function bigMax(left: bigint, right: bigint): bigint {
  return left > right ? left : right;
}

function bigMin(left: bigint, right: bigint): bigint {
  return left < right ? left : right;
}
