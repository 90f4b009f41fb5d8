import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@weir/protocol';
import { type CoordinatorContext, groupWriteError } from '../coordinator-context';
import type { Group } from '../group';
import type { CoordinatorRecord } from '../offsets-records';
import {
  type Assignment,
  assignmentFromWire,
  assignmentToWire,
  EMPTY_ASSIGNMENT,
  sameAssignment,
} from './assignment';
import { preferredAssignor } from './assignor';
import { ConsumerGroup, type SubscribedTopic } from './consumer-group';
import { changeRecords, groupTombstones } from './consumer-group-changes';
import {
  type ConsumerHeartbeatOutcome,
  type ConsumerHeartbeatRequest,
  HeartbeatRefusedError,
  heartbeatRequestProblem,
  refusal,
} from './consumer-heartbeat-request';
import {
  type ConsumerMember,
  isReconciledTo,
  LEAVE_GROUP_MEMBER_EPOCH,
  LEAVE_GROUP_STATIC_MEMBER_EPOCH,
  newMember,
  sameTopicNames,
  updateMember,
} from './consumer-member';
import { MemberFencedError, reconcile } from './reconciliation';

/** The coordinator's settings for consumer-protocol groups (Kafka's group.consumer.* configs). */
export interface ConsumerGroupConfig {
  /** group.consumer.heartbeat.interval.ms: how often members are told to heartbeat. */
  consumerHeartbeatIntervalMs: number;
  /** group.consumer.session.timeout.ms: a member without a heartbeat for this long is fenced. */
  consumerSessionTimeoutMs: number;
}

/** What a change of a group did, applied once its records are durable. */
interface Change<T> {
  result: T;
  /** Timers to start or stop once the change is stored. */
  afterWrite?: () => void;
}

/**
 * The member side of the consumer group protocol (KIP-848), after Kafka 3.9's
 * GroupMetadataManager: ConsumerGroupHeartbeat joins, heartbeats and leaves, with server-side
 * assignment (assignor.ts), incremental reconciliation (reconciliation.ts) and member epochs;
 * session and rebalance timeouts fence members. Each change of a group runs alone
 * ({@link ConsumerGroup.serialize}), writes its records to `__consumer_offsets` durably before it
 * answers, and is rolled back if the write fails, so what a member is told is what a restart
 * reloads.
 *
 * A group is one protocol or the other. Kafka 3.9 converts a group between them when the first
 * member of the other kind arrives (group.consumer.migration.policy); Weir follows Kafka's rules
 * for the policy `disabled`: an empty group (no members, offsets kept) switches protocols, a
 * non-empty classic group answers a consumer-protocol join with GROUP_ID_NOT_FOUND (Kafka's
 * validateOnlineUpgrade refusing), and a non-empty consumer group answers a classic JoinGroup with
 * INCONSISTENT_GROUP_PROTOCOL (group-membership.ts). Online conversion of a non-empty group is not
 * implemented.
 */
export class ConsumerGroupHeartbeats {
  constructor(
    private readonly context: CoordinatorContext,
    private readonly config: ConsumerGroupConfig,
    private readonly createGroup: (groupId: string) => Group,
  ) {}

