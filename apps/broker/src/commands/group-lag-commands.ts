import {
  decodeConsumerAssignment,
  ErrorCode,
  type GroupLagSummary,
  type GroupPartitionLagRow,
  WeirError,
} from '@weir/protocol';
import { CONSUMER_PROTOCOL_TYPE } from '../group/group';
import type { GroupCoordinator } from '../group/group-coordinator';
import type { GroupSnapshot } from '../group/group-views';
import type { LogManager } from '../log/log-manager';

/** The groups asked for: those found, with their lag, and the names that are not groups. */
export interface GroupLagsResult {
  groups: GroupLagSummary[];
  /** Named groups that do not exist (or are Dead), sorted. */
  missing: string[];
}

const NO_OFFSET = -1n;

/**
 * Consumer groups with their lag, computed in one pass per group over its committed offsets and
 * its members' assignments, reading offsets from memory only. Unlike `GroupCommands.groupLag`
 * (one group, numbers for the CLI), this answers for every group at once, which is what the
 * console's group list needs: a thousand groups in one call.
 */
export class GroupLagCommands {
  constructor(
    private readonly coordinator: GroupCoordinator,
    private readonly logs: LogManager,
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
    const groups = snapshots.map((snapshot) => this.#summary(snapshot));
    groups.sort((left, right) => compareText(left.groupId, right.groupId));
    missing.sort(compareText);
    return { groups, missing };
  }

  #summary(group: GroupSnapshot): GroupLagSummary {
    const owners = assignedMembers(group);
    const rows: GroupPartitionLagRow[] = [];
    let totalLag = 0n;
    for (const { topic, partition, offset } of group.offsets) {
      const key = partitionKey(topic, partition);
      const row = this.#row(topic, partition, BigInt(offset), owners.get(key) ?? null);
      owners.delete(key);
      totalLag += row.lag;
      rows.push(row);
    }
    // Assigned partitions without a commit yet: their lag counts from the log start.
    for (const [key, memberId] of owners) {
      const separator = key.lastIndexOf('\u0000');
      const row = this.#row(key.slice(0, separator), Number(key.slice(separator + 1)), NO_OFFSET, memberId);
      totalLag += row.lag;
      rows.push(row);
    }
    rows.sort((left, right) => compareText(left.topic, right.topic) || left.partition - right.partition);
    return {
      groupId: group.groupId,
      state: group.state,
      protocolType: group.protocolType ?? '',
      protocol: group.protocolName ?? '',
      memberCount: group.members.length,
      totalLag,
      partitions: rows,
    };
  }

  /**
   * One partition's row. `logEndOffset` is the high watermark, as Kafka's consumer-groups tool
   * reports it; a partition that no longer exists shows -1 and no lag. The lag is
   * transaction-aware: last stable offset − committed offset, floored at 0, so an open
   * transaction's records are not counted before they are readable by a read_committed consumer,
   * and markers are not counted because such a consumer's committed offset moves past them.
   */
  #row(
    topic: string,
    partition: number,
    committedOffset: bigint,
    memberId: string | null,
  ): GroupPartitionLagRow {
    const log = this.logs.getLog(topic, partition);
    if (log === undefined || log.isOffline) {
      return { topic, partition, committedOffset, logEndOffset: -1n, lag: 0n, memberId };
    }
    const highWatermark = BigInt(log.highWatermark);
    const lastStable = BigInt(log.lastStableOffset);
    const logStart = BigInt(log.logStartOffset);
    const from = committedOffset > logStart ? committedOffset : logStart;
    const lag = lastStable > from ? lastStable - from : 0n;
    return { topic, partition, committedOffset, logEndOffset: highWatermark, lag, memberId };
  }
}

/**
 * Which member owns each partition, from the standard consumer protocol's assignments. Only a
 * Stable group's assignment is current; during a rebalance it is about to change, so none is shown.
 */
function assignedMembers(group: GroupSnapshot): Map<string, string> {
  const owners = new Map<string, string>();
  if (group.state !== 'Stable' || group.protocolType !== CONSUMER_PROTOCOL_TYPE) return owners;
  for (const member of group.members) {
    for (const { topic, partitions } of decodeConsumerAssignment(member.assignment)?.partitions ?? []) {
      for (const partition of partitions) owners.set(partitionKey(topic, partition), member.memberId);
    }
  }
  return owners;
}

function partitionKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
