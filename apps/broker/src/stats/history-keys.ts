/*
 * The names of the history's series. A key is a JSON array (kind first), so any group id or
 * topic name fits without escaping rules of its own, and a group's partition series share a
 * prefix a reader can look for.
 */

/** A group's lag summed over the partitions readable here (a gauge). */
export function groupLagKey(groupId: string): string {
  return JSON.stringify(['group-lag', groupId]);
}

/** Records the group's committed offsets moved over (a count): how fast it consumes. */
export function groupConsumedKey(groupId: string): string {
  return JSON.stringify(['group-consumed', groupId]);
}

/** Records appended to the group's partitions (a count): how fast its input grows. */
export function groupProducedKey(groupId: string): string {
  return JSON.stringify(['group-produced', groupId]);
}

/** One partition's lag for one group (a gauge). */
export function partitionLagKey(groupId: string, topic: string, partition: number): string {
  return JSON.stringify(['partition-lag', groupId, topic, partition]);
}

/** What every partition lag key of a group starts with. */
export function partitionLagPrefix(groupId: string): string {
  return `${JSON.stringify(['partition-lag', groupId]).slice(0, -1)},`;
}

/** The topic and partition of a partition lag key. */
export function parsePartitionLagKey(key: string): { topic: string; partition: number } {
  const [, , topic, partition] = JSON.parse(key) as [string, string, string, number];
  return { topic, partition };
}

/** The four counts kept per topic. */
export type TopicTrafficMeasure = 'recordsIn' | 'recordsOut' | 'bytesIn' | 'bytesOut';

export const TOPIC_TRAFFIC_MEASURES: readonly TopicTrafficMeasure[] = [
  'recordsIn',
  'recordsOut',
  'bytesIn',
  'bytesOut',
];

/** Client traffic of one topic on this broker (a count). */
export function topicTrafficKey(topic: string, measure: TopicTrafficMeasure): string {
  return JSON.stringify(['topic', topic, measure]);
}
