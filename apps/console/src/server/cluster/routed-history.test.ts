import type { GroupLagHistory, TopicThroughputHistory } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { mergeLagHistories, mergeThroughputHistories } from './routed-history';

function topicRow(startMs: number, recordsIn: (number | null)[]): TopicThroughputHistory {
  return {
    topic: 'orders',
    resolutionMs: 1000,
    startMs,
    recordsInPerSecond: recordsIn,
    recordsOutPerSecond: recordsIn.map(() => null),
    bytesInPerSecond: recordsIn,
    bytesOutPerSecond: recordsIn,
  };
}

function groupRow(
  startMs: number,
  totalLag: (number | null)[],
  partitionLag: (number | null)[],
): GroupLagHistory {
  return {
    groupId: 'billing',
    resolutionMs: 1000,
    startMs,
    totalLag,
    consumedPerSecond: totalLag,
    producedPerSecond: totalLag,
    partitions: [{ topic: 'orders', partition: 0, lag: partitionLag }],
  };
}

describe('merging the brokers’ histories', () => {
  it('sums a topic’s traffic bucket by bucket over brokers whose windows start apart', () => {
    const merged = mergeThroughputHistories([
      { sampleIntervalMs: 1000, rows: [topicRow(10_000, [1, 2, null])] },
      { sampleIntervalMs: 1000, rows: [topicRow(11_000, [10, 20, 30])] },
    ]);
    expect(merged.rows).toHaveLength(1);
    expect(merged.rows[0]).toMatchObject({
      startMs: 10_000,
      recordsInPerSecond: [1, 12, 20, 30],
      recordsOutPerSecond: [null, null, null, null],
    });
  });

  it('takes a group’s lag from whichever broker sampled it in a bucket, the larger when both did', () => {
    const merged = mergeLagHistories([
      { sampleIntervalMs: 1000, rows: [groupRow(0, [5, 6, null, null], [5, 6, null, null])] },
      { sampleIntervalMs: 1000, rows: [groupRow(0, [null, 9, 7, 0], [null, 9, 7, 0])] },
    ]);
    expect(merged.rows[0]!.totalLag).toEqual([5, 9, 7, 0]);
    expect(merged.rows[0]!.partitions).toEqual([{ topic: 'orders', partition: 0, lag: [5, 9, 7, 0] }]);
  });

  it('leaves out answers of a coarser resolution than the finest one', () => {
    const coarse = { ...topicRow(0, [100]), resolutionMs: 60_000 };
    const merged = mergeThroughputHistories([
      { sampleIntervalMs: 1000, rows: [topicRow(0, [1, 1])] },
      { sampleIntervalMs: 60_000, rows: [coarse] },
    ]);
    expect(merged).toEqual({ sampleIntervalMs: 1000, rows: [{ ...topicRow(0, [1, 1]) }] });
  });
});
