import { ErrorCode } from '@weir/protocol';
import type { PartitionCatalog } from '../coordinator-context';
import { type Assignment, assignmentToWire, EMPTY_ASSIGNMENT } from './assignment';
import { preferredAssignor } from './assignor';
import type { ConsumerGroup } from './consumer-group';

/** An assignment as ConsumerGroupDescribe shows it: topic ids with their names. */
export interface DescribedAssignment {
  topicPartitions: { topicId: string; topicName: string; partitions: number[] }[];
}

/** ConsumerGroupDescribe's view of one group. */
export interface DescribedConsumerGroup {
  errorCode: number;
  errorMessage: string | null;
  groupId: string;
  groupState: string;
  groupEpoch: number;
  assignmentEpoch: number;
  assignorName: string;
  members: {
    memberId: string;
    instanceId: string | null;
    rackId: string | null;
    memberEpoch: number;
    clientId: string;
    clientHost: string;
    subscribedTopicNames: string[];
    subscribedTopicRegex: string | null;
    assignment: DescribedAssignment;
    targetAssignment: DescribedAssignment;
  }[];
}

/** A group that is not a consumer-protocol group here: Kafka answers GROUP_ID_NOT_FOUND. */
export function describeMissingConsumerGroup(groupId: string, errorCode: number): DescribedConsumerGroup {
  return {
    errorCode,
    errorMessage:
      errorCode === ErrorCode.GROUP_ID_NOT_FOUND
        ? `Group ${groupId} not found or not a consumer group.`
        : null,
    groupId,
    groupState: '',
    groupEpoch: 0,
    assignmentEpoch: 0,
    assignorName: '',
    members: [],
  };
}

/** ConsumerGroupDescribe's view: epochs, the assignor in use, and each member's current and target partitions. */
export function describeConsumerGroup(
  group: ConsumerGroup,
  catalog: PartitionCatalog,
): DescribedConsumerGroup {
  const describe = (assignment: Assignment): DescribedAssignment => ({
    // A topic deleted since it was assigned has no name any more; Kafka leaves it out too.
    topicPartitions: assignmentToWire(assignment).flatMap(({ topicId, partitions }) => {
      const topic = catalog.topicById(topicId);
      return topic ? [{ topicId, topicName: topic.name, partitions }] : [];
    }),
  });
  return {
    errorCode: ErrorCode.NONE,
    errorMessage: null,
    groupId: group.groupId,
    groupState: group.state,
    groupEpoch: group.groupEpoch,
    assignmentEpoch: group.assignmentEpoch,
    assignorName: preferredAssignor(group.members.values()).name,
    members: [...group.members.values()].map((member) => ({
      memberId: member.memberId,
      instanceId: member.instanceId,
      rackId: member.rackId,
      memberEpoch: member.memberEpoch,
      clientId: member.clientId,
      clientHost: member.clientHost,
      subscribedTopicNames: [...member.subscribedTopicNames],
      subscribedTopicRegex: null,
      assignment: describe(member.assignedPartitions),
      targetAssignment: describe(group.targetAssignment.get(member.memberId) ?? EMPTY_ASSIGNMENT),
    })),
  };
}
