import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@weir/protocol';
import type { ConsumerGroup } from './consumer/consumer-group';
import { type CoordinatorContext, groupWriteError } from './coordinator-context';
import type { Group } from './group';
import { groupRecordOf } from './group-persistence';
import {
  EMPTY_BYTES,
  GroupMember,
  type JoinOutcome,
  joinError,
  type MemberProtocol,
  type SyncOutcome,
  syncError,
} from './member';
import type { CoordinatorRecord } from './offsets-records';
import { Rebalancer } from './rebalancer';

export interface JoinRequest {
  groupId: string;
  /** Empty for a member joining for the first time. */
  memberId: string;
  groupInstanceId: string | null;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  protocolType: string;
  protocols: MemberProtocol[];
  clientId: string;
  clientHost: string;
  /** JoinGroup v4+: a member without an id first gets one with MEMBER_ID_REQUIRED. */
  requireKnownMemberId: boolean;
}

export interface SyncRequest {
  groupId: string;
  generationId: number;
  memberId: string;
  groupInstanceId: string | null;
  assignments: { memberId: string; assignment: Buffer }[];
}

export interface HeartbeatRequest {
  groupId: string;
  generationId: number;
  memberId: string;
  groupInstanceId: string | null;
}

export interface LeavingMember {
  memberId: string;
  groupInstanceId: string | null;
}

export interface LeaveOutcome {
  errorCode: number;
  members: (LeavingMember & { errorCode: number })[];
}

/**
 * The member-facing side of the classic group protocol: JoinGroup, SyncGroup, Heartbeat and
 * LeaveGroup, following Kafka's GroupCoordinator. Requests arrive already checked for the group
 * id, the session timeout and the loading state (see GroupCoordinator); the rebalance mechanics
 * (delays, join completion, timers) are in {@link Rebalancer}.
 */
export class GroupMembership {
  readonly rebalancer: Rebalancer;
  /** The records that remove an empty consumer-protocol group, written when a classic member takes it over. */
  consumerTombstones: (consumer: ConsumerGroup) => CoordinatorRecord[] = () => [];

  constructor(private readonly context: CoordinatorContext) {
    this.rebalancer = new Rebalancer(context);
  }

  join(request: JoinRequest): Promise<JoinOutcome> {
    const { groups, scheduler } = this.context;
    let group = groups.get(request.groupId);
    let created = false;
    if (!group) {
      if (request.memberId !== '')
        return Promise.resolve(joinError(ErrorCode.UNKNOWN_MEMBER_ID, request.memberId));
      group = this.rebalancer.createGroup(request.groupId);
      created = true;
    }
    const outcome = this.#join(group, request);
    // A group made just for a join that failed would linger in listings; drop it again.
    if (created && group.isEmpty && group.pendingMembers.size === 0 && !group.hasOffsets) {
      group.transitionTo('Dead', scheduler.nowMs());
      groups.delete(group.groupId);
    }
    return outcome;
  }

