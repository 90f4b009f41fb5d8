import { decodeConsumerAssignment, ErrorCode, WeirError } from '@weir/protocol';
import { CONSUMER_PROTOCOL_TYPE } from '../group/group';
import type { GroupSnapshot } from '../group/group-views';
import type { PartitionOffsets } from '../replica/partition-types';

/** Where lag reads a partition's offsets: its leader, as the replica layer serves them. */
export type PartitionOffsetsSource = (topic: string, partition: number) => PartitionOffsets;

/**
 * `source`, read once per partition: a view over many groups (a thousand groups on one topic's
 * partitions) asks for the same offsets again and again within one answer. A partition that cannot
 * be read is remembered with its error.
 */
export function memoizedOffsets(source: PartitionOffsetsSource): PartitionOffsetsSource {
  const byTopic = new Map<string, (PartitionOffsets | WeirError)[]>();
  return (topic, partition) => {
    let partitions = byTopic.get(topic);
    if (partitions === undefined) {
      partitions = [];
      byTopic.set(topic, partitions);
    }
    let known = partitions[partition];
    if (known === undefined) {
      try {
        known = source(topic, partition);
      } catch (error) {
        if (!(error instanceof WeirError)) throw error;
        known = error;
      }
      partitions[partition] = known;
    }
    if (known instanceof WeirError) throw known;
    return known;
  };
}

/**
 * The lag of one partition for a committed offset, the one rule every view uses (the console's
 * group and topic lists, the metrics, `weir group lag`): last stable offset − committed offset,
 * never negative. Transaction-aware: records of a transaction still open are not counted yet (a
 * read_committed consumer cannot read them), and markers are not counted either, since such a
 * consumer's committed offset moves past them; without open transactions the last stable offset
 * is the high watermark. With nothing committed, or a commit below the log start (those records
 * are gone), it counts from the log start: what a consumer starting from the earliest offset
 * would still have to read.
 */
export function partitionLag(offsets: PartitionOffsets, committedOffset: number | null): number {
  const from =
    committedOffset === null ? offsets.logStartOffset : Math.max(committedOffset, offsets.logStartOffset);
  return Math.max(0, offsets.lastStableOffset - from);
}

/** One partition of a group's lag. Offsets are null when the partition cannot be read here. */
export interface PartitionLagRow {
  topic: string;
  partition: number;
  /** Null when the group has not committed the partition (it is only assigned). */
  committedOffset: number | null;
  /** The leader's high watermark, what Kafka's consumer-groups tool calls LOG-END-OFFSET. */
  highWatermark: number | null;
  lag: number;
  /** The member the partition is assigned to, from a Stable group's consumer-protocol assignment. */
  memberId: string | null;
  clientId: string | null;
  /** NONE, or why the partition has no offsets (it was deleted, is offline, or lives elsewhere). */
  errorCode: number;
}

export interface GroupLagRows {
  totalLag: number;
  /** Sorted by topic, then partition. */
  partitions: PartitionLagRow[];
}

/**
 * A group's lag: every partition it has committed, and every partition assigned to a member
 * without a commit yet. Ownership comes only from a Stable group's assignment: during a rebalance
 * the assignment is about to change, so none is shown.
 */
export function groupLag(group: GroupSnapshot, offsetsOf: PartitionOffsetsSource): GroupLagRows {
  const owners = assignedMembers(group);
  const rows: PartitionLagRow[] = [];
  let totalLag = 0;
  const add = (topic: string, partition: number, committedOffset: number | null) => {
    let owner: { memberId: string; clientId: string } | undefined;
    if (owners.size > 0) {
      const key = partitionKey(topic, partition);
      owner = owners.get(key);
      owners.delete(key);
    }
    const row = lagRow(topic, partition, committedOffset, owner, offsetsOf);
    totalLag += row.lag;
    rows.push(row);
  };
  for (const { topic, partition, offset } of group.offsets) add(topic, partition, offset);
  for (const key of [...owners.keys()]) {
    const separator = key.lastIndexOf('\u0000');
    add(key.slice(0, separator), Number(key.slice(separator + 1)), null);
  }
  rows.sort((left, right) => compareText(left.topic, right.topic) || left.partition - right.partition);
  return { totalLag, partitions: rows };
}

function lagRow(
  topic: string,
  partition: number,
  committedOffset: number | null,
  owner: { memberId: string; clientId: string } | undefined,
  offsetsOf: PartitionOffsetsSource,
): PartitionLagRow {
  const memberId = owner?.memberId ?? null;
  const clientId = owner?.clientId ?? null;
  try {
    const offsets = offsetsOf(topic, partition);
    const lag = partitionLag(offsets, committedOffset);
    const highWatermark = offsets.highWatermark;
    return {
      topic,
      partition,
      committedOffset,
      highWatermark,
      lag,
      memberId,
      clientId,
      errorCode: ErrorCode.NONE,
    };
  } catch (error) {
    if (!(error instanceof WeirError)) throw error;
    return {
      topic,
      partition,
      committedOffset,
      highWatermark: null,
      lag: 0,
      memberId,
      clientId,
      errorCode: error.code,
    };
  }
}

/** Which member owns each partition, from a Stable group's standard consumer-protocol assignments. */
function assignedMembers(group: GroupSnapshot): Map<string, { memberId: string; clientId: string }> {
  const owners = new Map<string, { memberId: string; clientId: string }>();
  if (group.state !== 'Stable' || group.protocolType !== CONSUMER_PROTOCOL_TYPE) return owners;
  for (const member of group.members) {
    for (const { topic, partitions } of decodeConsumerAssignment(member.assignment)?.partitions ?? []) {
      for (const partition of partitions) {
        owners.set(partitionKey(topic, partition), { memberId: member.memberId, clientId: member.clientId });
      }
    }
  }
  return owners;
}

function partitionKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

export function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
