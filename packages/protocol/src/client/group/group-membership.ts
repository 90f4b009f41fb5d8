import { ErrorCode } from '../../errors/error-codes';
import { errorForCode, WeirError } from '../../errors/weir-error';
import { Heartbeat } from '../../messages/apis/heartbeat';
import { JoinGroup } from '../../messages/apis/join-group';
import { LeaveGroup } from '../../messages/apis/leave-group';
import { SyncGroup } from '../../messages/apis/sync-group';
import { decodeConsumerAssignment } from '../../records/consumer-protocol';
import type { ResponseOf } from '../../schema/api';
import type { Client } from '../client';
import type { Consumer } from '../consumer';
import { partitionKey } from '../leader-requests';
import { isCoordinatorError } from './coordinator';
import type { CoordinatorLink } from './coordinator-link';
import type { GroupCommits } from './group-commits';
import type { TopicPartition } from './group-consumer-options';
import type { GroupConsumerSettings } from './group-consumer-settings';
import type { GroupConsumerStatus } from './group-consumer-status';
import { asWeirError, groupTopics, listenerError } from './group-consumer-support';
import { joinGroup, leaderAssignments } from './group-join';
import { fetchCommittedOffsets } from './group-offsets';
import { HeartbeatTimer } from './heartbeat-timer';
import type { PartitionPositions } from './partition-positions';

/** The parts of a {@link GroupConsumer} its membership works with. */
export interface MembershipParts {
  readonly client: Client;
  readonly settings: GroupConsumerSettings;
  readonly status: GroupConsumerStatus;
  readonly coordinator: CoordinatorLink;
  /** The partition consumer that reads the assigned partitions. */
  readonly consumer: Consumer;
  readonly positions: PartitionPositions;
  readonly commits: GroupCommits;
}

/**
 * A {@link GroupConsumer}'s membership of its group: rebalances (JoinGroup, SyncGroup, adopting the
 * assignment, revoking what goes), heartbeats, and leaving on close. It keeps who the member is
 * (member id, generation) and what it is assigned; the consumer hands records out and takes commits.
 */
export class GroupMembership {
  readonly #client: Client;
  readonly #settings: GroupConsumerSettings;
  readonly #status: GroupConsumerStatus;
  readonly #coordinator: CoordinatorLink;
  readonly #consumer: Consumer;
  readonly #positions: PartitionPositions;
  readonly #commits: GroupCommits;
  readonly #heartbeats: HeartbeatTimer;
  #topics: string[] = [];
  #memberId = '';
  #generationId = -1;
  #assignment: TopicPartition[] = [];
  /** What this member was assigned last, sent as owned partitions for sticky assignors. */
  #lastAssignment: TopicPartition[] = [];
  #rebalance: Promise<void> | undefined;
  #rebalanceAgain = false;
  /** Membership ended behind our back (expelled, fenced): owned partitions are lost, not handed over. */
  #lost = false;

  constructor(parts: MembershipParts) {
    this.#client = parts.client;
    this.#settings = parts.settings;
    this.#status = parts.status;
    this.#coordinator = parts.coordinator;
    this.#consumer = parts.consumer;
    this.#positions = parts.positions;
    this.#commits = parts.commits;
    this.#heartbeats = new HeartbeatTimer(parts.settings.heartbeatIntervalMs, () => this.#heartbeat());
  }

  /** The member id the coordinator gave ('' before the first JoinGroup answer). */
  get memberId(): string {
    return this.#memberId;
  }

  /** The generation of the current assignment (-1 before the first). */
  get generationId(): number {
    return this.#generationId;
  }

  /** The partitions assigned in the current generation (empty while rebalancing). */
  get assignment(): readonly TopicPartition[] {
    return this.#assignment;
  }

  /** Subscribes to `topics` (sorted, without duplicates) and starts joining the group. */
  subscribe(topics: string[]): void {
    this.#topics = topics;
    this.#requestRebalance();
  }

