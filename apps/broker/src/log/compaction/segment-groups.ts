import type { LogConfig } from '../log-config';

/** What grouping needs of a segment. */
export interface GroupableSegment {
  readonly baseOffset: number;
  readonly sizeBytes: number;
}

/** A time index entry is the larger of the two index entries (8 bytes of time, 4 of offset). */
const TIME_INDEX_ENTRY_BYTES = 12;
/** Index entries hold offsets relative to the segment's base offset in 4 bytes. */
const MAX_RELATIVE_OFFSET = 2_147_483_647;

/**
 * Splits the segments a clean rewrites into runs that each become one segment (Kafka's
 * groupSegmentsBySize), so the small segments cleaning leaves behind are merged at the next clean.
 * A run stays within segment.bytes counted by the sizes before cleaning (what is written can only
 * be smaller), within what one index file can hold at index.interval.bytes, and within the offsets
 * a relative index entry can express. `endOffsets[i]` is one past the last offset segment `i` may
 * hold (the next segment's base offset).
 */
export function groupSegmentsBySize<S extends GroupableSegment>(
  segments: readonly S[],
  endOffsets: readonly number[],
  config: Pick<LogConfig, 'segmentBytes' | 'maxIndexBytes' | 'indexIntervalBytes'>,
): S[][] {
  const indexCapacity = Math.floor(config.maxIndexBytes / TIME_INDEX_ENTRY_BYTES);
  const bytesPerEntry = Math.max(1, config.indexIntervalBytes);
  const groups: S[][] = [];
  let current: S[] = [];
  let sizeBytes = 0;
  let indexEntries = 0;
  segments.forEach((segment, index) => {
    // At most one entry per index interval, plus the closing entry a segment gets when it rolls.
    const entries = Math.ceil(segment.sizeBytes / bytesPerEntry) + 1;
    const first = current[0];
    const fits =
      first !== undefined &&
      sizeBytes + segment.sizeBytes <= config.segmentBytes &&
      indexEntries + entries <= indexCapacity &&
      endOffsets[index]! - 1 - first.baseOffset <= MAX_RELATIVE_OFFSET;
    if (first !== undefined && !fits) {
      groups.push(current);
      current = [];
      sizeBytes = 0;
      indexEntries = 0;
    }
    current.push(segment);
    sizeBytes += segment.sizeBytes;
    indexEntries += entries;
  });
  if (current.length > 0) groups.push(current);
  return groups;
}