  async heartbeat(request: ConsumerHeartbeatRequest): Promise<ConsumerHeartbeatOutcome> {
    const problem = heartbeatRequestProblem(request);
    if (problem) return refusal(problem.errorCode, problem.message);
    const leaving =
      request.memberEpoch === LEAVE_GROUP_MEMBER_EPOCH ||
      request.memberEpoch === LEAVE_GROUP_STATIC_MEMBER_EPOCH;
    const { groups } = this.context;
    let group = groups.get(request.groupId);
    let created = false;
    if (!group) {
      if (request.memberEpoch !== 0) {
        return refusal(ErrorCode.GROUP_ID_NOT_FOUND, `Consumer group ${request.groupId} not found.`);
      }
      group = this.createGroup(request.groupId);
      created = true;
    }
    if (group.is('Dead')) return refusal(ErrorCode.COORDINATOR_NOT_AVAILABLE, null);
    let converted = false;
    if (!group.consumer) {
      // An empty classic group (offsets only, or every member gone) becomes a consumer group when
      // a member joins; Kafka writes the classic group's tombstone with the join's records.
      if (request.memberEpoch !== 0 || !group.hasNoMembers) {
        return refusal(ErrorCode.GROUP_ID_NOT_FOUND, `Group ${request.groupId} is not a consumer group.`);
      }
      group.consumer = new ConsumerGroup(request.groupId);
      converted = !created;
    }
    const consumer = group.consumer;
    const outcome = await this.#change(group, consumer, converted, (state) =>
      leaving ? this.#leave(state, request) : this.#joinOrHeartbeat(state, request),
    );
    if ((created || converted) && consumer.isEmpty && group.consumer === consumer) {
      // The join that made the group failed: as in Kafka, nothing of it stays.
      consumer.markDead();
      group.consumer = undefined;
      if (created && !group.hasOffsets) {
        group.transitionTo('Dead', this.context.scheduler.nowMs());
        groups.delete(group.groupId);
      }
    }
    return outcome;
  }

  /** A loaded group's members get one session timeout to heartbeat again. */
  armLoadedGroup(group: Group): void {
    const consumer = group.consumer;
    if (!consumer) return;
    for (const member of consumer.members.values()) this.#armSession(group, consumer, member.memberId);
  }

  /**
   * Runs one change of the group alone: `change` mutates it and returns the outcome; the records
   * that take the stored state to the new one are written durably, and on any failure the group
   * is put back as it was.
   */
  #change(
    group: Group,
    consumer: ConsumerGroup,
    converted: boolean,
    change: (consumer: ConsumerGroup) => Change<ConsumerHeartbeatOutcome>,
  ): Promise<ConsumerHeartbeatOutcome> {
    return consumer.serialize(async () => {
      if (group.consumer !== consumer || consumer.state === 'Dead') {
        return refusal(ErrorCode.COORDINATOR_NOT_AVAILABLE, null);
      }
      const before = consumer.snapshot();
      let applied: Change<ConsumerHeartbeatOutcome>;
      try {
        applied = change(consumer);
      } catch (error) {
        consumer.restore(before);
        if (error instanceof HeartbeatRefusedError) return refusal(error.errorCode, error.message);
        if (error instanceof MemberFencedError) return refusal(ErrorCode.FENCED_MEMBER_EPOCH, error.message);
        throw error;
      }
      const records: CoordinatorRecord[] = changeRecords(group.groupId, before, consumer.snapshot());
      // The switch from the classic protocol: the classic group's metadata goes.
      if (converted) records.unshift({ kind: 'group', groupId: group.groupId, value: null });
      try {
        if (records.length > 0) await this.context.write(group.groupId, records, { durable: true });
      } catch (error) {
        this.context.logger.warn(
          { groupId: group.groupId, err: error },
          'storing a consumer group change failed',
        );
        consumer.restore(before);
        return refusal(groupWriteError(error), null);
      }
      applied.afterWrite?.();
      return applied.result;
    });
  }

  #joinOrHeartbeat(
    consumer: ConsumerGroup,
    request: ConsumerHeartbeatRequest,
  ): Change<ConsumerHeartbeatOutcome> {
    const memberId = request.memberId === '' ? randomUUID() : request.memberId;
    const owned = request.topicPartitions === null ? null : assignmentFromWire(request.topicPartitions);
    const { member, replaced } = this.#memberFor(consumer, request, memberId, owned);
    const updated = updateMember(member, {
      instanceId: request.instanceId ?? member.instanceId,
      rackId: request.rackId ?? member.rackId,
      rebalanceTimeoutMs:
        request.rebalanceTimeoutMs !== -1 ? request.rebalanceTimeoutMs : member.rebalanceTimeoutMs,
      serverAssignor: request.serverAssignor ?? member.serverAssignor,
      subscribedTopicNames: request.subscribedTopicNames ?? member.subscribedTopicNames,
      clientId: request.clientId,
      clientHost: request.clientHost,
    });
    // 1. The member joins or changes; a new subscription, or topics that changed, bump the group epoch.
    let bumpGroupEpoch = !sameTopicNames(member.subscribedTopicNames, updated.subscribedTopicNames);
    if (replaced) {
      // A static member's new incarnation takes the old one's place, partitions and target.
      const target = consumer.targetAssignment.get(replaced.memberId) ?? EMPTY_ASSIGNMENT;
      consumer.removeMember(replaced.memberId);
      consumer.targetAssignment.set(updated.memberId, target);
    }
    consumer.setMember(updated);
    if (this.#refreshSubscriptionMetadata(consumer)) bumpGroupEpoch = true;
    if (bumpGroupEpoch) consumer.groupEpoch += 1;
    // 2. A group epoch past the target's gets a new target assignment.
    if (consumer.groupEpoch > consumer.assignmentEpoch) this.#computeTargetAssignment(consumer);
    // 3. The member moves towards its target as far as the other members allow.
    const target = consumer.targetAssignment.get(memberId) ?? EMPTY_ASSIGNMENT;
    const reconciled = isReconciledTo(updated, consumer.assignmentEpoch)
      ? updated
      : reconcile(updated, {
          targetAssignmentEpoch: consumer.assignmentEpoch,
          targetAssignment: target,
          currentPartitionEpoch: (topicId, partition) => consumer.currentPartitionEpoch(topicId, partition),
          ownedPartitions: owned,
        });
    consumer.setMember(reconciled);
    consumer.refreshState();
    // The assignment goes back on a full request (a join, or one after an error) or when it changed.
    const fullRequest =
      request.memberEpoch === 0 ||
      (request.rebalanceTimeoutMs !== -1 &&
        request.subscribedTopicNames !== null &&
        request.topicPartitions !== null);
    const sendAssignment =
      fullRequest || !sameAssignment(member.assignedPartitions, reconciled.assignedPartitions);
    return {
      result: {
        errorCode: ErrorCode.NONE,
        errorMessage: null,
        memberId,
        memberEpoch: reconciled.memberEpoch,
        heartbeatIntervalMs: this.config.consumerHeartbeatIntervalMs,
        assignment: sendAssignment
          ? { topicPartitions: assignmentToWire(reconciled.assignedPartitions) }
          : null,
      },
      afterWrite: () => {
        const group = this.context.groups.get(consumer.groupId);
        if (replaced) this.#cancelTimers(consumer, replaced.memberId);
        if (group) this.#armSession(group, consumer, memberId);
        if (reconciled.state === 'unrevoked-partitions') {
          if (reconciled.memberEpoch !== member.memberEpoch || !consumer.rebalanceTimers.has(memberId)) {
            this.#armRebalanceTimeout(consumer, reconciled);
          }
        } else {
          consumer.rebalanceTimers.get(memberId)?.();
          consumer.rebalanceTimers.delete(memberId);
        }
      },
    };
  }

  /**
   * The member a heartbeat is from (Kafka's getOrMaybeSubscribe*ConsumerGroupMember): a new one
   * for a join, the known one after its epoch is checked, or for a static member that rejoins
   * after leaving with epoch -2, a copy of its predecessor under the new member id.
   */
  #memberFor(
    consumer: ConsumerGroup,
    request: ConsumerHeartbeatRequest,
    memberId: string,
    owned: Assignment | null,
  ): { member: ConsumerMember; replaced?: ConsumerMember } {
    const joining = request.memberEpoch === 0;
    if (request.instanceId === null) {
      const existing = consumer.members.get(memberId);
      if (!existing) {
        if (!joining) {
          throw new HeartbeatRefusedError(
            ErrorCode.UNKNOWN_MEMBER_ID,
            `Member ${memberId} is not a member of group ${consumer.groupId}.`,
          );
        }
        return { member: newMember(memberId, request.clientId, request.clientHost) };
      }
      checkMemberEpoch(existing, request.memberEpoch, owned);
      return { member: existing };
    }
    const existingStatic = consumer.staticMember(request.instanceId);
    if (joining) {
      if (!existingStatic) {
        return {
          member: consumer.members.get(memberId) ?? newMember(memberId, request.clientId, request.clientHost),
        };
      }
      if (existingStatic.memberEpoch !== LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
        throw new HeartbeatRefusedError(
          ErrorCode.UNRELEASED_INSTANCE_ID,
          `Static member ${existingStatic.memberId} with instance id ${request.instanceId} cannot be replaced because it has not left the group.`,
        );
      }
      return {
        member: updateMember(existingStatic, { memberId, memberEpoch: 0, previousMemberEpoch: 0 }),
        replaced: existingStatic,
      };
    }
    if (!existingStatic) {
      throw new HeartbeatRefusedError(
        ErrorCode.UNKNOWN_MEMBER_ID,
        `Instance id ${request.instanceId} is unknown.`,
      );
    }
    if (existingStatic.memberId !== memberId) {
      throw new HeartbeatRefusedError(
        ErrorCode.FENCED_INSTANCE_ID,
        `Static member ${memberId} with instance id ${request.instanceId} is fenced by existing member ${existingStatic.memberId}.`,
      );
    }
    checkMemberEpoch(existingStatic, request.memberEpoch, owned);
    return { member: existingStatic };
  }

  #leave(consumer: ConsumerGroup, request: ConsumerHeartbeatRequest): Change<ConsumerHeartbeatOutcome> {
    const answer = (memberEpoch: number): ConsumerHeartbeatOutcome => ({
      errorCode: ErrorCode.NONE,
      errorMessage: null,
      memberId: request.memberId,
      memberEpoch,
      heartbeatIntervalMs: 0,
      assignment: null,
    });
    let member: ConsumerMember | undefined;
    if (request.instanceId === null) {
      member = consumer.members.get(request.memberId);
      if (!member) {
        throw new HeartbeatRefusedError(
          ErrorCode.UNKNOWN_MEMBER_ID,
          `Member ${request.memberId} is not a member of group ${consumer.groupId}.`,
        );
      }
    } else {
      member = consumer.staticMember(request.instanceId);
      if (!member) {
        throw new HeartbeatRefusedError(
          ErrorCode.UNKNOWN_MEMBER_ID,
          `Instance id ${request.instanceId} is unknown.`,
        );
      }
      if (member.memberId !== request.memberId) {
        throw new HeartbeatRefusedError(
          ErrorCode.FENCED_INSTANCE_ID,
          `Static member ${request.memberId} with instance id ${request.instanceId} is fenced by existing member ${member.memberId}.`,
        );
      }
      if (request.memberEpoch === LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
        // It keeps its place and partitions until its session ends; its pending revocations are done.
        consumer.setMember(
          updateMember(member, {
            memberEpoch: LEAVE_GROUP_STATIC_MEMBER_EPOCH,
            partitionsPendingRevocation: EMPTY_ASSIGNMENT,
          }),
        );
        consumer.refreshState();
        return { result: answer(LEAVE_GROUP_STATIC_MEMBER_EPOCH) };
      }
    }
    const leaving = member;
    this.#removeMember(consumer, leaving);
    return {
      result: answer(request.memberEpoch),
      afterWrite: () => this.#cancelTimers(consumer, leaving.memberId),
    };
  }

  /** Removes a member: the group epoch is bumped, so the next heartbeat computes a new target. */
  #removeMember(consumer: ConsumerGroup, member: ConsumerMember): void {
    consumer.removeMember(member.memberId);
    this.#refreshSubscriptionMetadata(consumer);
    consumer.groupEpoch += 1;
    consumer.refreshState();
  }

  /** Fences a member from a timer (session or rebalance timeout); `still` says whether it still applies. */
  #fenceFromTimer(
    consumer: ConsumerGroup,
    memberId: string,
    reason: string,
    still: (member: ConsumerMember) => boolean,
  ) {
    const group = this.context.groups.get(consumer.groupId);
    if (!group || group.consumer !== consumer) return;
    void this.#change(group, consumer, false, (state) => {
      const member = state.members.get(memberId);
      if (!member || !still(member)) return { result: refusal(ErrorCode.NONE, null) };
      this.context.logger.info(
        { groupId: consumer.groupId, memberId, reason },
        'consumer group member fenced',
      );
      this.#removeMember(state, member);
      return { result: refusal(ErrorCode.NONE, null), afterWrite: () => this.#cancelTimers(state, memberId) };
    }).catch((error: unknown) => {
      this.context.logger.warn(
        { groupId: consumer.groupId, memberId, err: error },
        'fencing a consumer group member failed',
      );
    });
  }

  #armSession(group: Group, consumer: ConsumerGroup, memberId: string): void {
    consumer.sessionTimers.get(memberId)?.();
    const cancel = this.context.scheduler.schedule(this.config.consumerSessionTimeoutMs, () => {
      if (consumer.sessionTimers.get(memberId) !== cancel) return;
      consumer.sessionTimers.delete(memberId);
      if (group.consumer !== consumer) return;
      this.#fenceFromTimer(consumer, memberId, 'the member session expired', () => true);
    });
    consumer.sessionTimers.set(memberId, cancel);
  }

  /** A member that must revoke partitions has its rebalance timeout to do so at this epoch. */
  #armRebalanceTimeout(consumer: ConsumerGroup, member: ConsumerMember): void {
    consumer.rebalanceTimers.get(member.memberId)?.();
    const epoch = member.memberEpoch;
    const timeoutMs =
      member.rebalanceTimeoutMs > 0 ? member.rebalanceTimeoutMs : this.config.consumerSessionTimeoutMs;
    const cancel = this.context.scheduler.schedule(timeoutMs, () => {
      if (consumer.rebalanceTimers.get(member.memberId) !== cancel) return;
      consumer.rebalanceTimers.delete(member.memberId);
      this.#fenceFromTimer(
        consumer,
        member.memberId,
        `it failed to revoke its partitions at epoch ${epoch} within ${timeoutMs}ms`,
        (current) => current.memberEpoch === epoch,
      );
    });
    consumer.rebalanceTimers.set(member.memberId, cancel);
  }

  #cancelTimers(consumer: ConsumerGroup, memberId: string): void {
    consumer.sessionTimers.get(memberId)?.();
    consumer.sessionTimers.delete(memberId);
    consumer.rebalanceTimers.get(memberId)?.();
    consumer.rebalanceTimers.delete(memberId);
  }

  /** Recomputes which subscribed topics exist and their partition counts; true when that changed. */
  #refreshSubscriptionMetadata(consumer: ConsumerGroup): boolean {
    const next = new Map<string, SubscribedTopic>();
    for (const member of consumer.members.values()) {
      for (const name of member.subscribedTopicNames) {
        if (next.has(name)) continue;
        const topic = this.context.catalog.topic(name);
        if (topic) next.set(name, { topicId: topic.topicId, numPartitions: topic.partitionCount });
      }
    }
    let changed = next.size !== consumer.subscriptionMetadata.size;
    for (const [name, topic] of next) {
      const previous = consumer.subscriptionMetadata.get(name);
      if (previous?.topicId !== topic.topicId || previous.numPartitions !== topic.numPartitions)
        changed = true;
    }
    if (!changed) return false;
    consumer.subscriptionMetadata.clear();
    for (const [name, topic] of next) consumer.subscriptionMetadata.set(name, topic);
    return true;
  }

  #computeTargetAssignment(consumer: ConsumerGroup): void {
    const assignor = preferredAssignor(consumer.members.values());
    const assigned = assignor.assign({
      members: [...consumer.members.values()],
      topics: consumer.subscriptionMetadata,
      currentTarget: consumer.targetAssignment,
    });
    consumer.targetAssignment.clear();
    for (const memberId of consumer.members.keys()) {
      consumer.targetAssignment.set(memberId, assigned.get(memberId) ?? EMPTY_ASSIGNMENT);
    }
    consumer.assignmentEpoch = consumer.groupEpoch;
    this.context.logger.info(
      { groupId: consumer.groupId, groupEpoch: consumer.groupEpoch, assignor: assignor.name },
      'consumer group target assignment computed',
    );
  }

  /** The records that remove the group's consumer-protocol state (DeleteGroups, expiry, switching to classic). */
  tombstones(consumer: ConsumerGroup): CoordinatorRecord[] {
    return groupTombstones(consumer.groupId, consumer.snapshot());
  }
}

