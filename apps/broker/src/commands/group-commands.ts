import {
  type ConsumerAssignment,
  type ConsumerSubscription,
  decodeConsumerAssignment,
  decodeConsumerSubscription,
  ErrorCode,
  WeirError,
} from '@weir/protocol';
import { CONSUMER_PROTOCOL_TYPE } from '../group/group';
import type { GroupCoordinator } from '../group/group-coordinator';
import type {
  HeartbeatRequest,
  JoinRequest,
  LeaveOutcome,
  LeavingMember,
  SyncRequest,
} from '../group/group-membership';
import type { CommitRequest, FetchedOffsets, TopicPartitionErrors } from '../group/group-offsets';
import type { GroupState } from '../group/group-state';
import type { DescribedGroup, GroupSnapshot } from '../group/group-views';
import type { JoinOutcome, SyncOutcome } from '../group/member';
import type { TopicManager } from '../topics/topic-manager';
import type { BrokerEndpoint, ClusterCommands, ListenerName } from './cluster-commands';
import { type OffsetResetPlan, type OffsetResetRequest, planOffsetReset } from './group-offset-reset';

/** FindCoordinator key types (KIP-98 added the transactional one). */
const COORDINATOR_KEY_TYPES = new Set([0, 1]);

export interface GroupListing {
  groupId: string;
  state: GroupState;
  protocolType: string;
  protocol: string | null;
  members: number;
}

export interface GroupMemberDescription {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  /** Decoded for the consumer protocol; null for other protocols or unreadable bytes. */
  subscription: ConsumerSubscription | null;
  assignment: ConsumerAssignment | null;
  /** The raw bytes, for protocols we cannot decode. */
  metadataBytes: Buffer;
  assignmentBytes: Buffer;
}

export interface GroupDescription {
  groupId: string;
  state: GroupState;
  protocolType: string | null;
  protocol: string | null;
  generationId: number;
  leaderId: string | null;
  members: GroupMemberDescription[];
}

/**
 * The lag of one partition, transaction-aware: `lag` is last stable offset − committed offset, so
 * records of a transaction still open are not counted yet (a read_committed consumer cannot read
 * them), and markers are not counted either, since such a consumer's committed offset moves past
 * them. Without open transactions the LSO is the high watermark. With nothing committed
 * (or a commit below the log start, whose records are gone) it counts from the log start: what a
 * consumer starting from the earliest offset would still have to read. Never negative. Null
 * fields mean the topic or partition no longer exists (`errorCode` says why).
 */
export interface PartitionLag {
  topic: string;
  partition: number;
  committedOffset: number | null;
  logStartOffset: number | null;
  logEndOffset: number | null;
  highWatermark: number | null;
  lag: number | null;
  /** The member the partition is assigned to, if the group's assignment says so. */
  memberId: string | null;
  clientId: string | null;
  errorCode: number;
}

export interface GroupLag {
  groupId: string;
  state: GroupState;
  totalLag: number;
  partitions: PartitionLag[];
}

/** What the metrics layer reads at scrape time. */
export interface GroupStats {
  rebalancesTotal: number;
  groups: {
    groupId: string;
    state: GroupState;
    members: number;
    partitions: { topic: string; partition: number; lag: number }[];
  }[];
}

/**
 * Consumer groups at the command boundary: the wire-level operations the Kafka handlers
 * translate (Kafka's semantics and error codes, via the coordinator) and the operator's view
 * (listings, decoded assignments, lag, offset resets, deletion), which throw {@link WeirError}s.
 */
export class GroupCommands {
  constructor(
    private readonly coordinator: GroupCoordinator,
    private readonly topics: TopicManager,
    private readonly cluster: ClusterCommands,
  ) {}

  /**
   * FindCoordinator: this broker coordinates every group and transactional id; the endpoint is the
   * one of the listener the request came in on.
   */
  findCoordinator(keyType: number, listener: ListenerName = 'client'): BrokerEndpoint {
    if (!COORDINATOR_KEY_TYPES.has(keyType)) {
      throw new WeirError(ErrorCode.INVALID_REQUEST, { detail: `unknown coordinator key type ${keyType}` });
    }
    return this.cluster.localBroker(listener);
  }

  joinGroup(request: JoinRequest): Promise<JoinOutcome> {
    return this.coordinator.join(request);
  }

  syncGroup(request: SyncRequest): Promise<SyncOutcome> {
    return this.coordinator.sync(request);
  }

  heartbeat(request: HeartbeatRequest): number {
    return this.coordinator.heartbeat(request);
  }

