import type { TopicPartitions } from '../../records/consumer-protocol';

/** One member as the group leader sees it when assigning. */
export interface AssignorMember {
  readonly memberId: string;
  readonly topics: readonly string[];
  /** What the member held before this rebalance (subscription v1), for sticky assignors. */
  readonly ownedPartitions: readonly TopicPartitions[];
}

/**
 * A partition assignment strategy. The name is what JoinGroup advertises: every member of a group
 * must share at least one name, or the coordinator refuses the newcomer with
 * INCONSISTENT_GROUP_PROTOCOL. Only the elected leader runs `assign`.
 */
export interface Assignor {
  readonly name: string;
  /**
   * How members using this assignor rebalance. 'eager' (the default): every member revokes all its
   * partitions before rejoining. 'cooperative' (KIP-429): members keep consuming what they keep,
   * revoke only partitions that move, and rejoin once more so those reach their new owners; the
   * assignor must then never hand a partition straight from one current member to another.
   */
  readonly rebalanceProtocol?: 'eager' | 'cooperative';
  /**
   * Partitions per member id (members given nothing may be left out).
   * @param partitionCounts partition count of every topic some member subscribes to and that exists
   */
  assign(
    members: readonly AssignorMember[],
    partitionCounts: ReadonlyMap<string, number>,
  ): Map<string, TopicPartitions[]>;
}

/** A member's partitions as sorted topic → partitions lists. */
export function groupByTopic(pairs: readonly (readonly [string, number])[]): TopicPartitions[] {
  const byTopic = new Map<string, number[]>();
  for (const [topic, partition] of pairs) {
    const list = byTopic.get(topic) ?? [];
    list.push(partition);
    byTopic.set(topic, list);
  }
  return [...byTopic]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([topic, partitions]) => ({ topic, partitions: partitions.sort((a, b) => a - b) }));
}

/** Member ids in a stable order, so every leader computes the same answer from the same input. */
export function sortedMembers(members: readonly AssignorMember[]): AssignorMember[] {
  return [...members].sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0));
}

/** Every existing (topic, partition) some member subscribes to, sorted by topic then partition. */
export function subscribedPartitions(
  members: readonly AssignorMember[],
  partitionCounts: ReadonlyMap<string, number>,
): [string, number][] {
  const topics = [...new Set(members.flatMap((member) => member.topics))]
    .filter((topic) => partitionCounts.has(topic))
    .sort();
  return topics.flatMap((topic) =>
    Array.from({ length: partitionCounts.get(topic)! }, (_, partition): [string, number] => [
      topic,
      partition,
    ]),
  );
}
