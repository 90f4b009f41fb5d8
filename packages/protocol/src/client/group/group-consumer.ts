import { ErrorCode } from '../../errors/error-codes';
import { errorForCode, WeirError } from '../../errors/weir-error';
import { Heartbeat } from '../../messages/apis/heartbeat';
import { JoinGroup } from '../../messages/apis/join-group';
import { LeaveGroup } from '../../messages/apis/leave-group';
import { SyncGroup } from '../../messages/apis/sync-group';
import { decodeConsumerAssignment } from '../../records/consumer-protocol';
import type { ResponseOf } from '../../schema/api';
import type { Client } from '../client';
import { ClosedError } from '../closed-error';
import { Consumer, type PollOptions, type StartOffset } from '../consumer';
import { partitionKey } from '../leader-requests';
import type { ConsumerRecord } from '../message';
import type { Assignor } from './assignor';
import { findGroupCoordinator, isCoordinatorError } from './coordinator';
import { CoordinatorLink } from './coordinator-link';
import type {
  CoordinatorConnector,
  GenerationOffset,
  GroupConsumerOptions,
  RebalanceListeners,
  TopicPartition,
} from './group-consumer-options';
import { canTransition, type GroupConsumerState } from './group-consumer-state';
import { asWeirError, groupTopics, listenerError, positive } from './group-consumer-support';
import { joinGroup, leaderAssignments } from './group-join';
import {
  type CommittedOffset,
  commitOffsets,
  fetchCommittedOffsets,
  type OffsetToCommit,
} from './group-offsets';
import { HeartbeatTimer } from './heartbeat-timer';
import { PartitionPositions } from './partition-positions';
import { rangeAssignor } from './range-assignor';
import { WakeSignal } from './wake-signal';

/**
 * A member of a consumer group: it subscribes to topics, joins the group through the coordinator
 * (FindCoordinator → JoinGroup, answering MEMBER_ID_REQUIRED → SyncGroup, where the leader computes
 * everyone's partitions with the agreed assignor), reads its partitions through a partition
 * {@link Consumer}, heartbeats on its own connection and timer, and commits what was processed.
 *
 * Records handed out by `poll` or the async iterator count as processed: `commit()` stores, per
 * partition, the last one's offset + 1. With eager assignors (range, roundrobin) a rebalance
 * revokes everything before the member rejoins; with cooperative ones (cooperative-sticky) the
 * member keeps its partitions and positions, revokes only those that move, and rejoins once more
 * so they reach their new owners (KIP-429). Records fetched in a generation are dropped once a rebalance starts, and a commit
 * of an older generation than the current one fails locally with REBALANCE_IN_PROGRESS, so no stale
 * commit reaches the broker. Delivery is at least once: records processed but not committed when a
 * rebalance or crash happens are read again by the next owner.
 */
export class GroupConsumer {
  readonly groupId: string;
  /** Static membership's instance id, or null for a dynamic member. */
  readonly groupInstanceId: string | null;
  readonly #client: Client;
  readonly #sessionTimeoutMs: number;
  readonly #rebalanceTimeoutMs: number;
  readonly #assignors: readonly Assignor[];
  /** Whether every assignor rebalances cooperatively (KIP-429), as the Java client decides it. */
  readonly #cooperative: boolean;
  readonly #autoCommit: boolean;
  readonly #autoCommitIntervalMs: number;
  readonly #autoOffsetReset: 'earliest' | 'latest' | 'none';
  readonly #listeners: RebalanceListeners;
  readonly #coordinator: CoordinatorLink;
  readonly #consumer: Consumer;
  #state: GroupConsumerState = 'new';
  #topics: string[] = [];
  #memberId = '';
  #generationId = -1;
  /** The generation whose work may still be committed; undefined from the rejoin until assigned. */
  #commitGeneration: number | undefined;
  #assignment: TopicPartition[] = [];
  /** What this member was assigned last, sent as owned partitions for sticky assignors. */
  #lastAssignment: TopicPartition[] = [];
  readonly #positions = new PartitionPositions();
  readonly #errors: WeirError[] = [];
  #fatal: WeirError | undefined;
  #rebalance: Promise<void> | undefined;
  #rebalanceAgain = false;
  /** Membership ended behind our back (expelled, fenced): owned partitions are lost, not handed over. */
  #lost = false;
  readonly #heartbeats: HeartbeatTimer;
  #autoCommitTimer: ReturnType<typeof setInterval> | undefined;
  #closing: Promise<void> | undefined;
  /** Resolves the waiters of {@link waitForState}. */
  readonly #wake = new WakeSignal();

