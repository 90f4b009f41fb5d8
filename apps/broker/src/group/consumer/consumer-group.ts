import type { Assignment } from './assignment';
import { assertConsumerGroupTransition, type ConsumerGroupState } from './consumer-group-state';
import { type ConsumerMember, isReconciledTo } from './consumer-member';

/** A subscribed topic as the group last saw it (Kafka's subscription metadata). */
export interface SubscribedTopic {
  readonly topicId: string;
  readonly numPartitions: number;
}

/** The persistent state of a group at one moment, for rollback and for finding what to write. */
export interface ConsumerGroupSnapshot {
  readonly groupEpoch: number;
  readonly assignmentEpoch: number;
  readonly members: ReadonlyMap<string, ConsumerMember>;
  readonly targetAssignment: ReadonlyMap<string, Assignment>;
  /** Subscribed topic name → its id and partition count. */
  readonly subscriptionMetadata: ReadonlyMap<string, SubscribedTopic>;
}

/** Which member owns a partition (assigned or pending revocation), and at which of its epochs. */
interface PartitionOwner {
  memberId: string;
  epoch: number;
}

/** A partition owned by two members at once: always a coordinator bug. */
export class PartitionOwnedTwiceError extends Error {
  constructor(groupId: string, topicId: string, partition: number, owner: string, claimant: string) {
    super(
      `consumer group "${groupId}": partition ${topicId}-${partition} is owned by ${owner}; ${claimant} cannot take it`,
    );
    this.name = 'PartitionOwnedTwiceError';
  }
}

/**
 * The consumer-protocol (KIP-848) side of a group (docs/architecture.md §5): members with their
 * epochs and assignments, the group epoch (bumped whenever membership or subscriptions change),
 * and the target assignment with its epoch. The group's committed offsets stay on the
 * {@link Group} that holds this object, whichever protocol the group speaks.
 *
 * The coordinator keeps the invariant that no partition is owned by two members: each member's
 * assigned and pending-revocation partitions are indexed by owner, and {@link setMember} refuses a
 * member that would take a partition someone else still owns.
 */
