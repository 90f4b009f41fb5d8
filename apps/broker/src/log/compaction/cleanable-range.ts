/** One segment as the cleaner judges it: its offsets, bytes and record times. */
export interface SegmentSummary {
  baseOffset: number;
  /** One past its last offset. */
  nextOffset: number;
  sizeBytes: number;
  /** The earliest and latest record timestamp in it; -1 when it holds none. */
  firstTimestampMs: number;
  largestTimestampMs: number;
}

/** The topic settings that decide when and how far a partition is cleaned (Kafka's names). */
export interface CompactionSettings {
  /** min.cleanable.dirty.ratio */
  minCleanableDirtyRatio: number;
  /** min.compaction.lag.ms: a record stays uncompacted at least this long. */
  minCompactionLagMs: number;
  /** max.compaction.lag.ms: a record is eligible for cleaning at most this long after it was written. */
  maxCompactionLagMs: number;
}

export interface PartitionLogState {
  /** Closed segments, oldest first; the active one is not among them. */
  segments: readonly SegmentSummary[];
  /** The active segment's base offset: nothing at or above it is cleaned. */
  activeBaseOffset: number;
  /** The first offset of a transaction still open (the LSO), or the log end when none is. */
  firstUnstableOffset: number;
  /** Where the last clean ended (the cleaner's checkpoint); the log start when never cleaned. */
  cleanedUpToOffset: number;
}

/** What the cleaner would clean now, and whether it is due (Kafka's LogCleanerManager rules). */
export interface CleanableRange {
  /** The first offset not yet cleaned. */
  firstDirtyOffset: number;
  /** The first offset the cleaner may not touch: the active segment, the LSO, or min.compaction.lag.ms. */
  firstUncleanableOffset: number;
  cleanBytes: number;
  dirtyBytes: number;
  /** dirtyBytes over the log's cleanable bytes, 0 with none. */
  dirtyRatio: number;
  /** Why a clean is due, or null while it is not. */
  due: 'dirty-ratio' | 'max-compaction-lag' | null;
  /** The first record time of the oldest dirty segment (max.compaction.lag.ms counts from it); undefined with none. */
  oldestDirtyTimestampMs: number | undefined;
}

/**
 * Which part of a partition's log the cleaner may clean now, and whether it should. The dirty part
 * starts where the last clean ended and stops before the first of: the active segment, the first
 * open transaction (records above the LSO may still be aborted), and the first segment holding a
 * record younger than min.compaction.lag.ms. A clean is due when the dirty share of the cleanable
 * bytes reaches min.cleanable.dirty.ratio, or when the oldest dirty record has waited longer than
 * max.compaction.lag.ms, whatever the ratio.
 */
export function cleanableRange(
  log: PartitionLogState,
  settings: CompactionSettings,
  nowMs: number,
): CleanableRange {
  const firstDirtyOffset = log.cleanedUpToOffset;
  let firstUncleanableOffset = Math.min(log.activeBaseOffset, log.firstUnstableOffset);
  if (settings.minCompactionLagMs > 0) {
    const tooYoung = log.segments.find(
      (segment) =>
        segment.nextOffset > firstDirtyOffset &&
        segment.largestTimestampMs > nowMs - settings.minCompactionLagMs,
    );
    if (tooYoung !== undefined)
      firstUncleanableOffset = Math.min(firstUncleanableOffset, tooYoung.baseOffset);
  }
  firstUncleanableOffset = Math.max(firstUncleanableOffset, firstDirtyOffset);
  let cleanBytes = 0;
  let dirtyBytes = 0;
  let oldestDirtyMs = Number.POSITIVE_INFINITY;
  for (const segment of log.segments) {
    // A segment counts as dirty only when it lies wholly in the cleanable range: the cleaner
    // cleans whole segments.
    if (segment.nextOffset <= firstDirtyOffset) cleanBytes += segment.sizeBytes;
    else if (segment.baseOffset >= firstDirtyOffset && segment.nextOffset <= firstUncleanableOffset) {
      dirtyBytes += segment.sizeBytes;
      if (segment.firstTimestampMs >= 0) oldestDirtyMs = Math.min(oldestDirtyMs, segment.firstTimestampMs);
    }
  }
  const total = cleanBytes + dirtyBytes;
  const dirtyRatio = total === 0 ? 0 : dirtyBytes / total;
  let due: CleanableRange['due'] = null;
  if (dirtyBytes > 0 && dirtyRatio >= settings.minCleanableDirtyRatio) due = 'dirty-ratio';
  else if (dirtyBytes > 0 && nowMs - oldestDirtyMs > settings.maxCompactionLagMs) due = 'max-compaction-lag';
  return {
    firstDirtyOffset,
    firstUncleanableOffset,
    cleanBytes,
    dirtyBytes,
    dirtyRatio,
    due,
    oldestDirtyTimestampMs: Number.isFinite(oldestDirtyMs) ? oldestDirtyMs : undefined,
  };
}
