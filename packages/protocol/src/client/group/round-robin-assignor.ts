import type { TopicPartitions } from '../../records/consumer-protocol';
import { type Assignor, groupByTopic, sortedMembers, subscribedPartitions } from './assignor';

/**
 * Kafka's round robin, named "roundrobin" as librdkafka and the Java client name it: all
 * partitions in (topic, partition) order are dealt to members in id order, skipping members not
 * subscribed to the partition's topic.
 */
export const roundRobinAssignor: Assignor = {
  name: 'roundrobin',
  assign(members, partitionCounts) {
    const ordered = sortedMembers(members);
    const pairs = new Map<string, [string, number][]>(ordered.map((member) => [member.memberId, []]));
    let cursor = 0;
    for (const [topic, partition] of subscribedPartitions(members, partitionCounts)) {
      for (let tried = 0; tried < ordered.length; tried++) {
        const member = ordered[cursor % ordered.length]!;
        cursor++;
        if (member.topics.includes(topic)) {
          pairs.get(member.memberId)!.push([topic, partition]);
          break;
        }
      }
    }
    return new Map<string, TopicPartitions[]>([...pairs].map(([id, list]) => [id, groupByTopic(list)]));
  },
};
