import { describe, expect, it } from 'vitest';
import { type CompactionSettings, cleanableRange, type SegmentSummary } from './cleanable-range';

const HOUR_MS = 3_600_000;
const NOW_MS = 100 * HOUR_MS;

/** Kafka's defaults: ratio 0.5, no minimum lag, no maximum lag. */
const defaults: CompactionSettings = {
  minCleanableDirtyRatio: 0.5,
  minCompactionLagMs: 0,
  maxCompactionLagMs: Number.MAX_SAFE_INTEGER,
};

/** Segments of 100 offsets and 1000 bytes each, written an hour apart, the last one hour ago. */
function segments(count: number): SegmentSummary[] {
  return Array.from({ length: count }, (_, index) => ({
    baseOffset: index * 100,
    nextOffset: (index + 1) * 100,
    sizeBytes: 1000,
    firstTimestampMs: NOW_MS - (count - index + 1) * HOUR_MS,
    largestTimestampMs: NOW_MS - (count - index) * HOUR_MS,
  }));
}

describe('cleanableRange', () => {
  it('is due once the dirty segments reach the ratio, and stops at the active segment', () => {
    const log = {
      segments: segments(4),
      activeBaseOffset: 400,
      firstUnstableOffset: 450,
      cleanedUpToOffset: 200,
    };
    expect(cleanableRange(log, defaults, NOW_MS)).toEqual({
      firstDirtyOffset: 200,
      firstUncleanableOffset: 400,
      cleanBytes: 2000,
      dirtyBytes: 2000,
      dirtyRatio: 0.5,
      due: 'dirty-ratio',
      // Segment 2 (offsets 200-299), the oldest dirty one, begins 3 h ago.
      oldestDirtyTimestampMs: NOW_MS - 3 * HOUR_MS,
    });
    expect(cleanableRange(log, { ...defaults, minCleanableDirtyRatio: 0.6 }, NOW_MS).due).toBeNull();
  });

  it('never cleans at or above the first open transaction', () => {
    const log = {
      segments: segments(4),
      activeBaseOffset: 400,
      firstUnstableOffset: 250,
      cleanedUpToOffset: 0,
    };
    const range = cleanableRange(log, defaults, NOW_MS);
    expect(range.firstUncleanableOffset).toBe(250);
    // Only segments wholly below the LSO count as dirty: 0-99 and 100-199.
    expect(range.dirtyBytes).toBe(2000);
  });

  it('leaves segments with records younger than min.compaction.lag.ms', () => {
    const log = {
      segments: segments(4),
      activeBaseOffset: 400,
      firstUnstableOffset: 400,
      cleanedUpToOffset: 0,
    };
    // Segment 2 (offsets 200-299) ends 2 h ago, segment 3 one hour ago: with a 90 min lag, only 3 waits.
    const range = cleanableRange(log, { ...defaults, minCompactionLagMs: 90 * 60_000 }, NOW_MS);
    expect(range.firstUncleanableOffset).toBe(300);
    expect(range.dirtyBytes).toBe(3000);
  });

  it('is due by max.compaction.lag.ms when the oldest dirty record waited too long, whatever the ratio', () => {
    const log = {
      segments: segments(10),
      activeBaseOffset: 1000,
      firstUnstableOffset: 1000,
      cleanedUpToOffset: 900,
    };
    const settings = { ...defaults, minCleanableDirtyRatio: 0.9 };
    expect(cleanableRange(log, settings, NOW_MS).due).toBeNull();
    // The dirty segment's first record is 2 h old.
    expect(cleanableRange(log, { ...settings, maxCompactionLagMs: HOUR_MS }, NOW_MS).due).toBe(
      'max-compaction-lag',
    );
  });

  it('has nothing to clean in a log that is all active segment', () => {
    const range = cleanableRange(
      { segments: [], activeBaseOffset: 0, firstUnstableOffset: 0, cleanedUpToOffset: 0 },
      defaults,
      NOW_MS,
    );
    expect(range).toMatchObject({ dirtyBytes: 0, dirtyRatio: 0, due: null, firstUncleanableOffset: 0 });
  });
});
