import { ErrorCode } from '../../errors/error-codes';
import { WeirError } from '../../errors/weir-error';
import type { Client } from '../client';
import { ClosedError } from '../closed-error';
import { Consumer, type PollOptions, type StartOffset } from '../consumer';
import type { ConsumerRecord } from '../message';
import { findGroupCoordinator } from './coordinator';
import { CoordinatorLink } from './coordinator-link';
import { GroupCommits } from './group-commits';
import type {
  CoordinatorConnector,
  GenerationOffset,
  GroupConsumerOptions,
  TopicPartition,
} from './group-consumer-options';
import { groupConsumerSettings } from './group-consumer-settings';
import type { GroupConsumerState } from './group-consumer-state';
import { GroupConsumerStatus } from './group-consumer-status';
import { groupTopics } from './group-consumer-support';
import { GroupMembership } from './group-membership';
import { type CommittedOffset, fetchCommittedOffsets, type OffsetToCommit } from './group-offsets';
import { PartitionPositions } from './partition-positions';

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
  readonly #coordinator: CoordinatorLink;
  readonly #consumer: Consumer;
  readonly #positions = new PartitionPositions();
  readonly #status = new GroupConsumerStatus();
  readonly #commits: GroupCommits;
  /** Joins, syncs, heartbeats and leaves; holds the member id, generation and assignment. */
  readonly #membership: GroupMembership;
  #closing: Promise<void> | undefined;

  constructor(client: Client, options: GroupConsumerOptions) {
    const settings = groupConsumerSettings(options);
    this.groupId = settings.groupId;
    this.groupInstanceId = settings.groupInstanceId;
    // The client's own settings, so the coordinator link authenticates like every other connection.
    const connect: CoordinatorConnector =
      options.connectCoordinator ?? ((address) => client.openConnection(address));
    this.#coordinator = new CoordinatorLink(
      client,
      () => findGroupCoordinator(client, this.groupId),
      connect,
      () => this.#status.state === 'closed',
    );
    this.#consumer = new Consumer(client, {
      maxWaitMs: options.maxWaitMs ?? 5000,
      autoOffsetReset: settings.autoOffsetReset,
      isolationLevel: options.isolationLevel,
    });
    this.#commits = new GroupCommits(this.#coordinator, this.#positions, {
      groupId: this.groupId,
      groupInstanceId: this.groupInstanceId,
      memberId: () => this.#membership.memberId,
    });
    this.#membership = new GroupMembership({
      client,
      settings,
      status: this.#status,
      coordinator: this.#coordinator,
      consumer: this.#consumer,
      positions: this.#positions,
      commits: this.#commits,
    });
  }

  /** See {@link GroupConsumerState}. */
  get state(): GroupConsumerState {
    return this.#status.state;
  }

  /** The member id the coordinator gave ('' before the first JoinGroup answer). */
  get memberId(): string {
    return this.#membership.memberId;
  }

  /** The generation of the current assignment (-1 before the first). */
  get generationId(): number {
    return this.#membership.generationId;
  }

  /** The partitions assigned in the current generation (empty while rebalancing). */
  assignment(): TopicPartition[] {
    return [...this.#membership.assignment];
  }

  /** Subscribes to `topics` and starts joining the group; `poll` returns records once assigned. */
  subscribe(topics: readonly string[]): void {
    if (topics.length === 0 || topics.some((topic) => typeof topic !== 'string' || topic.length === 0))
      throw new RangeError('subscribe needs at least one topic name');
    if (this.#status.state !== 'new')
      throw new Error(`subscribe is allowed once, before the first poll (state ${this.#status.state})`);
    this.#membership.subscribe([...new Set(topics)].sort());
  }

  /** Resolves once the consumer is in `state` (or rejects when it closes first, unless that is the state). */
  async waitForState(state: GroupConsumerState, timeoutMs = 30_000): Promise<void> {
    const deadlineMs = Date.now() + timeoutMs;
    while (this.#status.state !== state) {
      if (this.#status.fatal !== undefined) throw this.#status.fatal;
      if (this.#status.state === 'closed' || Date.now() >= deadlineMs)
        throw new Error(`group consumer did not reach ${state} (it is ${this.#status.state})`);
      await this.#status.wake.sleep(deadlineMs - Date.now());
    }
  }

  /**
   * The records fetched so far for the assigned partitions, or waits up to `maxWaitMs` for some.
   * Rejects with the error of a partition that cannot go on (it names the partition) or a group
   * error that ended membership (INCONSISTENT_GROUP_PROTOCOL, …).
   */
  async poll(options: PollOptions = {}): Promise<ConsumerRecord[]> {
    const records = await this.#fetch(options);
    this.#positions.markAllProcessed(records, this.#membership.generationId);
    return records;
  }

  /** Records one by one until the consumer closes. Each record counts as processed once yielded. */
  async *[Symbol.asyncIterator](): AsyncGenerator<ConsumerRecord, void, undefined> {
    while (this.#status.state !== 'closing' && this.#status.state !== 'closed') {
      const records = await this.#fetch({});
      // #fetch returns only records of the current generation; a later one makes the rest stale.
      const generationId = this.#membership.generationId;
      for (const record of records) {
        // A rebalance that started while the batch was being handed out makes the rest stale.
        if (this.#status.state !== 'running' || this.#membership.generationId !== generationId) break;
        if (this.#positions.isPaused(record.topic, record.partition)) continue;
        this.#positions.markProcessed(record, this.#membership.generationId);
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
    const state = this.#status.state;
    if (state === 'new' || state === 'closed')
      throw new WeirError(ErrorCode.REBALANCE_IN_PROGRESS, { detail: `the consumer is ${state}.` });
    const list = offsets ?? this.#positions.processed();
    await this.#commits.commitAs(this.#commits.generationFor(list), list);
  }

  /** The positions `commit()` would store, stamped with their generation. */
  processedOffsets(): GenerationOffset[] {
    return this.#positions.processed();
  }

  /** The group's committed offsets for the current assignment. */
  async committed(): Promise<CommittedOffset[]> {
    const partitions = groupTopics(this.#membership.assignment);
    return this.#coordinator.withRetries((send) => fetchCommittedOffsets(send, this.groupId, partitions));
  }

  /** Stops fetching these assigned partitions until `resume`; the position is kept. */
  pause(partitions: readonly TopicPartition[]): void {
    for (const entry of partitions) {
      this.#assertAssigned(entry);
      this.#positions.pause(entry);
    }
    this.#membership.reassign();
  }

  resume(partitions: readonly TopicPartition[]): void {
    for (const entry of partitions) this.#positions.resume(entry);
    this.#membership.reassign();
  }

  paused(): TopicPartition[] {
    return this.#positions.paused();
  }

  /** Moves an assigned partition's position; a numeric offset is also what `commit()` stores next. */
  seek(topic: string, partition: number, offset: StartOffset): void {
    this.#assertAssigned({ topic, partition });
    this.#positions.seek({ topic, partition }, offset, this.#membership.generationId);
    const held = this.#consumer
      .assignment()
      .some((item) => item.topic === topic && item.partition === partition);
    if (held) this.#consumer.seek(topic, partition, offset);
    else this.#membership.reassign();
  }

  /**
   * Leaves the group: stops heartbeats, commits processed positions (auto commit), calls
   * `onRevoked`, sends LeaveGroup so the others rebalance at once, and closes the coordinator
   * connection. Idempotent; wins over a rebalance in progress (which is abandoned).
   */
  close(): Promise<void> {
    if (this.#closing !== undefined) return this.#closing;
    const wasRunning = this.#status.state === 'running';
    if (this.#status.state !== 'closing' && this.#status.state !== 'closed') this.#status.setState('closing');
    this.#closing = this.#membership.shutDown(wasRunning);
    return this.#closing;
  }

  async #fetch(options: PollOptions): Promise<ConsumerRecord[]> {
    if (this.#status.state === 'new') throw new Error('subscribe before polling');
    const maxWaitMs = options.maxWaitMs ?? 5000;
    const deadlineMs = Date.now() + maxWaitMs;
    for (;;) {
      if (this.#status.fatal !== undefined) throw this.#status.fatal;
      const error = this.#status.errors.shift();
      if (error !== undefined) throw error;
      if (this.#status.state === 'closing' || this.#status.state === 'closed') return [];
      const remainingMs = Math.max(0, deadlineMs - Date.now());
      let records: ConsumerRecord[];
      try {
        records = await this.#consumer.poll({ maxWaitMs: remainingMs });
      } catch (failure) {
        if (failure instanceof ClosedError && (this.#status.state as GroupConsumerState) !== 'running')
          return [];
        throw failure;
      }
      // The partition consumer drops what it buffered for partitions no longer assigned, so what it
      // returns belongs to the current assignment. Records that arrive after a rebalance started
      // are dropped: the next owner reads them again from the committed offset.
      if (this.#status.state === 'running') {
        const fresh = this.#positions.newRecords(records);
        if (fresh.length > 0) return fresh;
      }
      if (Date.now() >= deadlineMs) return [];
    }
  }

  #assertAssigned(entry: TopicPartition): void {
    if (
      !this.#membership.assignment.some(
        (item) => item.topic === entry.topic && item.partition === entry.partition,
      )
    )
      throw new RangeError(`${entry.topic}-${entry.partition} is not assigned`);
  }
}
