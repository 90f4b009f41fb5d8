import { ErrorCode } from '@weir/protocol';
import type { CoordinatorContext } from './coordinator-context';
import { Group } from './group';
import { groupRecordOf } from './group-persistence';
import { canRebalance } from './group-state';
import {
  EMPTY_BYTES,
  type GroupMember,
  type JoinedMember,
  type JoinOutcome,
  joinError,
  syncError,
} from './member';

/**
 * The rebalance mechanics of a group: starting a rebalance, the initial delay of an empty group,
 * completing the join phase into a new generation, and the timers around it (member sessions,
 * the rebalance timeout, members that never send SyncGroup). Every transition goes through
 * `Group.transitionTo`, which enforces the state table.
 */
export class Rebalancer {
  /** Groups whose rebalance is still inside the initial delay (`group.initial.rebalance.delay.ms`). */
  readonly #inInitialDelay = new WeakSet<Group>();

  constructor(private readonly context: CoordinatorContext) {}

  createGroup(groupId: string): Group {
    const group = new Group(groupId, 'Empty', this.context.scheduler.nowMs());
    this.context.groups.set(groupId, group);
    return group;
  }

  maybePrepareRebalance(group: Group, reason: string): void {
    if (canRebalance(group.state)) this.prepareRebalance(group, reason);
  }

  /**
   * Moves the group to PreparingRebalance. Members waiting for an assignment are told to rejoin.
   * The first rebalance of an empty group waits `initialRebalanceDelayMs` (longer while members
   * keep arriving, up to the rebalance timeout), so a fleet of consumers starting together
   * rebalances once instead of once per member.
   */
  prepareRebalance(group: Group, reason: string): void {
    const { config, scheduler, logger } = this.context;
    if (group.is('CompletingRebalance'))
      this.propagateAssignmentError(group, ErrorCode.REBALANCE_IN_PROGRESS);
    this.#cancelTimers(group);
    group.pendingSyncMembers.clear();
    group.assignmentInFlight = false;
    const wasEmpty = group.is('Empty');
    group.transitionTo('PreparingRebalance', scheduler.nowMs());
    logger.info(
      { groupId: group.groupId, generationId: group.generationId, members: group.members.size, reason },
      'group rebalance started',
    );
    const rebalanceTimeoutMs = group.rebalanceTimeoutMs();
    if (wasEmpty && config.initialRebalanceDelayMs > 0) {
      group.newMemberAdded = false;
      this.#inInitialDelay.add(group);
      const delayMs = config.initialRebalanceDelayMs;
      this.#scheduleInitialDelay(group, delayMs, Math.max(rebalanceTimeoutMs - delayMs, 0));
      return;
    }
    group.cancelJoinTimer = scheduler.schedule(rebalanceTimeoutMs, () => this.completeJoin(group));
    // Everyone may be in already (or nobody is left): then there is nothing to wait for.
    this.tryCompleteJoin(group);
  }

