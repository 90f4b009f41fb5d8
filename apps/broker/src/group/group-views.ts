import { encodeConsumerAssignment, encodeConsumerSubscription } from '@weir/protocol';
import { preferredAssignor } from './consumer/assignor';
import type { ConsumerGroup } from './consumer/consumer-group';
import type { ConsumerGroupState } from './consumer/consumer-group-state';
import type { PartitionCatalog } from './coordinator-context';
import { CONSUMER_PROTOCOL_TYPE, type Group } from './group';
import type { GroupState } from './group-state';
import { EMPTY_BYTES } from './member';

/**
 * Read-only views of a group: DescribeGroups' (Kafka's rules for what is filled in when) and the
 * plain-data snapshot that operator commands and metrics work from.
 */

/** A group as operators see it: plain data, bytes as stored. */
export interface GroupSnapshot {
  groupId: string;
  state: GroupState | ConsumerGroupState;
  protocolType: string | null;
  protocolName: string | null;
  generationId: number;
  leaderId: string | null;
  stateTimestampMs: number;
  members: {
    memberId: string;
    groupInstanceId: string | null;
    clientId: string;
    clientHost: string;
    sessionTimeoutMs: number;
    rebalanceTimeoutMs: number;
    /** Its metadata for the chosen protocol (or its first protocol before one is chosen). */
    metadata: Buffer;
    assignment: Buffer;
  }[];
  offsets: { topic: string; partition: number; offset: number; leaderEpoch: number; metadata: string }[];
}

/** DescribeGroups' view of one group, as Kafka fills it. */
export interface DescribedGroup {
  errorCode: number;
  groupId: string;
  state: string;
  protocolType: string;
  protocolData: string;
  members: {
    memberId: string;
    groupInstanceId: string | null;
    clientId: string;
    clientHost: string;
    metadata: Buffer;
    assignment: Buffer;
  }[];
}

/**
 * DescribeGroups' view: member metadata, assignments and the protocol are filled in only once
 * the group is Stable, as Kafka does.
 */
export function describeGroup(group: Group): DescribedGroup {
  const protocol = group.is('Stable') ? group.protocolName : null;
  return {
    errorCode: 0,
    groupId: group.groupId,
    state: group.state,
    protocolType: group.protocolType ?? '',
    protocolData: protocol ?? '',
    members: [...group.members.values()].map((member) => ({
      memberId: member.memberId,
      groupInstanceId: member.groupInstanceId,
      clientId: member.clientId,
      clientHost: member.clientHost,
      metadata: protocol === null ? EMPTY_BYTES : member.metadataFor(protocol),
      assignment: protocol === null ? EMPTY_BYTES : member.assignment,
    })),
  };
}

/** A group the coordinator does not hold: Kafka reports it as Dead, without an error. */
export function describeUnknown(groupId: string, state: string): DescribedGroup {
  return { errorCode: 0, groupId, state, protocolType: '', protocolData: '', members: [] };
}

/** What a snapshot of a consumer-protocol group needs besides the group. */
export interface SnapshotContext {
  catalog: PartitionCatalog;
  consumerSessionTimeoutMs: number;
}

/**
 * The snapshot of a group. A consumer-protocol group is shown in the same shape: the group epoch
 * as the generation, the assignor as the protocol, and each member's subscription and current
 * partitions in the consumer protocol's encoding, so operator tools (lag, owners) read both kinds.
 */
export function snapshotOf(group: Group, context: SnapshotContext): GroupSnapshot {
  if (group.consumer) return consumerSnapshotOf(group, group.consumer, context);
  return {
    groupId: group.groupId,
    state: group.state,
    protocolType: group.protocolType,
    protocolName: group.protocolName,
    generationId: group.generationId,
    leaderId: group.leaderId,
    stateTimestampMs: group.stateTimestampMs,
    members: [...group.members.values()].map((member) => ({
      memberId: member.memberId,
      groupInstanceId: member.groupInstanceId,
      clientId: member.clientId,
      clientHost: member.clientHost,
      sessionTimeoutMs: member.sessionTimeoutMs,
      rebalanceTimeoutMs: member.rebalanceTimeoutMs,
      metadata:
        group.protocolName !== null
          ? member.metadataFor(group.protocolName)
          : (member.protocols[0]?.metadata ?? EMPTY_BYTES),
      assignment: member.assignment,
    })),
    offsets: [...group.allOffsets()].map(({ topic, partition, committed }) => ({
      topic,
      partition,
      offset: committed.offset,
      leaderEpoch: committed.leaderEpoch,
      metadata: committed.metadata,
    })),
  };
}

function consumerSnapshotOf(group: Group, consumer: ConsumerGroup, context: SnapshotContext): GroupSnapshot {
  const byName = (assignment: ReadonlyMap<string, ReadonlySet<number>>) =>
    [...assignment].flatMap(([topicId, partitions]) => {
      const topic = context.catalog.topicById(topicId);
      return topic ? [{ topic: topic.name, partitions: [...partitions].sort((a, b) => a - b) }] : [];
    });
  return {
    groupId: group.groupId,
    state: consumer.state,
    protocolType: CONSUMER_PROTOCOL_TYPE,
    protocolName: preferredAssignor(consumer.members.values()).name,
    generationId: consumer.groupEpoch,
    leaderId: null,
    stateTimestampMs: group.stateTimestampMs,
    members: [...consumer.members.values()].map((member) => ({
      memberId: member.memberId,
      groupInstanceId: member.instanceId,
      clientId: member.clientId,
      clientHost: member.clientHost,
      sessionTimeoutMs: context.consumerSessionTimeoutMs,
      rebalanceTimeoutMs: member.rebalanceTimeoutMs,
      metadata: encodeConsumerSubscription({
        version: 0,
        topics: member.subscribedTopicNames,
        userData: null,
        ownedPartitions: [],
      }),
      assignment: encodeConsumerAssignment({
        version: 0,
        partitions: byName(member.assignedPartitions),
        userData: null,
      }),
    })),
    offsets: [...group.allOffsets()].map(({ topic, partition, committed }) => ({
      topic,
      partition,
      offset: committed.offset,
      leaderEpoch: committed.leaderEpoch,
      metadata: committed.metadata,
    })),
  };
}
