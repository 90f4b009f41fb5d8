import { type Assignment, AssignmentBuilder } from './assignment';
import type { AssignmentInput, ServerAssignor } from './assignor';

/**
 * The "range" assignor: topic by topic, the members subscribed to it (ordered by instance id for
 * static members, then member id, so a restarted static member gets its range back) take
 * contiguous ranges of partitions, the first `partitions % members` one partition more. Members
 * subscribed to the same co-partitioned topics get the same partition numbers of each, which is
 * what joins across topics rely on. This is the rule of the client-side RangeAssignor; Kafka 3.9's
 * server-side one also keeps partitions in place where the ranges allow, which this one does not.
 */
export const rangeAssignor: ServerAssignor = {
  name: 'range',
  assign(input: AssignmentInput): Map<string, Assignment> {
    const builders = new Map<string, AssignmentBuilder>();
    for (const member of input.members) builders.set(member.memberId, new AssignmentBuilder());
    const sortKey = (member: AssignmentInput['members'][number]) =>
      `${member.instanceId === null ? '1' : `0${member.instanceId}`}\u0000${member.memberId}`;
    const ordered = [...input.members].sort((left, right) => (sortKey(left) < sortKey(right) ? -1 : 1));
    for (const [name, topic] of input.topics) {
      const subscribed = ordered.filter((member) => member.subscribedTopicNames.includes(name));
      if (subscribed.length === 0) continue;
      const base = Math.floor(topic.numPartitions / subscribed.length);
      const extra = topic.numPartitions % subscribed.length;
      let next = 0;
      subscribed.forEach((member, index) => {
        const count = base + (index < extra ? 1 : 0);
        for (let partition = next; partition < next + count; partition++) {
          builders.get(member.memberId)!.add(topic.topicId, partition);
        }
        next += count;
      });
    }
    return new Map([...builders].map(([memberId, builder]) => [memberId, builder.build()]));
  },
};
