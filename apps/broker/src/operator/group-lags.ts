import { ErrorCode, type GroupLagSummary, type GroupPartitionLagRow, WeirError } from '@weir/protocol';
import type { GroupCoordinator } from '../group/group-coordinator';
import type { GroupSnapshot } from '../group/group-views';
import type { GroupMetricsSnapshot } from '../http/group-metrics';
import { compareText, groupLag, memoizedOffsets, type PartitionOffsetsSource } from './group-lag';

/** The groups asked for: those found, with their lag, and the names that are not groups. */
export interface GroupLagsResult {
  groups: GroupLagSummary[];
  /** Named groups that do not exist (or are Dead), sorted. */
  missing: string[];
}

const NO_OFFSET = -1n;

/**
 * Consumer groups with their lag ({@link groupLag}, the one lag rule), computed in one pass per
 * group over its committed offsets and its members' assignments, reading offsets from memory
 * only: every group at once for the console's group list (a thousand groups in one call), one
 * group for `weir group lag`, and every group for the metrics at scrape time.
 */
export class GroupLagsView {
  constructor(
    private readonly coordinator: GroupCoordinator,
    private readonly offsetsOf: PartitionOffsetsSource,
  ) {}

  /** The named groups, or every live group for null; sorted by group id. */
  describeGroupLags(groupIds: readonly string[] | null): GroupLagsResult {
    const loadState = this.coordinator.loadState();
    if (!loadState.loaded) {
      throw new WeirError(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, {
        detail: `${loadState.loadingPartitions} __consumer_offsets partitions are still loading`,
      });
    }
    const missing: string[] = [];
    let snapshots: GroupSnapshot[];
    if (groupIds === null) {
      snapshots = this.coordinator.snapshots();
    } else {
      snapshots = [];
      for (const groupId of new Set(groupIds)) {
        const snapshot = this.coordinator.snapshot(groupId);
        if (snapshot === undefined || snapshot.state === 'Dead') missing.push(groupId);
        else snapshots.push(snapshot);
      }
    }
    const offsetsOf = memoizedOffsets(this.offsetsOf);
    const groups = snapshots.map((snapshot) => this.#summary(snapshot, offsetsOf));
    groups.sort((left, right) => compareText(left.groupId, right.groupId));
    missing.sort(compareText);
    return { groups, missing };
  }

  #summary(group: GroupSnapshot, offsetsOf: PartitionOffsetsSource): GroupLagSummary {
    const { totalLag, partitions } = groupLag(group, offsetsOf);
    return {
      groupId: group.groupId,
      state: group.state,
      protocolType: group.protocolType ?? '',
      protocol: group.protocolName ?? '',
      memberCount: group.members.length,
      totalLag: BigInt(totalLag),
      // A partition that cannot be read here shows -1 and no lag.
      partitions: partitions.map(
        (row): GroupPartitionLagRow => ({
          topic: row.topic,
          partition: row.partition,
          committedOffset: row.committedOffset === null ? NO_OFFSET : BigInt(row.committedOffset),
          logEndOffset: row.highWatermark === null ? NO_OFFSET : BigInt(row.highWatermark),
          lag: BigInt(row.lag),
          memberId: row.memberId,
        }),
      ),
    };
  }

  /** What the metrics layer reads at scrape time: members per group, rebalances, lag per partition. */
  groupStats(): GroupMetricsSnapshot {
    const offsetsOf = memoizedOffsets(this.offsetsOf);
    return {
      rebalancesTotal: this.coordinator.rebalancesTotal,
      groups: this.coordinator.snapshots().map((group) => ({
        groupId: group.groupId,
        state: group.state,
        members: group.members.length,
        partitions: groupLag(group, offsetsOf)
          .partitions.filter((row) => row.errorCode === ErrorCode.NONE)
          .map((row) => ({ topic: row.topic, partition: row.partition, lag: row.lag })),
      })),
    };
  }
}
