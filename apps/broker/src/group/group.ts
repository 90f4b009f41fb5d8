import { decodeConsumerSubscription } from '@weir/protocol';
import type { ConsumerGroup } from './consumer/consumer-group';
import type { ConsumerGroupState } from './consumer/consumer-group-state';
import { assertTransition, type GroupState } from './group-state';
import type { GroupMember, MemberProtocol } from './member';

/** The protocol type of Kafka's consumer protocol, the only one whose metadata we can read. */
export const CONSUMER_PROTOCOL_TYPE = 'consumer';

/** A committed offset as the coordinator keeps it. */
export interface CommittedOffset {
  offset: number;
  /** The leader epoch the consumer committed (OffsetCommit v6+), -1 when unknown. */
  leaderEpoch: number;
  metadata: string;
  commitTimestampMs: number;
  /** From OffsetCommit v2–4's retention time; -1 when the retention rules apply. */
  expireTimestampMs: number;
  /** Write order within this coordinator run, so a late-finishing older write never wins. */
  sequence: number;
}

/** A write of one partition's offset that is on its way to the log (null: a deletion). */
export interface PendingOffsetWrite {
  sequence: number;
  value: CommittedOffset | null;
}

/**
 * One consumer group: membership, the current generation and its committed offsets. Group holds
 * state and answers questions about it; the rebalance protocol that changes it lives in the
 * coordinator. Every state change goes through {@link transitionTo}, which enforces the table.
 */
export class Group {
  readonly groupId: string;
  #state: GroupState;
  /** When the state last changed; an Empty group's offsets expire relative to it. */
  stateTimestampMs: number;
  generationId = 0;
  /** Set by the first member to join; null for groups that only store offsets. */
  protocolType: string | null = null;
  protocolName: string | null = null;
  leaderId: string | null = null;
  readonly members = new Map<string, GroupMember>();
  /** group.instance.id → member id, for static members. */
  readonly staticMembers = new Map<string, string>();
  /** Member ids handed out with MEMBER_ID_REQUIRED whose owners have not rejoined yet. */
  readonly pendingMembers = new Map<string, () => void>();
  /** Members of the current generation that have not sent SyncGroup yet. */
  readonly pendingSyncMembers = new Set<string>();
  /** During the initial rebalance delay: whether someone joined since the delay was last armed. */
  newMemberAdded = false;
  /** Whether the leader's assignment of the current generation is being stored. */
  assignmentInFlight = false;
  /** Cancels the join or initial-delay timer of the rebalance in progress. */
  cancelJoinTimer: (() => void) | undefined;
  /** Cancels the timer that removes members that never sent SyncGroup. */
  cancelSyncTimer: (() => void) | undefined;
  /** Topics the members subscribe to (consumer protocol); undefined when unknown. */
  subscribedTopics: ReadonlySet<string> | undefined = new Set();
  readonly offsets = new Map<string, Map<number, CommittedOffset>>();
  readonly pendingOffsetWrites = new Map<string, PendingOffsetWrite>();
  /**
   * Set while the group speaks the consumer protocol (KIP-848): its members, epochs and
   * assignments live there, and the classic state above stays Empty without members. A group is
   * one protocol or the other (docs/architecture.md §5); its committed offsets are here either way.
   */
  consumer: ConsumerGroup | undefined;

  constructor(groupId: string, initialState: GroupState, nowMs: number) {
    this.groupId = groupId;
    this.#state = initialState;
    this.stateTimestampMs = nowMs;
  }

  get state(): GroupState {
    return this.#state;
  }

  is(state: GroupState): boolean {
    return this.#state === state;
  }