  leaveGroup(groupId: string, members: readonly LeavingMember[]): LeaveOutcome {
    return this.coordinator.leave(groupId, members);
  }

  commitOffsets(request: CommitRequest): Promise<TopicPartitionErrors> {
    return this.coordinator.commit(request);
  }

  fetchOffsets(
    groupId: string,
    topics: { name: string; partitionIndexes: number[] }[] | null,
  ): FetchedOffsets {
    return this.coordinator.fetchOffsets(groupId, topics);
  }

  deleteOffsets(
    groupId: string,
    topics: { name: string; partitions: number[] }[],
  ): Promise<{ errorCode: number; topics: TopicPartitionErrors }> {
    return this.coordinator.deleteOffsets(groupId, topics);
  }

  /** DescribeGroups with Kafka's semantics (unknown groups are Dead, no error). */
  describeGroups(groupIds: readonly string[]): DescribedGroup[] {
    return groupIds.map((groupId) => this.coordinator.describeGroup(groupId));
  }

  /** DeleteGroups: one error code per group. */
  async deleteGroups(groupIds: readonly string[]): Promise<{ groupId: string; errorCode: number }[]> {
    const results = [];
    for (const groupId of groupIds)
      results.push({ groupId, errorCode: await this.coordinator.deleteGroup(groupId) });
    return results;
  }

  /** Every group; `errorCode` is COORDINATOR_LOAD_IN_PROGRESS while some are not loaded yet. */
  listGroups(): { errorCode: number; groups: GroupListing[] } {
    const { errorCode } = this.coordinator.listGroups();
    const groups = this.coordinator.snapshots().map((group) => ({
      groupId: group.groupId,
      state: group.state,
      protocolType: group.protocolType ?? '',
      protocol: group.protocolName,
      members: group.members.length,
    }));
    return { errorCode, groups };
  }

  describeGroup(groupId: string): GroupDescription {
    const group = this.#snapshot(groupId);
    const consumer = group.protocolType === CONSUMER_PROTOCOL_TYPE;
    return {
      groupId,
      state: group.state,
      protocolType: group.protocolType,
      protocol: group.protocolName,
      generationId: group.generationId,
      leaderId: group.leaderId,
      members: group.members.map((member) => ({
        memberId: member.memberId,
        groupInstanceId: member.groupInstanceId,
        clientId: member.clientId,
        clientHost: member.clientHost,
        sessionTimeoutMs: member.sessionTimeoutMs,
        rebalanceTimeoutMs: member.rebalanceTimeoutMs,
        subscription: consumer ? (decodeConsumerSubscription(member.metadata) ?? null) : null,
        assignment: consumer ? (decodeConsumerAssignment(member.assignment) ?? null) : null,
        metadataBytes: member.metadata,
        assignmentBytes: member.assignment,
      })),
    };
  }

  /** Lag of every partition the group has committed or is assigned, sorted by topic and partition. */
  groupLag(groupId: string): GroupLag {
    const group = this.#snapshot(groupId);
    const partitions = this.#lagOf(group);
    const totalLag = partitions.reduce((total, partition) => total + (partition.lag ?? 0), 0);
    return { groupId, state: group.state, totalLag, partitions };
  }

  /**
   * Moves a group's committed offsets (earliest, latest, by timestamp, to an offset, or shifted),
   * clamped to each partition's [log start, high watermark]. Refused with NON_EMPTY_GROUP while
   * the group has members; a dry run only returns the plan.
   */
  async resetOffsets(request: OffsetResetRequest): Promise<OffsetResetPlan> {
    const availability = this.coordinator.availability(request.groupId);
    if (availability !== ErrorCode.NONE) throw new WeirError(availability);
    const group = this.coordinator.snapshot(request.groupId);
    if (group && group.state !== 'Empty') {
      throw new WeirError(ErrorCode.NON_EMPTY_GROUP, {
        detail: `group "${request.groupId}" is ${group.state} with ${group.members.length} members; stop them first`,
      });
    }
    const plan = await planOffsetReset(request, group, this.topics);
    if (request.dryRun || plan.partitions.length === 0) return plan;
    const byTopic = new Map<string, { partitionIndex: number; committedOffset: number }[]>();
    for (const entry of plan.partitions) {
      const list = byTopic.get(entry.topic) ?? [];
      list.push({ partitionIndex: entry.partition, committedOffset: entry.newOffset });
      byTopic.set(entry.topic, list);
    }
    const results = await this.coordinator.commit({
      groupId: request.groupId,
      generationId: -1,
      memberId: '',
      groupInstanceId: null,
      retentionTimeMs: -1,
      topics: [...byTopic].map(([name, partitions]) => ({
        name,
        partitions: partitions.map((partition) => ({
          ...partition,
          committedLeaderEpoch: -1,
          committedMetadata: '',
        })),
      })),
    });
    const failed = results
      .flatMap((topic) => topic.partitions)
      .find((partition) => partition.errorCode !== 0);
    if (failed) {
      // A member that joined between the check and the commit makes the simple commit unknown.
      const code =
        failed.errorCode === ErrorCode.UNKNOWN_MEMBER_ID ? ErrorCode.NON_EMPTY_GROUP : failed.errorCode;
      throw new WeirError(code, { detail: `resetting the offsets of group "${request.groupId}" failed` });
    }
    return plan;
  }