  /**
   * Ends the membership for `close`: stops heartbeats, revokes the partitions, sends LeaveGroup
   * and closes the coordinator connection and the partition consumer.
   */
  async shutDown(wasRunning: boolean): Promise<void> {
    this.#stopTimers();
    try {
      // A cooperative member closing mid-rebalance still holds (and revokes) its partitions.
      if (wasRunning || this.#assignment.length > 0) await this.#revoke();
      const memberId = this.#memberId;
      const coordinator = this.#coordinator.address;
      // A static member keeps its place: a restart within the session timeout resumes it.
      if (
        memberId !== '' &&
        coordinator !== undefined &&
        !this.#client.closed &&
        this.#settings.groupInstanceId === null
      ) {
        // Through the client's own connection: ours may have a JoinGroup parked at the broker, and
        // the broker answers a connection in order, so a LeaveGroup behind it would wait.
        await this.#client
          .send(coordinator.nodeId, LeaveGroup, {
            groupId: this.#settings.groupId,
            memberId,
            members: [{ memberId, groupInstanceId: null }],
          })
          .catch(() => {});
      }
    } finally {
      this.#coordinator.drop();
      await this.#consumer.close();
      this.#memberId = '';
      this.#status.setState('closed');
    }
  }

  /** Points the partition consumer at the unpaused partitions with a known start. */
  reassign(): void {
    if (this.#status.state !== 'running') return;
    this.#consumer.assign(this.#positions.fetchList(this.#assignment));
  }

  // ---- rebalances ----

  /** Starts a rebalance, or asks the running one to go round again. */
  #requestRebalance(): void {
    if (this.#rebalance !== undefined) {
      this.#rebalanceAgain = true;
      return;
    }
    this.#rebalance = this.#runRebalance().finally(() => {
      this.#rebalance = undefined;
      if (this.#rebalanceAgain && this.#status.state === 'running') {
        this.#rebalanceAgain = false;
        this.#requestRebalance();
      }
    });
  }

  async #runRebalance(): Promise<void> {
    const wasRunning = this.#status.state === 'running';
    if (!this.#status.setState('rebalancing')) return;
    this.#stopTimers();
    try {
      // Cooperative members keep their partitions (and positions) through the rebalance; delivery
      // only pauses until the new assignment says which ones stay.
      if (wasRunning && !this.#settings.cooperative) await this.#revoke();
      else if (wasRunning) this.#pauseDelivery();
      for (let attempt = 1; this.#status.state === 'rebalancing'; attempt++) {
        this.#rebalanceAgain = false;
        try {
          if (this.#lost && this.#assignment.length > 0) await this.#revoke({ commit: false });
          this.#lost = false;
          if (await this.#joinAndSync()) return;
        } catch (error) {
          if (this.#status.state !== 'rebalancing') return;
          const failure = asWeirError(error);
          if (failure === undefined) return;
          if (isCoordinatorError(failure.code)) this.#coordinator.drop();
          if (!failure.retriable && !isCoordinatorError(failure.code)) {
            this.#fail(failure);
            return;
          }
          await this.#status.wake.sleep(this.#client.retryPolicy.backoffMs(Math.min(attempt, 10)));
        }
      }
    } catch (error) {
      const failure = asWeirError(error);
      if (failure !== undefined && this.#status.state === 'rebalancing') this.#fail(failure);
    }
  }

  /** Stops handing out records and commits until the rebalance settles (cooperative protocol). */
  #pauseDelivery(): void {
    this.#consumer.assign([]);
    this.#commits.generation = undefined;
  }

  /**
   * Commits (auto commit, unless the partitions were lost), calls onRevoked, then forgets the
   * assignment: its generation is over.
   */
  async #revoke(options: { commit: boolean } = { commit: true }): Promise<void> {
    this.#lost = false;
    this.#consumer.assign([]);
    if (this.#settings.autoCommit && options.commit) await this.#commits.commitProcessed().catch(() => {});
    try {
      await this.#settings.listeners.onRevoked?.([...this.#assignment]);
    } catch (error) {
      this.#status.errors.push(asWeirError(error) ?? listenerError(error));
    }
    this.#commits.generation = undefined;
    this.#assignment = [];
    this.#lastAssignment = [];
    this.#positions.forget();
  }

  /** One JoinGroup + SyncGroup round; true when assigned and running, false to go round again. */
  async #joinAndSync(): Promise<boolean> {
    const join = await this.#join();
    if (this.#status.state !== 'rebalancing') return true;
    const retryCodes: number[] = [ErrorCode.REBALANCE_IN_PROGRESS];
    if (join.errorCode === ErrorCode.UNKNOWN_MEMBER_ID || join.errorCode === ErrorCode.ILLEGAL_GENERATION) {
      this.#memberId = '';
      this.#lost = true;
      return false;
    }
    if (retryCodes.includes(join.errorCode)) return false;
    if (join.errorCode !== ErrorCode.NONE)
      throw errorForCode(join.errorCode, `Joining group "${this.#settings.groupId}".`);
    this.#memberId = join.memberId;
    this.#generationId = join.generationId;
    const assignor = this.#settings.assignors.find((candidate) => candidate.name === join.protocolName);
    if (assignor === undefined) {
      throw new WeirError(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, {
        detail: `the coordinator chose assignor "${join.protocolName}", which this consumer does not have.`,
      });
    }
    const assignments =
      join.leader === join.memberId ? await leaderAssignments(this.#client, assignor, join.members) : [];
    const sync = await this.#coordinator.send(SyncGroup, {
      groupId: this.#settings.groupId,
      generationId: join.generationId,
      memberId: join.memberId,
      groupInstanceId: this.#settings.groupInstanceId,
      assignments,
    });
    if (this.#status.state !== 'rebalancing') return true;
    if (sync.errorCode === ErrorCode.UNKNOWN_MEMBER_ID) this.#memberId = '';
    if (sync.errorCode === ErrorCode.UNKNOWN_MEMBER_ID || sync.errorCode === ErrorCode.ILLEGAL_GENERATION)
      this.#lost = true;
    if (
      sync.errorCode === ErrorCode.REBALANCE_IN_PROGRESS ||
      sync.errorCode === ErrorCode.UNKNOWN_MEMBER_ID ||
      sync.errorCode === ErrorCode.ILLEGAL_GENERATION
    )
      return false;
    if (sync.errorCode !== ErrorCode.NONE)
      throw errorForCode(sync.errorCode, `Syncing group "${this.#settings.groupId}".`);
    const decoded = decodeConsumerAssignment(sync.assignment);
    if (decoded === undefined) {
      throw new WeirError(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, {
        detail: 'the assignment is not a consumer assignment.',
      });
    }
    const partitions = decoded.partitions.flatMap((entry) =>
      entry.partitions.map((partition) => ({ topic: entry.topic, partition })),
    );
    const added = this.#settings.cooperative
      ? await this.#adoptIncrementally(partitions, join.generationId)
      : await this.#adoptEagerly(partitions, join.generationId);
    if (added === undefined) return true;
    if (added.length > 0 || !this.#settings.cooperative) {
      try {
        await this.#settings.listeners.onAssigned?.(added);
      } catch (error) {
        this.#status.errors.push(asWeirError(error) ?? listenerError(error));
      }
    }
    if (this.#generationId !== join.generationId || !this.#status.setState('running')) return true;
    this.reassign();
    this.#heartbeats.start();
    if (this.#settings.autoCommit) this.#commits.startAuto(this.#settings.autoCommitIntervalMs);
    return true;
  }

  /** JoinGroup with this member's subscription (see {@link joinGroup}). */
  async #join(): Promise<ResponseOf<typeof JoinGroup>> {
    const settings = this.#settings;
    const response = await joinGroup(
      (body, timeoutMs) => this.#coordinator.send(JoinGroup, body, timeoutMs),
      {
        groupId: settings.groupId,
        memberId: this.#memberId,
        groupInstanceId: settings.groupInstanceId,
        topics: this.#topics,
        ownedPartitions: this.#lastAssignment,
        assignors: settings.assignors,
        sessionTimeoutMs: settings.sessionTimeoutMs,
        rebalanceTimeoutMs: settings.rebalanceTimeoutMs,
        // The coordinator parks a JoinGroup until every member rejoined or the rebalance timed out.
        waitMs: settings.rebalanceTimeoutMs + this.#client.requestTimeoutMs,
      },
      (memberId) => {
        this.#memberId = memberId;
      },
    );
    return response;
  }

  /** Eager protocol: everything was revoked, so the whole assignment is new. Undefined when abandoned. */
  async #adoptEagerly(
    partitions: readonly TopicPartition[],
    generationId: number,
  ): Promise<TopicPartition[] | undefined> {
    this.#lastAssignment = [...partitions];
    this.#positions.forget();
    await this.#start(partitions, generationId);
    if (this.#status.state !== 'rebalancing') return undefined;
    this.#assignment = [...partitions];
    this.#commits.generation = generationId;
    return [...partitions];
  }

  /**
   * Cooperative protocol: partitions kept go on from their positions, now in the new generation;
   * partitions taken away are committed (auto commit) and revoked, and the member rejoins at once
   * so their new owners get them; only the added ones need start offsets. Returns the added ones
   * (what onAssigned hears about), or undefined when the rebalance was abandoned.
   */
  async #adoptIncrementally(
    partitions: readonly TopicPartition[],
    generationId: number,
  ): Promise<TopicPartition[] | undefined> {
    const next = new Set(partitions.map((entry) => partitionKey(entry.topic, entry.partition)));
    const held = new Set(this.#assignment.map((entry) => partitionKey(entry.topic, entry.partition)));
    const revoked = this.#assignment.filter((entry) => !next.has(partitionKey(entry.topic, entry.partition)));
    const added = partitions.filter((entry) => !held.has(partitionKey(entry.topic, entry.partition)));
    this.#commits.generation = generationId;
    this.#positions.restamp(generationId);
    if (revoked.length > 0) {
      const revokedKeys = new Set(revoked.map((entry) => partitionKey(entry.topic, entry.partition)));
      if (this.#settings.autoCommit)
        await this.#commits
          .commitAs(generationId, this.#positions.movedSinceCommit(generationId, revokedKeys))
          .catch(() => {});
      try {
        await this.#settings.listeners.onRevoked?.(revoked);
      } catch (error) {
        this.#status.errors.push(asWeirError(error) ?? listenerError(error));
      }
      this.#positions.forget(revokedKeys);
      // The revoked partitions reach their new owners in the next round.
      this.#rebalanceAgain = true;
    }
    this.#lastAssignment = [...partitions];
    this.#assignment = this.#assignment.filter((entry) =>
      next.has(partitionKey(entry.topic, entry.partition)),
    );
    await this.#start(added, generationId);
    if (this.#status.state !== 'rebalancing') return undefined;
    this.#assignment = [...partitions];
    return added;
  }

  /**
   * Chooses start offsets of newly assigned partitions: committed ones, else autoOffsetReset
   * (none → an error naming the partition).
   */
  async #start(partitions: readonly TopicPartition[], generationId: number): Promise<void> {
    const groupId = this.#settings.groupId;
    const committed =
      partitions.length === 0
        ? []
        : await this.#coordinator.withRetries((send) =>
            fetchCommittedOffsets(send, groupId, groupTopics(partitions)),
          );
    const autoOffsetReset = this.#settings.autoOffsetReset;
    const fallback = autoOffsetReset === 'none' ? undefined : autoOffsetReset;
    for (const entry of this.#positions.startAt(partitions, committed, generationId, fallback)) {
      if (fallback !== undefined) continue;
      this.#status.errors.push(
        new WeirError(ErrorCode.OFFSET_OUT_OF_RANGE, {
          detail: `${entry.topic}-${entry.partition} has no committed offset in group "${groupId}" and autoOffsetReset is "none"; seek to go on.`,
        }),
      );
    }
  }

  // ---- heartbeats ----

  /** One beat; true while the member stays in its generation. */
  async #heartbeat(): Promise<boolean> {
    if (this.#client.closed) return false;
    const { groupId, groupInstanceId } = this.#settings;
    const generationId = this.#generationId;
    let code: number;
    try {
      const response = await this.#coordinator.send(Heartbeat, {
        groupId,
        generationId,
        memberId: this.#memberId,
        groupInstanceId,
      });
      code = response.errorCode;
    } catch (error) {
      code = asWeirError(error)?.code ?? ErrorCode.UNKNOWN_SERVER_ERROR;
    }
    if (this.#status.state !== 'running' || this.#generationId !== generationId) return false;
    if (code === ErrorCode.NONE) return true;
    if (isCoordinatorError(code)) {
      // Find the coordinator again on the next beat; the session outlives a few missed ones.
      this.#coordinator.drop();
      return true;
    }
    if (code === ErrorCode.FENCED_INSTANCE_ID) {
      // Another live member has our instance id: rejoining would fence it in turn, back and forth.
      this.#fail(errorForCode(code, `Group "${groupId}", instance "${groupInstanceId}".`));
      return false;
    }
    if (code === ErrorCode.UNKNOWN_MEMBER_ID) this.#memberId = '';
    if (code !== ErrorCode.REBALANCE_IN_PROGRESS) this.#lost = true;
    // REBALANCE_IN_PROGRESS, ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID: rejoin.
    this.#requestRebalance();
    return false;
  }

  /** A fatal group error: reported by every poll until the consumer is closed. */
  #fail(error: WeirError): void {
    this.#status.fatal = error;
    // Wakes a poll waiting on the (empty) partition consumer so it reports the error now.
    this.#consumer.assign([]);
    this.#status.wake.wakeAll();
  }

  #stopTimers(): void {
    this.#heartbeats.stop();
    this.#commits.stopAuto();
  }
}
