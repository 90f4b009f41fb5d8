import { describe, expect, it } from 'vitest';
import type { CleanableRange } from './cleanable-range';
import { nextCleanAfter } from './next-clean-due';

const HOUR_MS = 3_600_000;

/** A range judged not due: 10% dirty, its oldest dirty record written at hour 5. */
const notDue: CleanableRange = {
  firstDirtyOffset: 900,
  firstUncleanableOffset: 1000,
  cleanBytes: 9000,
  dirtyBytes: 1000,
  dirtyRatio: 0.1,
  due: null,
  oldestDirtyTimestampMs: 5 * HOUR_MS,
};

const stats = {
  readBytes: 10_000,
  writtenBytes: 4_000,
  keptRecords: 10,
  removedRecords: 90,
  segmentsBefore: 11,
  segmentsAfter: 2,
};

describe('nextCleanAfter', () => {
  it('waits for the dirty ratio, and with max.compaction.lag.ms until the oldest dirty record has waited it', () => {
    const outcome = { kind: 'not-due' as const, range: notDue };
    expect(nextCleanAfter(outcome, { maxCompactionLagMs: Number.POSITIVE_INFINITY }, 0)).toEqual({
      kind: 'dirty-ratio',
      latestAtMs: undefined,
    });
    expect(nextCleanAfter(outcome, { maxCompactionLagMs: 2 * HOUR_MS }, 0)).toEqual({
      kind: 'dirty-ratio',
      latestAtMs: 7 * HOUR_MS,
    });
  });

  it('has no latest time while nothing dirty waits, whatever max.compaction.lag.ms', () => {
    const range = { ...notDue, dirtyBytes: 0, dirtyRatio: 0, oldestDirtyTimestampMs: undefined };
    expect(nextCleanAfter({ kind: 'not-due', range }, { maxCompactionLagMs: HOUR_MS }, 0)).toEqual({
      kind: 'dirty-ratio',
      latestAtMs: undefined,
    });
  });

  it('is due now after a clean that stopped short of the cleanable range (its key map was full)', () => {
    const due = { ...notDue, due: 'dirty-ratio' as const };
    const settings = { maxCompactionLagMs: HOUR_MS };
    expect(
      nextCleanAfter({ kind: 'cleaned', range: due, cleanedUpToOffset: 950, ...stats }, settings, 0),
    ).toEqual({ kind: 'now' });
    expect(
      nextCleanAfter({ kind: 'cleaned', range: due, cleanedUpToOffset: 1000, ...stats }, settings, 0),
    ).toEqual({ kind: 'dirty-ratio', latestAtMs: undefined });
  });

  it('retries after the backoff when the attempt failed or was given up', () => {
    const settings = { maxCompactionLagMs: HOUR_MS };
    expect(nextCleanAfter(undefined, settings, 42)).toEqual({ kind: 'retry', atMs: 42 });
    expect(nextCleanAfter({ kind: 'abandoned', range: notDue, reason: 'truncated' }, settings, 43)).toEqual({
      kind: 'retry',
      atMs: 43,
    });
  });
});
