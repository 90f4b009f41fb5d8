import type { Admin, PartitionOffsetRange } from '@weir/protocol';
import { ErrorCode, WeirError } from '@weir/protocol';
import { type KeyPruning, pruneToKeyPartition } from './key-pruning';
import type { Cursor } from './search-cursor';

/** Where a search starts when it has no cursor. */
export type StartSpec =
  | { readonly mode: 'beginning' }
  | { readonly mode: 'end' }
  | { readonly mode: 'offset'; readonly offset: bigint }
  | { readonly mode: 'timestamp'; readonly timestampMs: number }
  | { readonly mode: 'newest'; readonly count: number };

export type OffsetsAdmin = Pick<Admin, 'topicOffsets' | 'listOffsets'>;

/** One partition's readable range at the time of the search, and where the search begins in it. */
export interface PartitionStart {
  readonly partition: number;
  readonly logStartOffset: bigint;
  /** The high watermark when the search started: the exclusive end of what it reads. */
  readonly endOffset: bigint;
  readonly startOffset: bigint;
}

/** The partitions a search reads, and whether a key filter narrowed them. */
export interface ResolvedStarts {
  readonly starts: PartitionStart[];
  readonly pruning: KeyPruning | null;
}

function clamp(value: bigint, low: bigint, high: bigint): bigint {
  return value < low ? low : value > high ? high : value;
}

/**
 * Resolves each selected partition's start: from the cursor when there is one (its partitions are
 * the selection), else from the start spec. Offsets are clamped into [log start, high watermark],
 * so a cursor into deleted records continues at the log start. With `exactKey`, the selection
 * narrows to the partition the key hashes to (see key-pruning.ts). A read_committed search's
 * ranges end at the last stable offset, where a read_committed consumer's "latest" is, so its end
 * (and a live tail's start) is what such a consumer could read.
 */
export async function resolveStartPositions(
  admin: OffsetsAdmin,
  topic: string,
  spec: StartSpec,
  selected: readonly number[] | undefined,
  cursor: Cursor | undefined,
  exactKey?: string,
  isolation: 'read_committed' | 'read_uncommitted' = 'read_uncommitted',
): Promise<ResolvedStarts> {
  const ranges = await admin.topicOffsets(topic, isolation);
  const byPartition = new Map<number, PartitionOffsetRange>(ranges.map((range) => [range.partition, range]));
  const wanted =
    cursor !== undefined ? [...cursor.keys()] : (selected ?? ranges.map((range) => range.partition));
  const unique = [...new Set(wanted)].sort((left, right) => left - right);
  for (const partition of unique) {
    if (!byPartition.has(partition)) {
      throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, {
        detail: `Topic "${topic}" has no partition ${partition}.`,
      });
    }
  }
  const { partitions, pruning } =
    exactKey === undefined || ranges.length === 0
      ? { partitions: unique, pruning: null }
      : pruneToKeyPartition(unique, exactKey, ranges.length);
  if (spec.mode === 'newest')
    return { starts: newestWindows(spec.count, partitions, byPartition, cursor), pruning };
  const offsets = await startOffsets(admin, topic, spec, partitions, byPartition, cursor);
  const starts = partitions.map((partition, index) => {
    const range = byPartition.get(partition)!;
    return {
      partition,
      logStartOffset: range.earliest,
      endOffset: range.latest,
      startOffset: clamp(offsets[index]!, range.earliest, range.latest),
    };
  });
  return { starts, pruning };
}

/**
 * The newest-N windows, read newest first (newest-first-merge.ts): an even split, each partition
 * contributing its newest ceil(N / partitions) records, so the window of partition p is
 * [high watermark - share, high watermark). A cursor holds each partition's exclusive upper bound
 * for the next page. The window's start is computed from the current high watermark, so when
 * producers write between pages, the later pages end that many records sooner.
 */
function newestWindows(
  count: number,
  partitions: readonly number[],
  byPartition: ReadonlyMap<number, PartitionOffsetRange>,
  cursor: Cursor | undefined,
): PartitionStart[] {
  const share = BigInt(Math.ceil(count / Math.max(1, partitions.length)));
  return partitions.map((partition) => {
    const range = byPartition.get(partition)!;
    const upper = clamp(cursor?.get(partition) ?? range.latest, range.earliest, range.latest);
    return {
      partition,
      logStartOffset: range.earliest,
      endOffset: upper,
      startOffset: clamp(range.latest - share, range.earliest, upper),
    };
  });
}

async function startOffsets(
  admin: OffsetsAdmin,
  topic: string,
  spec: Exclude<StartSpec, { mode: 'newest' }>,
  partitions: readonly number[],
  ranges: ReadonlyMap<number, PartitionOffsetRange>,
  cursor: Cursor | undefined,
): Promise<bigint[]> {
  if (cursor !== undefined) return partitions.map((partition) => cursor.get(partition)!);
  const range = (partition: number) => ranges.get(partition)!;
  switch (spec.mode) {
    case 'beginning':
      return partitions.map((partition) => range(partition).earliest);
    case 'end':
      return partitions.map((partition) => range(partition).latest);
    case 'offset':
      return partitions.map(() => spec.offset);
    case 'timestamp': {
      if (partitions.length === 0) return [];
      const found = await admin.listOffsets(
        partitions.map((partition) => ({ topic, partition, spec: { timestampMs: spec.timestampMs } })),
      );
      // No record at or after the time: start at the end, so the search finds nothing old.
      return found.map((answer) => (answer.offset < 0n ? range(answer.partition).latest : answer.offset));
    }
  }
}