/**
 * Kafka's epoch check: a greater epoch than the coordinator's, or a smaller one that is not the
 * previous epoch with a subset of the current partitions (a lost answer), is FENCED_MEMBER_EPOCH.
 */
function checkMemberEpoch(member: ConsumerMember, receivedEpoch: number, owned: Assignment | null): void {
  if (receivedEpoch > member.memberEpoch) {
    throw new MemberFencedError(
      `The consumer group member has a greater member epoch (${receivedEpoch}) than the one known by the group coordinator (${member.memberEpoch}). The member must abandon all its partitions and rejoin.`,
    );
  }
  if (receivedEpoch < member.memberEpoch) {
    const ownedSubset = owned !== null && isSubset(owned, member.assignedPartitions);
    if (receivedEpoch !== member.previousMemberEpoch || !ownedSubset) {
      throw new MemberFencedError(
        `The consumer group member has a smaller member epoch (${receivedEpoch}) than the one known by the group coordinator (${member.memberEpoch}). The member must abandon all its partitions and rejoin.`,
      );
    }
  }
}

/** Kafka's isSubset: every owned topic must be in the assignment (even with no partitions listed). */
function isSubset(owned: Assignment, assigned: Assignment): boolean {
  for (const [topicId, partitions] of owned) {
    const current = assigned.get(topicId);
    if (!current) return false;
    for (const partition of partitions) if (!current.has(partition)) return false;
  }
  return true;
}