  async deleteGroup(groupId: string): Promise<void> {
    const errorCode = await this.coordinator.deleteGroup(groupId);
    if (errorCode !== ErrorCode.NONE) throw new WeirError(errorCode, { detail: `group "${groupId}"` });
  }

  /** A snapshot for metrics: members per group, rebalances so far and the lag of every partition. */
  groupStats(): GroupStats {
    return {
      rebalancesTotal: this.coordinator.rebalancesTotal,
      groups: this.coordinator.snapshots().map((group) => ({
        groupId: group.groupId,
        state: group.state,
        members: group.members.length,
        partitions: this.#lagOf(group).flatMap((partition) =>
          partition.lag === null
            ? []
            : [{ topic: partition.topic, partition: partition.partition, lag: partition.lag }],
        ),
      })),
    };
  }

  #snapshot(groupId: string): GroupSnapshot {
    const availability = this.coordinator.availability(groupId);
    if (availability !== ErrorCode.NONE) throw new WeirError(availability);
    const group = this.coordinator.snapshot(groupId);
    if (!group)
      throw new WeirError(ErrorCode.GROUP_ID_NOT_FOUND, { detail: `group "${groupId}" does not exist` });
    return group;
  }

  #lagOf(group: GroupSnapshot): PartitionLag[] {
    const owners = new Map<string, { memberId: string; clientId: string }>();
    if (group.protocolType === CONSUMER_PROTOCOL_TYPE) {
      for (const member of group.members) {
        for (const { topic, partitions } of decodeConsumerAssignment(member.assignment)?.partitions ?? []) {
          for (const partition of partitions) {
            owners.set(`${topic}\u0000${partition}`, {
              memberId: member.memberId,
              clientId: member.clientId,
            });
          }
        }
      }
    }
    const committed = new Map<string, number>();
    for (const offset of group.offsets)
      committed.set(`${offset.topic}\u0000${offset.partition}`, offset.offset);
    const keys = [...new Set([...owners.keys(), ...committed.keys()])];
    const result = keys.map((key) => {
      const [topic, partitionText] = key.split('\u0000') as [string, string];
      const partition = Number(partitionText);
      const owner = owners.get(key);
      return this.#partitionLag(topic, partition, committed.get(key) ?? null, owner);
    });
    return result.sort((left, right) =>
      left.topic === right.topic ? left.partition - right.partition : left.topic < right.topic ? -1 : 1,
    );
  }

  #partitionLag(
    topic: string,
    partition: number,
    committedOffset: number | null,
    owner: { memberId: string; clientId: string } | undefined,
  ): PartitionLag {
    const base = {
      topic,
      partition,
      committedOffset,
      memberId: owner?.memberId ?? null,
      clientId: owner?.clientId ?? null,
    };
    try {
      const log = this.topics.partitionLog(topic, partition);
      const highWatermark = log.highWatermark;
      const logStartOffset = log.logStartOffset;
      const from = committedOffset === null ? logStartOffset : Math.max(committedOffset, logStartOffset);
      return {
        ...base,
        logStartOffset,
        logEndOffset: log.logEndOffset,
        highWatermark,
        // Transaction-aware: measured against the LSO (see PartitionLag).
        lag: Math.max(0, log.lastStableOffset - from),
        errorCode: ErrorCode.NONE,
      };
    } catch (error) {
      const errorCode = error instanceof WeirError ? error.code : ErrorCode.UNKNOWN_SERVER_ERROR;
      return { ...base, logStartOffset: null, logEndOffset: null, highWatermark: null, lag: null, errorCode };
    }
  }
}
