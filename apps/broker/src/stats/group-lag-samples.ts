import { ErrorCode } from '@weir/protocol';
import type { GroupSnapshot } from '../group/group-views';
import { groupLag, memoizedOffsets, type PartitionOffsetsSource } from '../operator/group-lag';
import { groupConsumedKey, groupLagKey, groupProducedKey, partitionLagKey } from './history-keys';
import type { HistorySample } from './history-store';

/** Where a group partition stood at the previous sampling, for the rates between two. */
interface PartitionPosition {
  committedOffset: number | null;
  lastStableOffset: number;
}

/** Each group's partitions at the previous sampling: group id → `topic\0partition` → position. */
export type GroupPositions = Map<string, Map<string, PartitionPosition>>;

/**
 * One sampling of every group this broker coordinates, by the one lag rule (operator/group-lag.ts):
 * each readable partition's lag, the group's total, and since the previous sampling the records
 * its committed offsets moved over (consumed) and the records appended to its partitions
 * (produced, as the last stable offset moved, which is what lag counts from). Partitions that
 * cannot be read here (led by another broker, offline) are left out rather than counted as 0.
 * A commit moved back (an offset reset) or a log cut consumes or produces nothing. The groups'
 * totals come first, so a full store keeps them before their partitions.
 */
export function groupLagSamples(
  groups: readonly GroupSnapshot[],
  offsetsSource: PartitionOffsetsSource,
  previous: GroupPositions,
): { totals: HistorySample[]; partitions: HistorySample[]; positions: GroupPositions } {
  const offsetsOf = memoizedOffsets(offsetsSource);
  const totals: HistorySample[] = [];
  const partitions: HistorySample[] = [];
  const positions: GroupPositions = new Map();
  for (const group of groups) {
    const rows = groupLag(group, offsetsOf).partitions.filter((row) => row.errorCode === ErrorCode.NONE);
    if (rows.length === 0) continue;
    const before = previous.get(group.groupId);
    const now = new Map<string, PartitionPosition>();
    let totalLag = 0;
    let consumed = 0;
    let produced = 0;
    for (const row of rows) {
      const lastStableOffset = offsetsOf(row.topic, row.partition).lastStableOffset;
      const key = `${row.topic}\u0000${row.partition}`;
      const position = { committedOffset: row.committedOffset, lastStableOffset };
      now.set(key, position);
      totalLag += row.lag;
      partitions.push({
        key: partitionLagKey(group.groupId, row.topic, row.partition),
        kind: 'gauge',
        value: row.lag,
      });
      const earlier = before?.get(key);
      if (earlier === undefined) continue;
      produced += Math.max(0, lastStableOffset - earlier.lastStableOffset);
      if (earlier.committedOffset !== null && row.committedOffset !== null)
        consumed += Math.max(0, row.committedOffset - earlier.committedOffset);
    }
    positions.set(group.groupId, now);
    totals.push({ key: groupLagKey(group.groupId), kind: 'gauge', value: totalLag });
    // A group first seen has no earlier positions: its first rates are one sampling later.
    if (before !== undefined) {
      totals.push({ key: groupConsumedKey(group.groupId), kind: 'count', value: consumed });
      totals.push({ key: groupProducedKey(group.groupId), kind: 'count', value: produced });
    }
  }
  return { totals, partitions, positions };
}