export class ConsumerGroup {
  readonly groupId: string;
  groupEpoch = 0;
  assignmentEpoch = 0;
  readonly members = new Map<string, ConsumerMember>();
  /** instance id → member id, for static members. */
  readonly staticMembers = new Map<string, string>();
  readonly targetAssignment = new Map<string, Assignment>();
  readonly subscriptionMetadata = new Map<string, SubscribedTopic>();
  /** Cancels each member's session timer. */
  readonly sessionTimers = new Map<string, () => void>();
  /** Cancels the rebalance timer of members that must revoke partitions. */
  readonly rebalanceTimers = new Map<string, () => void>();
  #state: ConsumerGroupState = 'Empty';
  #owners = new Map<string, Map<number, PartitionOwner>>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(groupId: string) {
    this.groupId = groupId;
  }

  get state(): ConsumerGroupState {
    return this.#state;
  }

  get isEmpty(): boolean {
    return this.members.size === 0;
  }

  /**
   * Runs `operation` after every operation queued before it has finished: heartbeats, leaves and
   * timer-driven fencing of one group never interleave, so each sees the state the previous one
   * left (including its writes to `__consumer_offsets`).
   */
  serialize<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(operation);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  /** The epoch at which some member owns the partition, or -1 when none does. */
  currentPartitionEpoch(topicId: string, partition: number): number {
    return this.#owners.get(topicId)?.get(partition)?.epoch ?? -1;
  }

  /** The member that owns the partition, if any. */
  ownerOf(topicId: string, partition: number): string | undefined {
    return this.#owners.get(topicId)?.get(partition)?.memberId;
  }

  /** Adds or replaces a member, re-indexing what it owns. */
  setMember(member: ConsumerMember): void {
    const previous = this.members.get(member.memberId);
    if (previous) this.#release(previous);
    this.#claim(member);
    this.members.set(member.memberId, member);
    if (previous?.instanceId && previous.instanceId !== member.instanceId) {
      this.staticMembers.delete(previous.instanceId);
    }
    if (member.instanceId !== null) this.staticMembers.set(member.instanceId, member.memberId);
  }

  /** Removes a member, its target assignment and what it owns. */
  removeMember(memberId: string): ConsumerMember | undefined {
    const member = this.members.get(memberId);
    if (!member) return undefined;
    this.#release(member);
    this.members.delete(memberId);
    this.targetAssignment.delete(memberId);
    if (member.instanceId !== null && this.staticMembers.get(member.instanceId) === memberId) {
      this.staticMembers.delete(member.instanceId);
    }
    return member;
  }

  staticMember(instanceId: string): ConsumerMember | undefined {
    const memberId = this.staticMembers.get(instanceId);
    return memberId === undefined ? undefined : this.members.get(memberId);
  }

  snapshot(): ConsumerGroupSnapshot {
    return {
      groupEpoch: this.groupEpoch,
      assignmentEpoch: this.assignmentEpoch,
      members: new Map(this.members),
      targetAssignment: new Map(this.targetAssignment),
      subscriptionMetadata: new Map(this.subscriptionMetadata),
    };
  }

  /** Puts the group back as it was at `snapshot` (a change whose records could not be written). */
  restore(snapshot: ConsumerGroupSnapshot): void {
    this.groupEpoch = snapshot.groupEpoch;
    this.assignmentEpoch = snapshot.assignmentEpoch;
    this.members.clear();
    this.staticMembers.clear();
    this.#owners = new Map();
    for (const member of snapshot.members.values()) this.setMember(member);
    this.targetAssignment.clear();
    for (const [memberId, assignment] of snapshot.targetAssignment)
      this.targetAssignment.set(memberId, assignment);
    this.subscriptionMetadata.clear();
    for (const [name, topic] of snapshot.subscriptionMetadata) this.subscriptionMetadata.set(name, topic);
    this.refreshState();
  }

  /** The state the members and epochs imply (Kafka's rule), entered through the transition table. */
  refreshState(): void {
    if (this.#state === 'Dead') return;
    let next: ConsumerGroupState;
    if (this.members.size === 0) next = 'Empty';
    else if (this.groupEpoch > this.assignmentEpoch) next = 'Assigning';
    else {
      next = 'Stable';
      for (const member of this.members.values()) {
        if (!isReconciledTo(member, this.assignmentEpoch)) {
          next = 'Reconciling';
          break;
        }
      }
    }
    assertConsumerGroupTransition(this.groupId, this.#state, next);
    this.#state = next;
  }

  /** The group is gone (deleted, converted, unloaded): its timers stop. */
  markDead(): void {
    assertConsumerGroupTransition(this.groupId, this.#state, 'Dead');
    this.#state = 'Dead';
    for (const cancel of this.sessionTimers.values()) cancel();
    for (const cancel of this.rebalanceTimers.values()) cancel();
    this.sessionTimers.clear();
    this.rebalanceTimers.clear();
  }

  /** The subscribed topic names of every member, for offset expiry and OffsetDelete. */
  isSubscribedTo(topic: string): boolean {
    for (const member of this.members.values()) if (member.subscribedTopicNames.includes(topic)) return true;
    return false;
  }

  #claim(member: ConsumerMember): void {
    for (const assignment of [member.assignedPartitions, member.partitionsPendingRevocation]) {
      for (const [topicId, partitions] of assignment) {
        let owners = this.#owners.get(topicId);
        if (!owners) {
          owners = new Map();
          this.#owners.set(topicId, owners);
        }
        for (const partition of partitions) {
          const owner = owners.get(partition);
          if (owner && owner.memberId !== member.memberId) {
            throw new PartitionOwnedTwiceError(
              this.groupId,
              topicId,
              partition,
              owner.memberId,
              member.memberId,
            );
          }
          owners.set(partition, { memberId: member.memberId, epoch: member.memberEpoch });
        }
      }
    }
  }

  #release(member: ConsumerMember): void {
    for (const assignment of [member.assignedPartitions, member.partitionsPendingRevocation]) {
      for (const [topicId, partitions] of assignment) {
        const owners = this.#owners.get(topicId);
        if (!owners) continue;
        for (const partition of partitions) {
          if (owners.get(partition)?.memberId === member.memberId) owners.delete(partition);
        }
        if (owners.size === 0) this.#owners.delete(topicId);
      }
    }
  }
}