  #join(group: Group, request: JoinRequest): Promise<JoinOutcome> {
    if (group.is('Dead'))
      return Promise.resolve(joinError(ErrorCode.COORDINATOR_NOT_AVAILABLE, request.memberId));
    if (group.consumer) {
      // A consumer-protocol group. Kafka 3.9 would take a classic member into a non-empty one
      // (classicGroupJoinToConsumerGroup), which Weir does not: it answers as Kafka does for a
      // member whose protocols the group cannot serve (INCONSISTENT_GROUP_PROTOCOL). An empty one
      // becomes a classic group again, keeping its offsets (Kafka's maybeDeleteEmptyConsumerGroup).
      if (!group.consumer.isEmpty) {
        return Promise.resolve(joinError(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, request.memberId));
      }
      this.#dropEmptyConsumerGroup(group);
    }
    if (!group.supportsProtocols(request.protocolType, request.protocols)) {
      return Promise.resolve(joinError(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, request.memberId));
    }
    return request.memberId === ''
      ? this.#joinNewMember(group, request)
      : this.#joinKnownMember(group, request);
  }

  #joinNewMember(group: Group, request: JoinRequest): Promise<JoinOutcome> {
    // Kafka's form: the client id, so operators can tell members apart, plus a UUID.
    const memberId = `${request.clientId}-${randomUUID()}`;
    if (request.groupInstanceId !== null) {
      const existing = group.staticMemberId(request.groupInstanceId);
      if (existing !== undefined) return this.#replaceStaticMember(group, existing, memberId, request);
      return this.#addMemberAndRebalance(group, memberId, request);
    }
    if (request.requireKnownMemberId) {
      // The member must come back with this id; until it does (or its session passes), the
      // rebalance waits for it like for any other member.
      const cancel = this.context.scheduler.schedule(request.sessionTimeoutMs, () => {
        if (group.pendingMembers.delete(memberId)) this.rebalancer.tryCompleteJoin(group);
      });
      group.pendingMembers.set(memberId, cancel);
      return Promise.resolve(joinError(ErrorCode.MEMBER_ID_REQUIRED, memberId));
    }
    return this.#addMemberAndRebalance(group, memberId, request);
  }

  #joinKnownMember(group: Group, request: JoinRequest): Promise<JoinOutcome> {
    const { memberId } = request;
    const cancelPending = group.pendingMembers.get(memberId);
    if (cancelPending) {
      cancelPending();
      group.pendingMembers.delete(memberId);
      return this.#addMemberAndRebalance(group, memberId, request);
    }
    if (group.isStaticMemberFenced(memberId, request.groupInstanceId)) {
      return Promise.resolve(joinError(ErrorCode.FENCED_INSTANCE_ID, memberId));
    }
    const member = group.members.get(memberId);
    if (!member) return Promise.resolve(joinError(ErrorCode.UNKNOWN_MEMBER_ID, memberId));
    const unchanged = member.sameProtocols(request.protocolType, request.protocols);
    switch (group.state) {
      case 'PreparingRebalance':
        return this.#updateMemberAndRebalance(group, member, request);
      case 'CompletingRebalance':
        // A retried join of this generation: answer it again instead of starting over.
        if (unchanged) return Promise.resolve(this.rebalancer.currentGenerationOutcome(group, member));
        return this.#updateMemberAndRebalance(group, member, request);
      case 'Stable':
        // The leader rejoins to have metadata changes seen; a follower with unchanged
        // protocols just gets the current generation back.
        if (unchanged && memberId !== group.leaderId) {
          return Promise.resolve(this.rebalancer.currentGenerationOutcome(group, member));
        }
        return this.#updateMemberAndRebalance(group, member, request);
      case 'Empty':
      case 'Dead':
        return Promise.resolve(joinError(ErrorCode.UNKNOWN_MEMBER_ID, memberId));
    }
  }

  #addMemberAndRebalance(group: Group, memberId: string, request: JoinRequest): Promise<JoinOutcome> {
    const member = new GroupMember({ ...request, memberId });
    group.add(member);
    if (group.is('PreparingRebalance')) group.newMemberAdded = true;
    const outcome = this.#parkJoin(member);
    this.rebalancer.maybePrepareRebalance(group, `member ${memberId} joined`);
    this.rebalancer.tryCompleteJoin(group);
    return outcome;
  }

  #updateMemberAndRebalance(group: Group, member: GroupMember, request: JoinRequest): Promise<JoinOutcome> {
    member.protocolType = request.protocolType;
    member.protocols = request.protocols;
    member.sessionTimeoutMs = request.sessionTimeoutMs;
    member.rebalanceTimeoutMs = request.rebalanceTimeoutMs;
    member.clientId = request.clientId;
    member.clientHost = request.clientHost;
    const outcome = this.#parkJoin(member);
    this.rebalancer.maybePrepareRebalance(group, `member ${member.memberId} rejoined`);
    this.rebalancer.tryCompleteJoin(group);
    return outcome;
  }

  /**
   * A restarted static member (known group.instance.id, new member id) takes its predecessor's
   * place and assignment. A follower with unchanged protocols in a Stable group carries on
   * without a rebalance; anything else rebalances.
   */
  #replaceStaticMember(
    group: Group,
    oldMemberId: string,
    newMemberId: string,
    request: JoinRequest,
  ): Promise<JoinOutcome> {
    const old = group.members.get(oldMemberId);
    if (!old)
      throw new Error(`static member ${request.groupInstanceId} maps to unknown member ${oldMemberId}`);
    const wasLeader = group.leaderId === oldMemberId;
    const wasPendingSync = group.pendingSyncMembers.has(oldMemberId);
    const unchanged = old.sameProtocols(request.protocolType, request.protocols);
    // The old incarnation's parked requests learn that they were replaced.
    old.answerJoin(joinError(ErrorCode.FENCED_INSTANCE_ID, oldMemberId));
    old.answerSync(syncError(ErrorCode.FENCED_INSTANCE_ID));
    group.remove(oldMemberId);
    const member = new GroupMember({ ...request, memberId: newMemberId });
    member.assignment = old.assignment;
    group.add(member);
    if (wasLeader) group.leaderId = newMemberId;
    if (wasPendingSync) group.pendingSyncMembers.add(newMemberId);
    if (group.is('Stable') && unchanged && !wasLeader) {
      this.rebalancer.armSession(group, member);
      this.persistGroup(group);
      return Promise.resolve(this.rebalancer.currentGenerationOutcome(group, member));
    }
    const outcome = this.#parkJoin(member);
    this.rebalancer.maybePrepareRebalance(group, `static member ${request.groupInstanceId} rejoined`);
    this.rebalancer.tryCompleteJoin(group);
    return outcome;
  }

  #parkJoin(member: GroupMember): Promise<JoinOutcome> {
    // A second join from the same member replaces the first, whose client has given up on it.
    member.answerJoin(joinError(ErrorCode.REBALANCE_IN_PROGRESS, member.memberId));
    member.stopSessionTimer();
    return new Promise<JoinOutcome>((resolve) => {
      member.awaitingJoin = resolve;
    });
  }

  sync(request: SyncRequest): Promise<SyncOutcome> {
    const group = this.context.groups.get(request.groupId);
    if (!group) return Promise.resolve(syncError(ErrorCode.UNKNOWN_MEMBER_ID));
    if (group.isStaticMemberFenced(request.memberId, request.groupInstanceId)) {
      return Promise.resolve(syncError(ErrorCode.FENCED_INSTANCE_ID));
    }
    if (group.is('Dead')) return Promise.resolve(syncError(ErrorCode.COORDINATOR_NOT_AVAILABLE));
    const member = group.members.get(request.memberId);
    if (!member) return Promise.resolve(syncError(ErrorCode.UNKNOWN_MEMBER_ID));
    if (request.generationId !== group.generationId)
      return Promise.resolve(syncError(ErrorCode.ILLEGAL_GENERATION));
    switch (group.state) {
      case 'Empty':
      case 'Dead':
        return Promise.resolve(syncError(ErrorCode.UNKNOWN_MEMBER_ID));
      case 'PreparingRebalance':
        return Promise.resolve(syncError(ErrorCode.REBALANCE_IN_PROGRESS));
      case 'Stable':
        group.pendingSyncMembers.delete(member.memberId);
        this.rebalancer.armSession(group, member);
        return Promise.resolve({ errorCode: ErrorCode.NONE, assignment: member.assignment });
      case 'CompletingRebalance': {
        group.pendingSyncMembers.delete(member.memberId);
        member.answerSync(syncError(ErrorCode.REBALANCE_IN_PROGRESS));
        member.stopSessionTimer();
        const outcome = new Promise<SyncOutcome>((resolve) => {
          member.awaitingSync = resolve;
        });
        if (member.memberId === group.leaderId && !group.assignmentInFlight) {
          this.#storeAssignment(group, request.assignments);
        }
        return outcome;
      }
    }
  }

  /**
   * Stores the leader's assignment (members it left out get empty bytes), then hands every member
   * its part and makes the group Stable. If the group moved on meanwhile, the result is dropped.
   */
  #storeAssignment(group: Group, assignments: SyncRequest['assignments']): void {
    const { context } = this;
    const generation = group.generationId;
    const byMember = new Map<string, Buffer>();
    for (const member of group.members.values()) byMember.set(member.memberId, EMPTY_BYTES);
    for (const { memberId, assignment } of assignments) {
      if (byMember.has(memberId)) byMember.set(memberId, assignment);
    }
    group.assignmentInFlight = true;
    const record = groupRecordOf(group, byMember);
    const current = () => group.is('CompletingRebalance') && group.generationId === generation;
    context
      .write(group.groupId, [{ kind: 'group', groupId: group.groupId, value: record }], { durable: true })
      .then(
        () => {
          if (!current()) return;
          group.assignmentInFlight = false;
          for (const member of group.members.values())
            member.assignment = byMember.get(member.memberId) ?? EMPTY_BYTES;
          group.transitionTo('Stable', context.scheduler.nowMs());
          context.onRebalanceCompleted(group);
          for (const member of group.members.values()) {
            if (!member.awaitingSync) continue;
            member.answerSync({ errorCode: ErrorCode.NONE, assignment: member.assignment });
            this.rebalancer.armSession(group, member);
          }
        },
        (error: unknown) => {
          context.logger.warn({ groupId: group.groupId, err: error }, 'storing the group assignment failed');
          if (!current()) return;
          group.assignmentInFlight = false;
          this.rebalancer.propagateAssignmentError(group, groupWriteError(error));
          this.rebalancer.maybePrepareRebalance(group, 'storing the assignment failed');
        },
      );
  }

  heartbeat(request: HeartbeatRequest): number {
    const group = this.context.groups.get(request.groupId);
    if (!group) return ErrorCode.UNKNOWN_MEMBER_ID;
    if (group.isStaticMemberFenced(request.memberId, request.groupInstanceId))
      return ErrorCode.FENCED_INSTANCE_ID;
    if (group.is('Dead')) return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    const member = group.members.get(request.memberId);
    if (!member || group.is('Empty')) return ErrorCode.UNKNOWN_MEMBER_ID;
    switch (group.state) {
      case 'PreparingRebalance':
        // Alive, but it has to rejoin: the answer tells it so.
        this.rebalancer.armSession(group, member);
        return ErrorCode.REBALANCE_IN_PROGRESS;
      case 'CompletingRebalance':
      case 'Stable':
        if (request.generationId !== group.generationId) return ErrorCode.ILLEGAL_GENERATION;
        this.rebalancer.armSession(group, member);
        return ErrorCode.NONE;
      default:
        return ErrorCode.UNKNOWN_MEMBER_ID;
    }
  }

  /** LeaveGroup: v0–2 name one member, v3 a batch answered member by member. */
  leave(groupId: string, leaving: readonly LeavingMember[]): LeaveOutcome {
    const group = this.context.groups.get(groupId);
    if (!group) {
      return {
        errorCode: ErrorCode.NONE,
        members: leaving.map((member) => ({ ...member, errorCode: ErrorCode.UNKNOWN_MEMBER_ID })),
      };
    }
    if (group.is('Dead')) return { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, members: [] };
    return {
      errorCode: ErrorCode.NONE,
      members: leaving.map((member) => ({ ...member, errorCode: this.#leaveOne(group, member) })),
    };
  }

  #leaveOne(group: Group, leaving: LeavingMember): number {
    if (leaving.groupInstanceId !== null) {
      const current = group.staticMemberId(leaving.groupInstanceId);
      if (current === undefined) return ErrorCode.UNKNOWN_MEMBER_ID;
      if (leaving.memberId !== '' && leaving.memberId !== current) return ErrorCode.FENCED_INSTANCE_ID;
      this.rebalancer.removeMemberAndUpdateGroup(group, group.members.get(current)!, 'left the group');
      return ErrorCode.NONE;
    }
    const cancelPending = group.pendingMembers.get(leaving.memberId);
    if (cancelPending) {
      cancelPending();
      group.pendingMembers.delete(leaving.memberId);
      this.rebalancer.tryCompleteJoin(group);
      return ErrorCode.NONE;
    }
    const member = group.members.get(leaving.memberId);
    if (!member) return ErrorCode.UNKNOWN_MEMBER_ID;
    this.rebalancer.removeMemberAndUpdateGroup(group, member, 'left the group');
    return ErrorCode.NONE;
  }

  /** Switches an empty consumer-protocol group to the classic protocol; its tombstones go in the background. */
  #dropEmptyConsumerGroup(group: Group): void {
    const consumer = group.consumer!;
    const tombstones = this.consumerTombstones(consumer);
    consumer.markDead();
    group.consumer = undefined;
    this.context.write(group.groupId, tombstones, { durable: false }).catch((error: unknown) => {
      this.context.logger.warn(
        { groupId: group.groupId, err: error },
        'writing consumer group tombstones failed',
      );
    });
  }

  /** Writes the group's metadata in the background (a failure is logged; the next write fixes it). */
  persistGroup(group: Group): void {
    this.rebalancer.persistGroup(group);
  }
}
