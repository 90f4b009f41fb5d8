import type { Group } from './group';
import type { GroupState } from './group-state';
import { EMPTY_BYTES } from './member';

/**
 * Read-only views of a group: DescribeGroups' (Kafka's rules for what is filled in when) and the
 * plain-data snapshot that operator commands and metrics work from.
 */

/** A group as operators see it: plain data, bytes as stored. */
export interface GroupSnapshot {
  groupId: string;
  state: GroupState;
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

export function snapshotOf(group: Group): GroupSnapshot {
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
