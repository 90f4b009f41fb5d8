import { type Assignment, assignmentFromWire, assignmentToWire, EMPTY_ASSIGNMENT } from './assignment';
import { ConsumerGroup } from './consumer-group';
import { type ConsumerMember, memberStateOfByte } from './consumer-member';
import type {
  ConsumerGroupRecord,
  ConsumerMemberRecordValue,
  CurrentAssignmentRecordValue,
  SubscriptionMetadataRecordValue,
} from './consumer-records';

/**
 * The consumer-protocol records of one group, accumulated in log order during a replay (a later
 * record replaces an earlier one with the same key, a tombstone removes it), and the group they
 * describe. What a restart keeps is everything Kafka keeps: the group epoch, the subscription
 * metadata, every member with its epochs, state and partitions, and the target assignment with
 * its epoch; members then have one session timeout to heartbeat again.
 */
export class ConsumerGroupLoad {
  groupEpoch: number | undefined;
  assignmentEpoch = 0;
  subscriptionMetadata: SubscriptionMetadataRecordValue | undefined;
  readonly members = new Map<string, ConsumerMemberRecordValue>();
  readonly targets = new Map<string, Assignment>();
  readonly currentAssignments = new Map<string, CurrentAssignmentRecordValue>();

  /** Applies one record; returns false when it was the group's tombstone (the group is gone). */
  apply(record: ConsumerGroupRecord): boolean {
    switch (record.kind) {
      case 'consumer-group-epoch':
        if (record.value === null) return false;
        this.groupEpoch = record.value.epoch;
        return true;
      case 'consumer-subscription-metadata':
        this.subscriptionMetadata = record.value ?? undefined;
        return true;
      case 'consumer-target-epoch':
        this.assignmentEpoch = record.value?.assignmentEpoch ?? 0;
        return true;
      case 'consumer-member':
        if (record.value === null) this.members.delete(record.memberId);
        else this.members.set(record.memberId, record.value);
        return true;
      case 'consumer-target-member':
        if (record.value === null) this.targets.delete(record.memberId);
        else this.targets.set(record.memberId, assignmentFromWire(record.value.topicPartitions));
        return true;
      case 'consumer-current-assignment':
        if (record.value === null) this.currentAssignments.delete(record.memberId);
        else this.currentAssignments.set(record.memberId, record.value);
        return true;
    }
  }

  /** The loaded state as records, in the order Kafka writes them. */
  records(groupId: string): ConsumerGroupRecord[] {
    const records: ConsumerGroupRecord[] = [];
    for (const [memberId, value] of this.members)
      records.push({ kind: 'consumer-member', groupId, memberId, value });
    if (this.subscriptionMetadata) {
      records.push({ kind: 'consumer-subscription-metadata', groupId, value: this.subscriptionMetadata });
    }
    records.push({ kind: 'consumer-group-epoch', groupId, value: { epoch: this.groupEpoch ?? 0 } });
    for (const [memberId, target] of this.targets) {
      records.push({
        kind: 'consumer-target-member',
        groupId,
        memberId,
        value: { topicPartitions: assignmentToWire(target) },
      });
    }
    records.push({
      kind: 'consumer-target-epoch',
      groupId,
      value: { assignmentEpoch: this.assignmentEpoch },
    });
    for (const [memberId, value] of this.currentAssignments) {
      records.push({ kind: 'consumer-current-assignment', groupId, memberId, value });
    }
    return records;
  }

  /** The group, or undefined when no group epoch was loaded (only stray member records). */
  build(groupId: string): ConsumerGroup | undefined {
    if (this.groupEpoch === undefined) return undefined;
    const group = new ConsumerGroup(groupId);
    group.groupEpoch = this.groupEpoch;
    group.assignmentEpoch = this.assignmentEpoch;
    for (const topic of this.subscriptionMetadata?.topics ?? []) {
      group.subscriptionMetadata.set(topic.topicName, {
        topicId: topic.topicId,
        numPartitions: topic.numPartitions,
      });
    }
    for (const [memberId, metadata] of this.members) {
      const current = this.currentAssignments.get(memberId);
      const member: ConsumerMember = {
        memberId,
        ...metadata,
        memberEpoch: current?.memberEpoch ?? 0,
        previousMemberEpoch: current?.previousMemberEpoch ?? 0,
        state: current === undefined ? 'stable' : memberStateOfByte(current.state),
        assignedPartitions: current ? assignmentFromWire(current.assignedPartitions) : EMPTY_ASSIGNMENT,
        partitionsPendingRevocation: current
          ? assignmentFromWire(current.partitionsPendingRevocation)
          : EMPTY_ASSIGNMENT,
      };
      group.setMember(member);
      const target = this.targets.get(memberId);
      if (target) group.targetAssignment.set(memberId, target);
    }
    group.refreshState();
    return group;
  }
}
