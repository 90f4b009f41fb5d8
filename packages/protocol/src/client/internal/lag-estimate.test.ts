import { describe, expect, it } from 'vitest';
import type { GroupLagHistory } from './history-types';
import { estimateTimeToZero } from './lag-estimate';

function history(
  totalLag: (number | null)[],
  consumedPerSecond: (number | null)[],
  producedPerSecond: (number | null)[],
): GroupLagHistory {
  return {
    groupId: 'g',
    resolutionMs: 10_000,
    startMs: 0,
    totalLag,
    consumedPerSecond,
    producedPerSecond,
    partitions: [],
  };
}

describe('estimateTimeToZero', () => {
  it('divides the newest lag by how much faster the group consumes than its partitions grow', () => {
    const estimate = estimateTimeToZero(history([900, 600, null], [50, 40, 30], [10, 10, 10]));
    // Newest lag 600 (the last bucket has none), rates averaged over three buckets: 40 − 10 = 30/s.
    expect(estimate).toEqual({
      trend: 'catching-up',
      totalLag: 600,
      consumedPerSecond: 40,
      producedPerSecond: 10,
      secondsToZero: 20,
      basisMs: 30_000,
    });
  });

  it('reads only the last buckets given, skipping those without rates', () => {
    const estimate = estimateTimeToZero(history([100, 100, 100, 100], [0, 200, null, 20], [0, 0, 5, 10]), 2);
    expect(estimate.consumedPerSecond).toBe(110);
    expect(estimate.producedPerSecond).toBe(5);
    expect(estimate.basisMs).toBe(20_000);
  });

  it('says "not catching up" when the partitions grow as fast as the group consumes or faster', () => {
    expect(estimateTimeToZero(history([10, 20], [5, 5], [5, 15])).trend).toBe('not-catching-up');
    expect(estimateTimeToZero(history([10, 10], [0, 0], [0, 0]))).toMatchObject({
      trend: 'not-catching-up',
      secondsToZero: null,
    });
  });

  it('is caught up at zero lag, and unknown without lag samples or without rates', () => {
    expect(estimateTimeToZero(history([5, 0], [null, null], [null, null]))).toMatchObject({
      trend: 'caught-up',
      secondsToZero: 0,
    });
    expect(estimateTimeToZero(history([null], [1], [0])).trend).toBe('unknown');
    expect(estimateTimeToZero(history([7], [null], [null])).trend).toBe('unknown');
  });
});
