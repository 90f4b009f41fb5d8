import { type Assignment, AssignmentBuilder } from './assignment';
import type { AssignmentInput, ServerAssignor } from './assignor';

/**
 * The "uniform" assignor (Kafka's default): spreads all subscribed partitions as evenly as the
 * subscriptions allow and moves as few as it can. It keeps each member's current target partitions
 * that it still subscribes to, gives the partitions nobody keeps to the subscribed member with the
 * fewest, then moves partitions one at a time from a member to a subscribed member with at least
 * two fewer until no such move is left. With equal subscriptions every member ends with ⌊P/N⌋ or
 * ⌈P/N⌉ partitions. Weir's own algorithm with the goals Kafka states for its assignor (balance
 * first, then stickiness); the exact placement can differ from Kafka's.
 */
export const uniformAssignor: ServerAssignor = {
  name: 'uniform',
  assign(input: AssignmentInput): Map<string, Assignment> {
    const members = [...input.members].sort((left, right) => (left.memberId < right.memberId ? -1 : 1));
    const builders = new Map(members.map((member) => [member.memberId, new AssignmentBuilder()]));
    const nameOfId = new Map([...input.topics].map(([name, topic]) => [topic.topicId, name]));
    const subscribers = new Map<string, string[]>();
    for (const name of input.topics.keys()) {
      subscribers.set(
        name,
        members
          .filter((member) => member.subscribedTopicNames.includes(name))
          .map((member) => member.memberId),
      );
    }
    const taken = new Set<string>();
    const key = (topicId: string, partition: number) => `${topicId}\u0000${partition}`;

    // 1. Stickiness: a member keeps what it has and still may have.
    for (const member of members) {
      const current = input.currentTarget.get(member.memberId);
      if (!current) continue;
      for (const [topicId, partitions] of current) {
        const name = nameOfId.get(topicId);
        const topic = name === undefined ? undefined : input.topics.get(name);
        if (!topic || !member.subscribedTopicNames.includes(name!)) continue;
        for (const partition of partitions) {
          if (partition >= topic.numPartitions || taken.has(key(topicId, partition))) continue;
          taken.add(key(topicId, partition));
          builders.get(member.memberId)!.add(topicId, partition);
        }
      }
    }

    // 2. Every partition nobody kept goes to the eligible member with the fewest.
    const sortedTopics = [...input.topics].sort(([left], [right]) => (left < right ? -1 : 1));
    for (const [name, topic] of sortedTopics) {
      const eligible = subscribers.get(name)!;
      if (eligible.length === 0) continue;
      for (let partition = 0; partition < topic.numPartitions; partition++) {
        if (taken.has(key(topic.topicId, partition))) continue;
        let lightest = eligible[0]!;
        for (const memberId of eligible)
          if (builders.get(memberId)!.size < builders.get(lightest)!.size) lightest = memberId;
        builders.get(lightest)!.add(topic.topicId, partition);
        taken.add(key(topic.topicId, partition));
      }
    }

    // 3. Balance: move one partition at a time from a member to an eligible one with two fewer.
    const eligibleFor = (topicId: string) => subscribers.get(nameOfId.get(topicId)!) ?? [];
    let moved = true;
    for (let round = 0; moved && round < 100_000; round++) {
      moved = false;
      const byLoad = [...builders].sort(([, left], [, right]) => right.size - left.size);
      for (const [heavyId, heavy] of byLoad) {
        for (const [topicId, partition] of heavy.entries()) {
          let target: string | undefined;
          for (const memberId of eligibleFor(topicId)) {
            const size = builders.get(memberId)!.size;
            if (heavy.size - size >= 2 && (target === undefined || size < builders.get(target)!.size))
              target = memberId;
          }
          if (target !== undefined && target !== heavyId) {
            heavy.delete(topicId, partition);
            builders.get(target)!.add(topicId, partition);
            moved = true;
            break;
          }
        }
        if (moved) break;
      }
    }
    return new Map([...builders].map(([memberId, builder]) => [memberId, builder.build()]));
  },
};