  transitionTo(next: GroupState, nowMs: number): void {
    assertTransition(this.groupId, this.#state, next);
    this.#state = next;
    this.stateTimestampMs = nowMs;
  }

  get isEmpty(): boolean {
    return this.members.size === 0;
  }

  /** Which protocol the group speaks. */
  get groupProtocol(): 'classic' | 'consumer' {
    return this.consumer === undefined ? 'classic' : 'consumer';
  }

  /** The state tools are shown: the consumer group's for a consumer-protocol group, else the classic one. */
  get shownState(): GroupState | ConsumerGroupState {
    return this.consumer?.state ?? this.#state;
  }

  /**
   * Whether the group has no members of either protocol (and no member id handed out that is
   * still to join): what DeleteGroups, offset expiry and the switch between protocols require.
   */
  get hasNoMembers(): boolean {
    const classicEmpty = this.is('Empty') && this.members.size === 0 && this.pendingMembers.size === 0;
    return classicEmpty && (this.consumer?.isEmpty ?? true);
  }

  add(member: GroupMember): void {
    if (this.members.has(member.memberId))
      throw new Error(`member ${member.memberId} is already in the group`);
    if (this.members.size === 0) this.protocolType = member.protocolType;
    this.members.set(member.memberId, member);
    if (member.groupInstanceId !== null) this.staticMembers.set(member.groupInstanceId, member.memberId);
    this.leaderId ??= member.memberId;
  }

  /** Removes a member and everything that refers to it; the leader passes to another member. */
  remove(memberId: string): GroupMember | undefined {
    const member = this.members.get(memberId);
    if (!member) return undefined;
    member.stopSessionTimer();
    this.members.delete(memberId);
    this.pendingSyncMembers.delete(memberId);
    if (member.groupInstanceId !== null && this.staticMembers.get(member.groupInstanceId) === memberId) {
      this.staticMembers.delete(member.groupInstanceId);
    }
    if (this.leaderId === memberId) this.leaderId = this.members.keys().next().value ?? null;
    return member;
  }

  /** The member id currently registered for a static instance id. */
  staticMemberId(groupInstanceId: string): string | undefined {
    return this.staticMembers.get(groupInstanceId);
  }

  /**
   * True when the request names a static instance that now belongs to another member id: an old
   * incarnation of a restarted static member (FENCED_INSTANCE_ID).
   */
  isStaticMemberFenced(memberId: string, groupInstanceId: string | null): boolean {
    if (groupInstanceId === null) return false;
    const current = this.staticMembers.get(groupInstanceId);
    return current !== undefined && current !== memberId;
  }

  /** Protocols every member offers: the only ones the group can choose from. */
  candidateProtocols(): Set<string> {
    const members = [...this.members.values()];
    const [first, ...others] = members;
    if (!first) return new Set();
    return new Set(
      first.protocols
        .map((protocol) => protocol.name)
        .filter((name) => others.every((member) => member.protocols.some((p) => p.name === name))),
    );
  }

  /**
   * Whether a member with these protocols may join: any non-empty offer is fine for an empty group;
   * otherwise the protocol type must match and one offered protocol must be supported by every
   * current member (else INCONSISTENT_GROUP_PROTOCOL).
   */
  supportsProtocols(protocolType: string, protocols: readonly MemberProtocol[]): boolean {
    if (this.isEmpty) return protocolType.length > 0 && protocols.length > 0;
    if (protocolType !== this.protocolType) return false;
    const candidates = this.candidateProtocols();
    return protocols.some((protocol) => candidates.has(protocol.name));
  }

  /**
   * The protocol the members vote for: each votes for its most preferred candidate and the most
   * votes win; ties go to the protocol the leader prefers, so the choice is deterministic.
   */
  selectProtocol(): string {
    const candidates = this.candidateProtocols();
    const votes = new Map<string, number>();
    for (const member of this.members.values()) {
      const vote = member.vote(candidates);
      if (vote !== undefined) votes.set(vote, (votes.get(vote) ?? 0) + 1);
    }
    const leader =
      (this.leaderId !== null && this.members.get(this.leaderId)) || this.members.values().next().value;
    const preference = leader?.protocols.map((protocol) => protocol.name) ?? [];
    let chosen: string | undefined;
    let chosenVotes = 0;
    for (const name of preference) {
      const count = votes.get(name) ?? 0;
      if (count > chosenVotes) {
        chosen = name;
        chosenVotes = count;
      }
    }
    // Joins are refused unless a common protocol exists, so an empty vote is a coordinator bug.
    if (chosen === undefined)
      throw new Error(`group "${this.groupId}" has no protocol every member supports`);
    return chosen;
  }

  /** Whether every member has a parked JoinGroup and no handed-out member id is still missing. */
  allMembersJoined(): boolean {
    if (this.pendingMembers.size > 0) return false;
    for (const member of this.members.values()) if (!member.awaitingJoin) return false;
    return true;
  }

  /** The longest rebalance timeout of any member: how long a rebalance may wait for rejoins. */
  rebalanceTimeoutMs(): number {
    let longest = 0;
    for (const member of this.members.values()) longest = Math.max(longest, member.rebalanceTimeoutMs);
    return longest;
  }

  /** Recomputes the subscribed topics from the members' metadata for the chosen protocol. */
  refreshSubscribedTopics(): void {
    if (this.protocolType !== CONSUMER_PROTOCOL_TYPE || this.protocolName === null) {
      this.subscribedTopics = this.isEmpty ? new Set() : undefined;
      return;
    }
    const topics = new Set<string>();
    for (const member of this.members.values()) {
      const subscription = decodeConsumerSubscription(member.metadataFor(this.protocolName));
      if (!subscription) {
        this.subscribedTopics = undefined;
        return;
      }
      for (const topic of subscription.topics) topics.add(topic);
    }
    this.subscribedTopics = topics;
  }

  /** Conservative: when the subscriptions cannot be read, every topic counts as subscribed. */
  isSubscribedTo(topic: string): boolean {
    if (this.consumer) return this.consumer.isSubscribedTo(topic);
    return this.subscribedTopics === undefined || this.subscribedTopics.has(topic);
  }

  committedOffset(topic: string, partition: number): CommittedOffset | undefined {
    return this.offsets.get(topic)?.get(partition);
  }

  setCommittedOffset(topic: string, partition: number, value: CommittedOffset | null): void {
    if (value === null) {
      const partitions = this.offsets.get(topic);
      partitions?.delete(partition);
      if (partitions?.size === 0) this.offsets.delete(topic);
      return;
    }
    let partitions = this.offsets.get(topic);
    if (!partitions) {
      partitions = new Map();
      this.offsets.set(topic, partitions);
    }
    partitions.set(partition, value);
  }

  get hasOffsets(): boolean {
    return this.offsets.size > 0 || this.pendingOffsetWrites.size > 0;
  }

  /** Every committed offset, topic by topic. */
  *allOffsets(): Generator<{ topic: string; partition: number; committed: CommittedOffset }> {
    for (const [topic, partitions] of this.offsets) {
      for (const [partition, committed] of partitions) yield { topic, partition, committed };
    }
  }
}

/** The key of one partition in {@link Group.pendingOffsetWrites}. */
export function partitionKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}