  constructor(client: Client, options: GroupConsumerOptions) {
    if (typeof options.groupId !== 'string' || options.groupId.length === 0)
      throw new RangeError('groupId must be a non-empty string');
    this.#client = client;
    this.groupId = options.groupId;
    if (options.groupInstanceId !== undefined && options.groupInstanceId.length === 0)
      throw new RangeError('groupInstanceId must be a non-empty string when given');
    this.groupInstanceId = options.groupInstanceId ?? null;
    this.#sessionTimeoutMs = positive('sessionTimeoutMs', options.sessionTimeoutMs ?? 10_000);
    this.#rebalanceTimeoutMs = positive('rebalanceTimeoutMs', options.rebalanceTimeoutMs ?? 60_000);
    this.#heartbeats = new HeartbeatTimer(
      positive('heartbeatIntervalMs', options.heartbeatIntervalMs ?? 3000),
      () => this.#heartbeat(),
    );
    this.#assignors = options.assignors ?? [rangeAssignor];
    if (this.#assignors.length === 0) throw new RangeError('assignors is empty');
    this.#cooperative = this.#assignors.every((assignor) => assignor.rebalanceProtocol === 'cooperative');
    this.#autoCommit = options.autoCommit ?? true;
    this.#autoCommitIntervalMs = positive('autoCommitIntervalMs', options.autoCommitIntervalMs ?? 5000);
    this.#autoOffsetReset = options.autoOffsetReset ?? 'latest';
    this.#listeners = { onRevoked: options.onRevoked, onAssigned: options.onAssigned };
    // The client's own settings, so the coordinator link authenticates like every other connection.
    const connect: CoordinatorConnector =
      options.connectCoordinator ?? ((address) => client.openConnection(address));
    this.#coordinator = new CoordinatorLink(
      client,
      () => findGroupCoordinator(client, this.groupId),
      connect,
      () => this.#state === 'closed',
    );
    this.#consumer = new Consumer(client, {
      maxWaitMs: options.maxWaitMs ?? 5000,
      autoOffsetReset: this.#autoOffsetReset,
      isolationLevel: options.isolationLevel,
    });
  }

  /** See {@link GroupConsumerState}. */
  get state(): GroupConsumerState {
    return this.#state;
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
  assignment(): TopicPartition[] {
    return [...this.#assignment];
  }

  /** Subscribes to `topics` and starts joining the group; `poll` returns records once assigned. */
  subscribe(topics: readonly string[]): void {
    if (topics.length === 0 || topics.some((topic) => typeof topic !== 'string' || topic.length === 0))
      throw new RangeError('subscribe needs at least one topic name');
    if (this.#state !== 'new')
      throw new Error(`subscribe is allowed once, before the first poll (state ${this.#state})`);
    this.#topics = [...new Set(topics)].sort();
    this.#requestRebalance();
  }

  /** Resolves once the consumer is in `state` (or rejects when it closes first, unless that is the state). */
  async waitForState(state: GroupConsumerState, timeoutMs = 30_000): Promise<void> {
    const deadlineMs = Date.now() + timeoutMs;
    while (this.#state !== state) {
      if (this.#fatal !== undefined) throw this.#fatal;
      if (this.#state === 'closed' || Date.now() >= deadlineMs)
        throw new Error(`group consumer did not reach ${state} (it is ${this.#state})`);
      await this.#wake.sleep(deadlineMs - Date.now());
    }
  }

  /**
   * The records fetched so far for the assigned partitions, or waits up to `maxWaitMs` for some.
   * Rejects with the error of a partition that cannot go on (it names the partition) or a group
   * error that ended membership (INCONSISTENT_GROUP_PROTOCOL, …).
   */
  async poll(options: PollOptions = {}): Promise<ConsumerRecord[]> {
    const records = await this.#fetch(options);
    for (const record of records) this.#positions.markProcessed(record, this.#generationId);
    return records;
  }

  /** Records one by one until the consumer closes. Each record counts as processed once yielded. */
  async *[Symbol.asyncIterator](): AsyncGenerator<ConsumerRecord, void, undefined> {
    while (this.#state !== 'closing' && this.#state !== 'closed') {
      const records = await this.#fetch({});
      // #fetch returns only records of the current generation; a later one makes the rest stale.
      const generationId = this.#generationId;
      for (const record of records) {
        // A rebalance that started while the batch was being handed out makes the rest stale.
        if (this.#state !== 'running' || this.#generationId !== generationId) break;
        if (this.#positions.isPaused(record.topic, record.partition)) continue;
        this.#positions.markProcessed(record, this.#generationId);
        yield record;
      }
    }
  }

  /**
   * Commits positions: by default, each assigned partition's last processed offset + 1; or the
   * given offsets (a {@link GenerationOffset} is checked against the current generation). Fails
   * locally with REBALANCE_IN_PROGRESS when the work is from a generation that is over.
   */
  async commit(offsets?: readonly (OffsetToCommit | GenerationOffset)[]): Promise<void> {
    if (this.#state === 'new' || this.#state === 'closed')
      throw new WeirError(ErrorCode.REBALANCE_IN_PROGRESS, { detail: `the consumer is ${this.#state}.` });
    const list = offsets ?? this.#positions.processed();
    const generationId = this.#commitGeneration;
    for (const entry of list) {
      const stamped = 'generationId' in entry ? entry.generationId : generationId;
      if (generationId === undefined || stamped !== generationId) {
        throw new WeirError(ErrorCode.REBALANCE_IN_PROGRESS, {
          detail: `not committing ${entry.topic}-${entry.partition}: its generation ${stamped ?? '(none)'} is over.`,
        });
      }
    }
    await this.#commitAs(generationId!, list);
  }

  /** The positions `commit()` would store, stamped with their generation. */
  processedOffsets(): GenerationOffset[] {
    return this.#positions.processed();
  }

  /** The group's committed offsets for the current assignment. */
  async committed(): Promise<CommittedOffset[]> {
    const partitions = groupTopics(this.#assignment);
    return this.#coordinator.withRetries((send) => fetchCommittedOffsets(send, this.groupId, partitions));
  }

  /** Stops fetching these assigned partitions until `resume`; the position is kept. */
  pause(partitions: readonly TopicPartition[]): void {
    for (const entry of partitions) {
      this.#assertAssigned(entry);
      this.#positions.pause(entry);
    }
    this.#reassign();
  }

  resume(partitions: readonly TopicPartition[]): void {
    for (const entry of partitions) this.#positions.resume(entry);
    this.#reassign();
  }

  paused(): TopicPartition[] {
    return this.#positions.paused();
  }

  /** Moves an assigned partition's position; a numeric offset is also what `commit()` stores next. */
  seek(topic: string, partition: number, offset: StartOffset): void {
    this.#assertAssigned({ topic, partition });
    this.#positions.seek({ topic, partition }, offset, this.#generationId);
    const held = this.#consumer
      .assignment()
      .some((item) => item.topic === topic && item.partition === partition);
    if (held) this.#consumer.seek(topic, partition, offset);
    else this.#reassign();
  }

  /**
   * Leaves the group: stops heartbeats, commits processed positions (auto commit), calls
   * `onRevoked`, sends LeaveGroup so the others rebalance at once, and closes the coordinator
   * connection. Idempotent; wins over a rebalance in progress (which is abandoned).
   */
  close(): Promise<void> {
    if (this.#closing !== undefined) return this.#closing;
    const wasRunning = this.#state === 'running';
    if (this.#state !== 'closing' && this.#state !== 'closed') this.#setState('closing');
    this.#closing = this.#shutDown(wasRunning);
    return this.#closing;
  }

  async #shutDown(wasRunning: boolean): Promise<void> {
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
        this.groupInstanceId === null
      ) {
        // Through the client's own connection: ours may have a JoinGroup parked at the broker, and
        // the broker answers a connection in order, so a LeaveGroup behind it would wait.
        await this.#client
          .send(coordinator.nodeId, LeaveGroup, {
            groupId: this.groupId,
            memberId,
            members: [{ memberId, groupInstanceId: null }],
          })
          .catch(() => {});
      }
    } finally {
      this.#coordinator.drop();
      await this.#consumer.close();
      this.#memberId = '';
      this.#setState('closed');
    }
  }

  // ---- membership ----

  #setState(to: GroupConsumerState): boolean {
    if (!canTransition(this.#state, to)) return false;
    this.#state = to;
    this.#wake.wakeAll();
    return true;
  }

  /** Starts a rebalance, or asks the running one to go round again. */
  #requestRebalance(): void {
    if (this.#rebalance !== undefined) {
      this.#rebalanceAgain = true;
      return;
    }
    this.#rebalance = this.#runRebalance().finally(() => {
      this.#rebalance = undefined;
      if (this.#rebalanceAgain && this.#state === 'running') {
        this.#rebalanceAgain = false;
        this.#requestRebalance();
      }
    });
  }

  async #runRebalance(): Promise<void> {
    const wasRunning = this.#state === 'running';
    if (!this.#setState('rebalancing')) return;
    this.#stopTimers();
    try {
      // Cooperative members keep their partitions (and positions) through the rebalance; delivery
      // only pauses until the new assignment says which ones stay.
      if (wasRunning && !this.#cooperative) await this.#revoke();
      else if (wasRunning) this.#pauseDelivery();
      for (let attempt = 1; this.#state === 'rebalancing'; attempt++) {
        this.#rebalanceAgain = false;
        try {
          if (this.#lost && this.#assignment.length > 0) await this.#revoke({ commit: false });
          this.#lost = false;
          if (await this.#joinAndSync()) return;
        } catch (error) {
          if (this.#state !== 'rebalancing') return;
          const failure = asWeirError(error);
          if (failure === undefined) return;
          if (isCoordinatorError(failure.code)) this.#coordinator.drop();
          if (!failure.retriable && !isCoordinatorError(failure.code)) {
            this.#fail(failure);
            return;
          }
          await this.#wake.sleep(this.#client.retryPolicy.backoffMs(Math.min(attempt, 10)));
        }
      }
    } catch (error) {
      const failure = asWeirError(error);
      if (failure !== undefined && this.#state === 'rebalancing') this.#fail(failure);
    }
  }

  /** Stops handing out records and commits until the rebalance settles (cooperative protocol). */
  #pauseDelivery(): void {
    this.#consumer.assign([]);
    this.#commitGeneration = undefined;
  }

  /**
   * Commits (auto commit, unless the partitions were lost), calls onRevoked, then forgets the
   * assignment: its generation is over.
   */
  async #revoke(options: { commit: boolean } = { commit: true }): Promise<void> {
    this.#lost = false;
    this.#consumer.assign([]);
    if (this.#autoCommit && options.commit) await this.#commitProcessed().catch(() => {});
    try {
      await this.#listeners.onRevoked?.(this.assignment());
    } catch (error) {
      this.#errors.push(asWeirError(error) ?? listenerError(error));
    }
    this.#commitGeneration = undefined;
    this.#assignment = [];
    this.#lastAssignment = [];
    this.#positions.forget();
  }

  /** One JoinGroup + SyncGroup round; true when assigned and running, false to go round again. */
  async #joinAndSync(): Promise<boolean> {
    const join = await this.#join();
    if (this.#state !== 'rebalancing') return true;
    const retryCodes: number[] = [ErrorCode.REBALANCE_IN_PROGRESS];
    if (join.errorCode === ErrorCode.UNKNOWN_MEMBER_ID || join.errorCode === ErrorCode.ILLEGAL_GENERATION) {
      this.#memberId = '';
      this.#lost = true;
      return false;
    }
    if (retryCodes.includes(join.errorCode)) return false;
    if (join.errorCode !== ErrorCode.NONE)
      throw errorForCode(join.errorCode, `Joining group "${this.groupId}".`);
    this.#memberId = join.memberId;
    this.#generationId = join.generationId;
    const assignor = this.#assignors.find((candidate) => candidate.name === join.protocolName);
    if (assignor === undefined) {
      throw new WeirError(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, {
        detail: `the coordinator chose assignor "${join.protocolName}", which this consumer does not have.`,
      });
    }
    const assignments =
      join.leader === join.memberId ? await leaderAssignments(this.#client, assignor, join.members) : [];
    const sync = await this.#coordinator.send(SyncGroup, {
      groupId: this.groupId,
      generationId: join.generationId,
      memberId: join.memberId,
      groupInstanceId: this.groupInstanceId,
      assignments,
    });
    if (this.#state !== 'rebalancing') return true;
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
      throw errorForCode(sync.errorCode, `Syncing group "${this.groupId}".`);
    const decoded = decodeConsumerAssignment(sync.assignment);
    if (decoded === undefined) {
      throw new WeirError(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, {
        detail: 'the assignment is not a consumer assignment.',
      });
    }
    const partitions = decoded.partitions.flatMap((entry) =>
      entry.partitions.map((partition) => ({ topic: entry.topic, partition })),
    );
    const added = this.#cooperative
      ? await this.#adoptIncrementally(partitions, join.generationId)
      : await this.#adoptEagerly(partitions, join.generationId);
    if (added === undefined) return true;
    if (added.length > 0 || !this.#cooperative) {
      try {
        await this.#listeners.onAssigned?.(added);
      } catch (error) {
        this.#errors.push(asWeirError(error) ?? listenerError(error));
      }
    }
    if (this.#generationId !== join.generationId || !this.#setState('running')) return true;
    this.#reassign();
    this.#heartbeats.start();
    if (this.#autoCommit) {
      this.#autoCommitTimer = setInterval(() => {
        this.#commitProcessed().catch(() => {});
      }, this.#autoCommitIntervalMs);
    }
    return true;
  }

  /** JoinGroup with this member's subscription (see {@link joinGroup}). */
  async #join(): Promise<ResponseOf<typeof JoinGroup>> {
    const response = await joinGroup(
      (body, timeoutMs) => this.#coordinator.send(JoinGroup, body, timeoutMs),
      {
        groupId: this.groupId,
        memberId: this.#memberId,
        groupInstanceId: this.groupInstanceId,
        topics: this.#topics,
        ownedPartitions: this.#lastAssignment,
        assignors: this.#assignors,
        sessionTimeoutMs: this.#sessionTimeoutMs,
        rebalanceTimeoutMs: this.#rebalanceTimeoutMs,
        // The coordinator parks a JoinGroup until every member rejoined or the rebalance timed out.
        waitMs: this.#rebalanceTimeoutMs + this.#client.requestTimeoutMs,
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
    if (this.#state !== 'rebalancing') return undefined;
    this.#assignment = [...partitions];
    this.#commitGeneration = generationId;
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
    this.#commitGeneration = generationId;
    this.#positions.restamp(generationId);
    if (revoked.length > 0) {
      const revokedKeys = new Set(revoked.map((entry) => partitionKey(entry.topic, entry.partition)));
      if (this.#autoCommit)
        await this.#commitAs(generationId, this.#positions.movedSinceCommit(generationId, revokedKeys)).catch(
          () => {},
        );
      try {
        await this.#listeners.onRevoked?.(revoked);
      } catch (error) {
        this.#errors.push(asWeirError(error) ?? listenerError(error));
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
    if (this.#state !== 'rebalancing') return undefined;
    this.#assignment = [...partitions];
    return added;
  }

  /**
   * Chooses start offsets of newly assigned partitions: committed ones, else autoOffsetReset
   * (none → an error naming the partition).
   */
  async #start(partitions: readonly TopicPartition[], generationId: number): Promise<void> {
    const committed =
      partitions.length === 0
        ? []
        : await this.#coordinator.withRetries((send) =>
            fetchCommittedOffsets(send, this.groupId, groupTopics(partitions)),
          );
    const fallback = this.#autoOffsetReset === 'none' ? undefined : this.#autoOffsetReset;
    for (const entry of this.#positions.startAt(partitions, committed, generationId, fallback)) {
      if (fallback !== undefined) continue;
      this.#errors.push(
        new WeirError(ErrorCode.OFFSET_OUT_OF_RANGE, {
          detail: `${entry.topic}-${entry.partition} has no committed offset in group "${this.groupId}" and autoOffsetReset is "none"; seek to go on.`,
        }),
      );
    }
  }

  /** Points the partition consumer at the unpaused partitions with a known start. */
  #reassign(): void {
    if (this.#state !== 'running') return;
    this.#consumer.assign(this.#positions.fetchList(this.#assignment));
  }

  // ---- heartbeats and commits ----

  /** One beat; true while the member stays in its generation. */
  async #heartbeat(): Promise<boolean> {
    if (this.#client.closed) return false;
    const generationId = this.#generationId;
    let code: number;
    try {
      const response = await this.#coordinator.send(Heartbeat, {
        groupId: this.groupId,
        generationId,
        memberId: this.#memberId,
        groupInstanceId: this.groupInstanceId,
      });
      code = response.errorCode;
    } catch (error) {
      code = asWeirError(error)?.code ?? ErrorCode.UNKNOWN_SERVER_ERROR;
    }
    if (this.#state !== 'running' || this.#generationId !== generationId) return false;
    if (code === ErrorCode.NONE) return true;
    if (isCoordinatorError(code)) {
      // Find the coordinator again on the next beat; the session outlives a few missed ones.
      this.#coordinator.drop();
      return true;
    }
    if (code === ErrorCode.FENCED_INSTANCE_ID) {
      // Another live member has our instance id: rejoining would fence it in turn, back and forth.
      this.#fail(errorForCode(code, `Group "${this.groupId}", instance "${this.groupInstanceId}".`));
      return false;
    }
    if (code === ErrorCode.UNKNOWN_MEMBER_ID) this.#memberId = '';
    if (code !== ErrorCode.REBALANCE_IN_PROGRESS) this.#lost = true;
    // REBALANCE_IN_PROGRESS, ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID: rejoin.
    this.#requestRebalance();
    return false;
  }

  /** Auto commit: the processed positions that moved since the last commit. */
  async #commitProcessed(): Promise<void> {
    const generationId = this.#commitGeneration;
    if (generationId === undefined) return;
    await this.#commitAs(generationId, this.#positions.movedSinceCommit(generationId));
  }

  async #commitAs(generationId: number, offsets: readonly OffsetToCommit[]): Promise<void> {
    if (offsets.length === 0) return;
    await this.#coordinator.withRetries(async (send) => {
      // Checked again before every send: a rebalance may have started while waiting to retry.
      if (this.#commitGeneration !== generationId) {
        throw new WeirError(ErrorCode.REBALANCE_IN_PROGRESS, {
          detail: `not committing for generation ${generationId}: it is over.`,
        });
      }
      await commitOffsets(send, {
        groupId: this.groupId,
        generationId,
        memberId: this.#memberId,
        groupInstanceId: this.groupInstanceId,
        offsets: offsets.map(({ topic, partition, offset, metadata }) => ({
          topic,
          partition,
          offset,
          metadata: metadata ?? null,
        })),
      });
    });
    this.#positions.markCommitted(offsets);
  }

  // ---- plumbing ----

  async #fetch(options: PollOptions): Promise<ConsumerRecord[]> {
    if (this.#state === 'new') throw new Error('subscribe before polling');
    const maxWaitMs = options.maxWaitMs ?? 5000;
    const deadlineMs = Date.now() + maxWaitMs;
    for (;;) {
      if (this.#fatal !== undefined) throw this.#fatal;
      const error = this.#errors.shift();
      if (error !== undefined) throw error;
      if (this.#state === 'closing' || this.#state === 'closed') return [];
      const remainingMs = Math.max(0, deadlineMs - Date.now());
      let records: ConsumerRecord[];
      try {
        records = await this.#consumer.poll({ maxWaitMs: remainingMs });
      } catch (failure) {
        if (failure instanceof ClosedError && (this.#state as GroupConsumerState) !== 'running') return [];
        throw failure;
      }
      // The partition consumer drops what it buffered for partitions no longer assigned, so what it
      // returns belongs to the current assignment. Records that arrive after a rebalance started
      // are dropped: the next owner reads them again from the committed offset.
      if (this.#state === 'running') {
        const fresh = records.filter((record) => this.#positions.isNew(record));
        if (fresh.length > 0) return fresh;
      }
      if (Date.now() >= deadlineMs) return [];
    }
  }

  /** A fatal group error: reported by every poll until the consumer is closed. */
  #fail(error: WeirError): void {
    this.#fatal = error;
    // Wakes a poll waiting on the (empty) partition consumer so it reports the error now.
    this.#consumer.assign([]);
    this.#wake.wakeAll();
  }

  #stopTimers(): void {
    this.#heartbeats.stop();
    clearInterval(this.#autoCommitTimer);
    this.#autoCommitTimer = undefined;
  }

  #assertAssigned(entry: TopicPartition): void {
    if (!this.#assignment.some((item) => item.topic === entry.topic && item.partition === entry.partition))
      throw new RangeError(`${entry.topic}-${entry.partition} is not assigned`);
  }
}