  #scheduleInitialDelay(group: Group, delayMs: number, remainingMs: number): void {
    group.cancelJoinTimer = this.context.scheduler.schedule(delayMs, () => {
      group.cancelJoinTimer = undefined;
      if (!group.is('PreparingRebalance')) return;
      if (group.newMemberAdded && remainingMs > 0) {
        group.newMemberAdded = false;
        const nextDelayMs = Math.min(this.context.config.initialRebalanceDelayMs, remainingMs);
        this.#scheduleInitialDelay(group, nextDelayMs, remainingMs - nextDelayMs);
        return;
      }
      this.#inInitialDelay.delete(group);
      this.completeJoin(group);
    });
  }

  /** Completes the join phase early once every member has rejoined (never inside the initial delay). */
  tryCompleteJoin(group: Group): void {
    if (group.is('PreparingRebalance') && !this.#inInitialDelay.has(group) && group.allMembersJoined()) {
      this.completeJoin(group);
    }
  }

  /**
   * Ends the join phase: dynamic members that did not rejoin are removed, the generation advances
   * and every rejoined member gets its JoinGroup answer (the leader with the member list). A group
   * left without members becomes Empty and is written as such.
   */
  completeJoin(group: Group): void {
    const { scheduler, logger } = this.context;
    if (!group.is('PreparingRebalance')) return;
    group.cancelJoinTimer?.();
    group.cancelJoinTimer = undefined;
    this.#inInitialDelay.delete(group);
    for (const member of [...group.members.values()]) {
      // Static members keep their place until their session runs out: that is their point.
      if (!member.awaitingJoin && !member.isStatic) {
        logger.info({ groupId: group.groupId, memberId: member.memberId }, 'member did not rejoin in time');
        group.remove(member.memberId);
      }
    }
    const joined = [...group.members.values()].filter((member) => member.awaitingJoin);
    if (!group.isEmpty && joined.length === 0) {
      // Only static members are left and none has rejoined: wait another round for them.
      group.cancelJoinTimer = scheduler.schedule(group.rebalanceTimeoutMs(), () => this.completeJoin(group));
      return;
    }
    if (group.leaderId === null || !group.members.get(group.leaderId)?.awaitingJoin) {
      group.leaderId = joined[0]?.memberId ?? null;
    }
    group.generationId += 1;
    if (group.isEmpty) {
      group.protocolName = null;
      group.transitionTo('Empty', scheduler.nowMs());
      group.refreshSubscribedTopics();
      logger.info({ groupId: group.groupId, generationId: group.generationId }, 'group is empty');
      this.persistGroup(group);
      return;
    }
    const protocol = group.selectProtocol();
    group.protocolName = protocol;
    group.transitionTo('CompletingRebalance', scheduler.nowMs());
    group.refreshSubscribedTopics();
    const everyone: JoinedMember[] = [...group.members.values()].map((member) => ({
      memberId: member.memberId,
      groupInstanceId: member.groupInstanceId,
      metadata: member.metadataFor(protocol),
    }));
    for (const member of joined) {
      member.answerJoin(this.#outcome(group, member, member.memberId === group.leaderId ? everyone : []));
      this.armSession(group, member);
    }
    for (const member of group.members.values()) group.pendingSyncMembers.add(member.memberId);
    const generation = group.generationId;
    group.cancelSyncTimer = scheduler.schedule(group.rebalanceTimeoutMs(), () =>
      this.#expirePendingSync(group, generation),
    );
    logger.info(
      {
        groupId: group.groupId,
        generationId: generation,
        protocol,
        leader: group.leaderId,
        members: joined.length,
      },
      'group join completed',
    );
  }

  /** The JoinGroup answer for the current generation (a retried join, or a follower in Stable). */
  currentGenerationOutcome(group: Group, member: GroupMember): JoinOutcome {
    const protocol = group.protocolName ?? '';
    const members =
      member.memberId === group.leaderId
        ? [...group.members.values()].map((each) => ({
            memberId: each.memberId,
            groupInstanceId: each.groupInstanceId,
            metadata: each.metadataFor(protocol),
          }))
        : [];
    this.armSession(group, member);
    return this.#outcome(group, member, members);
  }

  #outcome(group: Group, member: GroupMember, members: JoinedMember[]): JoinOutcome {
    return {
      errorCode: ErrorCode.NONE,
      generationId: group.generationId,
      protocolName: group.protocolName ?? '',
      leader: group.leaderId ?? '',
      memberId: member.memberId,
      members,
    };
  }

  /** Members that never sent SyncGroup within the rebalance timeout are removed. */
  #expirePendingSync(group: Group, generation: number): void {
    group.cancelSyncTimer = undefined;
    if (group.generationId !== generation || group.pendingSyncMembers.size === 0) return;
    if (!group.is('CompletingRebalance') && !group.is('Stable')) return;
    for (const memberId of [...group.pendingSyncMembers]) {
      this.context.logger.info({ groupId: group.groupId, memberId }, 'member did not sync in time');
      const member = group.members.get(memberId);
      if (member) this.#dropMember(group, member);
    }
    group.pendingSyncMembers.clear();
    this.maybePrepareRebalance(group, 'members did not sync in time');
  }

  /** Answers every parked SyncGroup with `errorCode`, clearing the assignments of this generation. */
  propagateAssignmentError(group: Group, errorCode: number): void {
    for (const member of group.members.values()) {
      member.assignment = EMPTY_BYTES;
      if (member.awaitingSync) {
        member.answerSync({ errorCode, assignment: EMPTY_BYTES });
        this.armSession(group, member);
      }
    }
  }

  /** (Re)starts a member's session: without a heartbeat or request in time, it is removed. */
  armSession(group: Group, member: GroupMember): void {
    member.stopSessionTimer();
    member.cancelSession = this.context.scheduler.schedule(member.sessionTimeoutMs, () => {
      member.cancelSession = undefined;
      if (group.members.get(member.memberId) !== member) return;
      // A parked request keeps a member alive; the rebalance timers bound how long it waits.
      if (member.awaitingJoin || member.awaitingSync) {
        this.armSession(group, member);
        return;
      }
      this.context.logger.info(
        { groupId: group.groupId, memberId: member.memberId, sessionTimeoutMs: member.sessionTimeoutMs },
        'member session expired',
      );
      this.removeMemberAndUpdateGroup(group, member, 'session expired');
    });
  }

  /** Removes a member (leave, expiry) and moves the group on: a rebalance, or completing one. */
  removeMemberAndUpdateGroup(group: Group, member: GroupMember, reason: string): void {
    this.#dropMember(group, member);
    switch (group.state) {
      case 'Stable':
      case 'CompletingRebalance':
        this.prepareRebalance(group, `member ${member.memberId} ${reason}`);
        return;
      case 'PreparingRebalance':
        this.tryCompleteJoin(group);
        return;
      case 'Empty':
      case 'Dead':
        return;
    }
  }

  #dropMember(group: Group, member: GroupMember): void {
    member.answerJoin(joinError(ErrorCode.UNKNOWN_MEMBER_ID, member.memberId));
    member.answerSync(syncError(ErrorCode.UNKNOWN_MEMBER_ID));
    group.remove(member.memberId);
  }

  /** Writes the group's metadata in the background; a failure is logged and the next write repairs it. */
  persistGroup(group: Group): void {
    const { context } = this;
    context
      .write(group.groupId, [{ kind: 'group', groupId: group.groupId, value: groupRecordOf(group) }], {
        durable: false,
      })
      .catch((error: unknown) => {
        context.logger.warn({ groupId: group.groupId, err: error }, 'storing the group metadata failed');
      });
  }

  /** Stops every timer of a group and answers its parked requests (deletion, shutdown). */
  shutDownGroup(group: Group, errorCode: number): void {
    this.#cancelTimers(group);
    this.#inInitialDelay.delete(group);
    for (const cancel of group.pendingMembers.values()) cancel();
    group.pendingMembers.clear();
    for (const member of group.members.values()) {
      member.stopSessionTimer();
      member.answerJoin(joinError(errorCode, member.memberId));
      member.answerSync(syncError(errorCode));
    }
  }

  #cancelTimers(group: Group): void {
    group.cancelJoinTimer?.();
    group.cancelJoinTimer = undefined;
    group.cancelSyncTimer?.();
    group.cancelSyncTimer = undefined;
  }
}
