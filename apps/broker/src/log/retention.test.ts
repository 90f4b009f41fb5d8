import { describe, expect, it } from 'vitest';
import { type RetentionPolicy, type RetentionSegment, segmentsToDelete } from './retention';

const NOW_MS = 1_000_000;

/** Three closed segments of 100 bytes and 10 offsets each, written 900, 500 and 100 ms ago. */
const SEGMENTS: readonly RetentionSegment[] = [
  { baseOffset: 0, nextOffset: 10, sizeBytes: 100, maxTimestampMs: NOW_MS - 900 },
  { baseOffset: 10, nextOffset: 20, sizeBytes: 100, maxTimestampMs: NOW_MS - 500 },
  { baseOffset: 20, nextOffset: 30, sizeBytes: 100, maxTimestampMs: NOW_MS - 100 },
];

const ACTIVE_SEGMENT_BYTES = 50;

function policy(overrides: Partial<RetentionPolicy>): RetentionPolicy {
  return { retentionMs: -1, retentionBytes: -1, deleteByRetention: true, ...overrides };
}

describe('segmentsToDelete and the cleanup policy', () => {
  it('deletes by retention.ms and retention.bytes under the delete policy', () => {
    expect(segmentsToDelete(SEGMENTS, ACTIVE_SEGMENT_BYTES, 0, policy({ retentionMs: 600 }), NOW_MS)).toEqual(
      { count: 1, reason: 'retention.ms' },
    );
    expect(
      segmentsToDelete(SEGMENTS, ACTIVE_SEGMENT_BYTES, 0, policy({ retentionBytes: 150 }), NOW_MS),
    ).toEqual({ count: 2, reason: 'retention.bytes' });
  });

  it('deletes nothing by retention.ms or retention.bytes when the policy is compact only', () => {
    const compactOnly = policy({ retentionMs: 0, retentionBytes: 0, deleteByRetention: false });
    expect(segmentsToDelete(SEGMENTS, ACTIVE_SEGMENT_BYTES, 0, compactOnly, NOW_MS)).toEqual({
      count: 0,
      reason: undefined,
    });
  });

  it('still deletes the segments below the log start offset when the policy is compact only', () => {
    const compactOnly = policy({ retentionMs: 0, retentionBytes: 0, deleteByRetention: false });
    expect(segmentsToDelete(SEGMENTS, ACTIVE_SEGMENT_BYTES, 20, compactOnly, NOW_MS)).toEqual({
      count: 2,
      reason: 'log-start-offset',
    });
  });
});
