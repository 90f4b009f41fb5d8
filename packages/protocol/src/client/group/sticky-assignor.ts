import type { TopicPartitions } from '../../records/consumer-protocol';
import {
  type Assignor,
  type AssignorMember,
  groupByTopic,
  sortedMembers,
  subscribedPartitions,
} from './assignor';

/**
 * "cooperative-sticky": balanced like round robin, but each member keeps the partitions it owned
 * (from its subscription's owned partitions) as far as balance allows, so a rebalance moves as few
 * partitions as possible. It runs under the cooperative protocol (KIP-429): a partition that moves
 * from one current member to another is left unassigned in this round; its owner revokes it and
 * rejoins, and the next round gives it to the new owner. Members of other clients using the same
 * name (librdkafka, the Java client) follow the same rules, since the coordinator only compares names.
 */
export const cooperativeStickyAssignor: Assignor = {
  name: 'cooperative-sticky',
  rebalanceProtocol: 'cooperative',
  assign(members, partitionCounts) {
    return withoutTransfers(members, stickyAssignment(members, partitionCounts));
  },
};

/** Balanced, keeping owned partitions where balance allows (the eager half of the algorithm). */
function stickyAssignment(
  members: readonly AssignorMember[],
  partitionCounts: ReadonlyMap<string, number>,
): Map<string, TopicPartitions[]> {
  const ordered = sortedMembers(members);
  const all = subscribedPartitions(members, partitionCounts);
  const owner = new Map<string, string>();
  const held = new Map<string, [string, number][]>(ordered.map((member) => [member.memberId, []]));
  const subscribes = (memberId: string, topic: string): boolean =>
    ordered.find((member) => member.memberId === memberId)!.topics.includes(topic);
  const key = (topic: string, partition: number): string => `${topic}\u0000${partition}`;
  const exists = new Set(all.map(([topic, partition]) => key(topic, partition)));
  const minQuota = Math.floor(all.length / Math.max(1, ordered.length));
  let maxQuotaSlots = all.length - minQuota * ordered.length;
  // Pass 1 keeps up to the minimum quota of owned partitions; pass 2 lets as many members keep one
  // more as the remainder allows. Partitions claimed twice (stale owners) go to the first claimer.
  for (const pass of [1, 2]) {
    for (const member of ordered) {
      const limit = pass === 1 ? minQuota : minQuota + 1;
      if (pass === 2 && (maxQuotaSlots === 0 || held.get(member.memberId)!.length !== minQuota)) continue;
      for (const owned of member.ownedPartitions) {
        for (const partition of owned.partitions) {
          const id = key(owned.topic, partition);
          if (held.get(member.memberId)!.length >= limit) break;
          if (!exists.has(id) || owner.has(id) || !subscribes(member.memberId, owned.topic)) continue;
          owner.set(id, member.memberId);
          held.get(member.memberId)!.push([owned.topic, partition]);
        }
      }
      if (pass === 2 && held.get(member.memberId)!.length > minQuota) maxQuotaSlots--;
    }
  }
  // The rest go to the least loaded subscribed member (ties: member id order).
  for (const [topic, partition] of all) {
    if (owner.has(key(topic, partition))) continue;
    let best: string | undefined;
    for (const member of ordered) {
      if (!subscribes(member.memberId, topic)) continue;
      if (best === undefined || held.get(member.memberId)!.length < held.get(best)!.length)
        best = member.memberId;
    }
    if (best === undefined) continue;
    owner.set(key(topic, partition), best);
    held.get(best)!.push([topic, partition]);
  }
  return new Map<string, TopicPartitions[]>([...held].map(([id, list]) => [id, groupByTopic(list)]));
}

/**
 * Drops every partition that another current member still owns: that owner must revoke it first
 * (cooperative protocol). A partition whose owner left the group is free at once. When two members
 * claim one partition (a stale owner), the first claimer in member order counts as its owner, as in
 * the assignment itself.
 */
export function withoutTransfers(
  members: readonly AssignorMember[],
  assignment: ReadonlyMap<string, TopicPartitions[]>,
): Map<string, TopicPartitions[]> {
  const previousOwner = new Map<string, string>();
  for (const member of sortedMembers(members)) {
    for (const owned of member.ownedPartitions) {
      for (const partition of owned.partitions) {
        const id = `${owned.topic}\u0000${partition}`;
        if (!previousOwner.has(id)) previousOwner.set(id, member.memberId);
      }
    }
  }
  const result = new Map<string, TopicPartitions[]>();
  for (const [memberId, list] of assignment) {
    const kept: [string, number][] = [];
    for (const entry of list) {
      for (const partition of entry.partitions) {
        const owner = previousOwner.get(`${entry.topic}\u0000${partition}`);
        if (owner === undefined || owner === memberId) kept.push([entry.topic, partition]);
      }
    }
    result.set(memberId, groupByTopic(kept));
  }
  return result;
}
