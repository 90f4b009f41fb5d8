import type { TopicPartitions } from '../../records/consumer-protocol';
import { type Assignor, groupByTopic, sortedMembers } from './assignor';

/**
 * Kafka's "range": per topic, the subscribed members in id order get consecutive ranges of
 * partitions; the first `partitions % members` get one more. Co-partitioned topics line up.
 */
export const rangeAssignor: Assignor = {
  name: 'range',
  assign(members, partitionCounts) {
    const pairs = new Map<string, [string, number][]>(members.map((member) => [member.memberId, []]));
    const topics = [...new Set(members.flatMap((member) => member.topics))].sort();
    for (const topic of topics) {
      const count = partitionCounts.get(topic);
      if (count === undefined) continue;
      const subscribers = sortedMembers(members).filter((member) => member.topics.includes(topic));
      const base = Math.floor(count / subscribers.length);
      const extra = count % subscribers.length;
      let next = 0;
      subscribers.forEach((member, index) => {
        const size = base + (index < extra ? 1 : 0);
        for (let partition = next; partition < next + size; partition++)
          pairs.get(member.memberId)!.push([topic, partition]);
        next += size;
      });
    }
    return new Map<string, TopicPartitions[]>([...pairs].map(([id, list]) => [id, groupByTopic(list)]));
  },
};
