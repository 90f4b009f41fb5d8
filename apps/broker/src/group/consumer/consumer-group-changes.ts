import { assignmentToWire, EMPTY_ASSIGNMENT, sameAssignment } from './assignment';
import type { ConsumerGroupSnapshot } from './consumer-group';
import { type ConsumerMember, MEMBER_STATE_BYTES, metadataDiffers } from './consumer-member';
import type { ConsumerGroupRecord } from './consumer-records';

/**
 * The records that take a consumer group's `__consumer_offsets` state from `before` to `after`:
 * tombstones for the members that went, then, as Kafka orders one heartbeat's records, changed
 * member metadata, subscription metadata, the group epoch, target assignments, the target epoch
 * and current assignments. Only what changed is written.
 */
export function changeRecords(
  groupId: string,
  before: ConsumerGroupSnapshot,
  after: ConsumerGroupSnapshot,
): ConsumerGroupRecord[] {
  const records: ConsumerGroupRecord[] = [];
  for (const memberId of before.members.keys()) {
    if (!after.members.has(memberId)) records.push(...memberTombstones(groupId, memberId));
  }
  for (const member of after.members.values()) {
    const previous = before.members.get(member.memberId);
    if (!previous || metadataDiffers(previous, member)) records.push(memberRecord(groupId, member));
  }
  if (!sameSubscriptionMetadata(before, after)) records.push(subscriptionRecord(groupId, after));
  if (before.groupEpoch !== after.groupEpoch) {
    records.push({ kind: 'consumer-group-epoch', groupId, value: { epoch: after.groupEpoch } });
  }
  for (const [memberId, target] of after.targetAssignment) {
    const previous = before.targetAssignment.get(memberId);
    if (!previous || !sameAssignment(previous, target)) {
      records.push({
        kind: 'consumer-target-member',
        groupId,
        memberId,
        value: { topicPartitions: assignmentToWire(target) },
      });
    }
  }
  if (before.assignmentEpoch !== after.assignmentEpoch) {
    records.push({
      kind: 'consumer-target-epoch',
      groupId,
      value: { assignmentEpoch: after.assignmentEpoch },
    });
  }
  for (const member of after.members.values()) {
    const previous = before.members.get(member.memberId);
    if (!previous || currentAssignmentDiffers(previous, member))
      records.push(currentAssignmentRecord(groupId, member));
  }
  return records;
}

/** Every record of the group as tombstones: what deleting it, or switching it to the classic protocol, writes. */
export function groupTombstones(groupId: string, state: ConsumerGroupSnapshot): ConsumerGroupRecord[] {
  const records: ConsumerGroupRecord[] = [];
  for (const memberId of state.members.keys()) records.push(...memberTombstones(groupId, memberId));
  records.push(
    { kind: 'consumer-subscription-metadata', groupId, value: null },
    { kind: 'consumer-target-epoch', groupId, value: null },
    { kind: 'consumer-group-epoch', groupId, value: null },
  );
  return records;
}

function memberTombstones(groupId: string, memberId: string): ConsumerGroupRecord[] {
  return [
    { kind: 'consumer-current-assignment', groupId, memberId, value: null },
    { kind: 'consumer-target-member', groupId, memberId, value: null },
    { kind: 'consumer-member', groupId, memberId, value: null },
  ];
}

function memberRecord(groupId: string, member: ConsumerMember): ConsumerGroupRecord {
  return {
    kind: 'consumer-member',
    groupId,
    memberId: member.memberId,
    value: {
      instanceId: member.instanceId,
      rackId: member.rackId,
      clientId: member.clientId,
      clientHost: member.clientHost,
      subscribedTopicNames: [...member.subscribedTopicNames],
      rebalanceTimeoutMs: member.rebalanceTimeoutMs,
      serverAssignor: member.serverAssignor,
    },
  };
}

function currentAssignmentRecord(groupId: string, member: ConsumerMember): ConsumerGroupRecord {
  return {
    kind: 'consumer-current-assignment',
    groupId,
    memberId: member.memberId,
    value: {
      memberEpoch: member.memberEpoch,
      previousMemberEpoch: member.previousMemberEpoch,
      state: MEMBER_STATE_BYTES[member.state],
      assignedPartitions: assignmentToWire(member.assignedPartitions),
      partitionsPendingRevocation: assignmentToWire(member.partitionsPendingRevocation ?? EMPTY_ASSIGNMENT),
    },
  };
}

function currentAssignmentDiffers(left: ConsumerMember, right: ConsumerMember): boolean {
  return (
    left.memberEpoch !== right.memberEpoch ||
    left.previousMemberEpoch !== right.previousMemberEpoch ||
    left.state !== right.state ||
    !sameAssignment(left.assignedPartitions, right.assignedPartitions) ||
    !sameAssignment(left.partitionsPendingRevocation, right.partitionsPendingRevocation)
  );
}

function sameSubscriptionMetadata(before: ConsumerGroupSnapshot, after: ConsumerGroupSnapshot): boolean {
  if (before.subscriptionMetadata.size !== after.subscriptionMetadata.size) return false;
  for (const [name, topic] of after.subscriptionMetadata) {
    const previous = before.subscriptionMetadata.get(name);
    if (previous?.topicId !== topic.topicId || previous.numPartitions !== topic.numPartitions) return false;
  }
  return true;
}

function subscriptionRecord(groupId: string, state: ConsumerGroupSnapshot): ConsumerGroupRecord {
  return {
    kind: 'consumer-subscription-metadata',
    groupId,
    value: {
      topics: [...state.subscriptionMetadata].map(([topicName, topic]) => ({
        topicId: topic.topicId,
        topicName,
        numPartitions: topic.numPartitions,
      })),
    },
  };
}
