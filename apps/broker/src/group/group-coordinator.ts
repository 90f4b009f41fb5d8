import { ErrorCode, WeirError } from '@weir/protocol';
import { CoordinatorShards, type ShardLoadState } from '../coordination/coordinator-shards';
import { partitionForKey } from '../coordination/partition-for-key';
import type { ConsumerGroupState } from './consumer/consumer-group-state';
import {
  type DescribedConsumerGroup,
  describeConsumerGroup,
  describeMissingConsumerGroup,
} from './consumer/consumer-group-views';
import type {
  ConsumerHeartbeatOutcome,
  ConsumerHeartbeatRequest,
} from './consumer/consumer-heartbeat-request';
import { refusal } from './consumer/consumer-heartbeat-request';
import { ConsumerGroupHeartbeats } from './consumer/consumer-heartbeats';
import type {
  CoordinatorContext,
  CoordinatorLogger,
  GroupCoordinatorConfig,
  GroupDirectory,
  PartitionCatalog,
} from './coordinator-context';
import { groupWriteError } from './coordinator-context';
import type { Group } from './group';
import { CONSUMER_PROTOCOL_TYPE } from './group';
import {
  GroupMembership,
  type HeartbeatRequest,
  type JoinRequest,
  type LeaveOutcome,
  type LeavingMember,
  type SyncRequest,
} from './group-membership';
import {
  type CommitRequest,
  everyPartition,
  type FetchedOffsets,
  GroupOffsets,
  type TopicPartitionErrors,
  type TransactionalOffset,
} from './group-offsets';
import type { GroupLoader } from './group-persistence';
import type { GroupScheduler } from './group-scheduler';
import { type GroupShard, groupShardLifecycle } from './group-shard';
import type { GroupState } from './group-state';
import {
  type DescribedGroup,
  describeGroup,
  describeUnknown,
  type GroupSnapshot,
  snapshotOf,
} from './group-views';
import { type JoinOutcome, joinError, type SyncOutcome, syncError } from './member';
import { OffsetRetention } from './offset-retention';
import type { CoordinatorRecord } from './offsets-records';
import { type GroupLogSource, type GroupStore, OFFSETS_TOPIC } from './offsets-topic';

export interface GroupCoordinatorDeps {
  config: GroupCoordinatorConfig;
  store: GroupStore;
  scheduler: GroupScheduler;
  logger: CoordinatorLogger;
  catalog: PartitionCatalog;
  /** Where a shard is replayed from when this broker gains its partition. */
  source: GroupLogSource;
}

/**
 * The group coordinator (docs/architecture.md §5; docs/kafka-compat.md §7 "Group coordinator"). It
 * holds one {@link GroupShard} per `__consumer_offsets` partition this broker leads
 * ({@link onBecomeLeader}, {@link onResign}) and gates every request on the shard of the group's
 * partition: COORDINATOR_LOAD_IN_PROGRESS while it replays, COORDINATOR_NOT_AVAILABLE when it
 * could not be read, NOT_COORDINATOR when this broker does not lead it. Classic membership is
 * delegated to {@link GroupMembership}, consumer-protocol (KIP-848) membership to
 * {@link ConsumerGroupHeartbeats}, committed offsets to {@link GroupOffsets}.
 */
export class GroupCoordinator {
  readonly #shards: CoordinatorShards<GroupShard, GroupLoader>;
  readonly #membership: GroupMembership;
  readonly #consumerHeartbeats: ConsumerGroupHeartbeats;
  readonly #offsets: GroupOffsets;
  readonly #retention: OffsetRetention;
  readonly #deps: GroupCoordinatorDeps;
  #stopped = false;
  #rebalancesTotal = 0;

  constructor(deps: GroupCoordinatorDeps) {
    this.#deps = deps;
    const groups: GroupDirectory = {
      get: (groupId) => this.#groupOf(groupId),
      set: (groupId, group) => {
        this.#activeShardOf(groupId).groups.set(groupId, group);
      },
      delete: (groupId) => {
        this.#activeShardOf(groupId).groups.delete(groupId);
      },
    };
    const context: CoordinatorContext = {
      config: deps.config,
      scheduler: deps.scheduler,
      logger: deps.logger,
      catalog: deps.catalog,
      groups,
      write: (groupId, records, options) => this.#write(groupId, records, options),
      onRebalanceCompleted: () => {
        this.#rebalancesTotal += 1;
      },
    };
    this.#membership = new GroupMembership(context);
    this.#consumerHeartbeats = new ConsumerGroupHeartbeats(context, deps.config, (groupId) =>
      this.#membership.rebalancer.createGroup(groupId),
    );
    this.#membership.consumerTombstones = (consumer) => this.#consumerHeartbeats.tombstones(consumer);
    this.#offsets = new GroupOffsets(context, this.#membership.rebalancer);
    this.#retention = new OffsetRetention({
      context,
      offsets: this.#offsets,
      activeShards: () => this.#shards.active(),
      consumerTombstones: (consumer) => this.#consumerHeartbeats.tombstones(consumer),
    });
    this.#shards = new CoordinatorShards(
      OFFSETS_TOPIC,
      groupShardLifecycle({
        source: () => deps.source,
        store: () => deps.store,
        scheduler: deps.scheduler,
        rebalancer: this.#membership.rebalancer,
        armConsumerGroup: (group) => this.#consumerHeartbeats.armLoadedGroup(group),
        onReplayed: (shard, report) =>
          deps.logger.info(
            { partition: shard.partition, leaderEpoch: shard.leaderEpoch, ...report },
            '__consumer_offsets partition replayed',
          ),
        onUpgraded: (shard, upgrade) =>
          deps.logger.info(
            { partition: shard.partition, leaderEpoch: shard.leaderEpoch, ...upgrade },
            "__consumer_offsets partition's records rewritten in Kafka's layout",
          ),
      }),
      deps.logger,
    );
  }

  /** The `__consumer_offsets` partition of a group. */
  partitionOf(groupId: string): number {
    return partitionForKey(groupId, this.#deps.store.partitionCount);
  }

  /**
   * This broker now leads `partition` at `leaderEpoch`: its groups are replayed (requests for them
   * answer COORDINATOR_LOAD_IN_PROGRESS meanwhile) and served once the replay is done. Resolves
   * when the load has finished, loaded or failed. A newer epoch than the shard's reloads the
   * partition, the same epoch changes nothing, an older one is ignored.
   */
  onBecomeLeader(partition: number, leaderEpoch: number): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    this.#retention.start();
    return this.#shards.becomeLeader(partition, leaderEpoch);
  }

  /** This broker no longer leads `partition`: its groups are forgotten and answer NOT_COORDINATOR. */
  onResign(partition: number): void {
    this.#shards.resign(partition);
  }

  /** Resolves once no shard this coordinator leads is loading. */
  whenLoaded(): Promise<void> {
    return this.#shards.whenLoaded();
  }

  /** Which of the partitions this broker leads are still loading or failed to load. */
  loadState(): ShardLoadState {
    return this.#shards.loadState();
  }

  /** Stops timers and drops every shard: parked requests get NOT_COORDINATOR, so clients look elsewhere. */
  shutdown(): void {
    this.#stopped = true;
    this.#retention.stop();
    this.#shards.resignAll();
  }

  /** The group's shard, when it is served here. */
  #activeShardOf(groupId: string): GroupShard {
    const shard = this.#servedShardOf(groupId);
    if (!shard) throw new Error(`group "${groupId}" was reached without an active shard`);
    return shard;
  }

  #servedShardOf(groupId: string): GroupShard | undefined {
    if (this.#deps.store.partitionCount === 0) return undefined;
    const shard = this.#shards.get(this.partitionOf(groupId));
    return shard?.state === 'active' ? shard : undefined;
  }

  #groupOf(groupId: string): Group | undefined {
    return this.#servedShardOf(groupId)?.groups.get(groupId);
  }

  /** A group's records go to its shard's partition with the shard's epoch, while the shard is active. */
  #write(
    groupId: string,
    records: readonly CoordinatorRecord[],
    options: { durable: boolean },
  ): Promise<void> {
    const shard = this.#servedShardOf(groupId);
    if (!shard) {
      return Promise.reject(
        new WeirError(ErrorCode.NOT_COORDINATOR, { detail: `group "${groupId}" is not coordinated here` }),
      );
    }
    return this.#deps.store.write(shard.partition, shard.leaderEpoch, records, options);
  }

  /** Whether requests for this group can be served now; the error to answer otherwise. */
  #gate(groupId: string, options: { emptyIdAllowed: boolean }): number {
    if (!options.emptyIdAllowed && groupId === '') return ErrorCode.INVALID_GROUP_ID;
    if (this.#stopped || this.#deps.store.partitionCount === 0) return ErrorCode.NOT_COORDINATOR;
    return this.#shards.gate(this.partitionOf(groupId));
  }

  join(request: JoinRequest): Promise<JoinOutcome> {
    const gate = this.#gate(request.groupId, { emptyIdAllowed: false });
    if (gate !== ErrorCode.NONE) return Promise.resolve(joinError(gate, request.memberId));
    const { minSessionTimeoutMs, maxSessionTimeoutMs } = this.#deps.config;
    if (request.sessionTimeoutMs < minSessionTimeoutMs || request.sessionTimeoutMs > maxSessionTimeoutMs) {
      return Promise.resolve(joinError(ErrorCode.INVALID_SESSION_TIMEOUT, request.memberId));
    }
    // JoinGroup v0 has no rebalance timeout; Kafka uses the session timeout for it.
    const rebalanceTimeoutMs =
      request.rebalanceTimeoutMs > 0 ? request.rebalanceTimeoutMs : request.sessionTimeoutMs;
    return this.#membership.join({ ...request, rebalanceTimeoutMs });
  }

  sync(request: SyncRequest): Promise<SyncOutcome> {
    const gate = this.#gate(request.groupId, { emptyIdAllowed: false });
    if (gate !== ErrorCode.NONE) return Promise.resolve(syncError(gate));
    return this.#membership.sync(request);
  }

  heartbeat(request: HeartbeatRequest): number {
    const gate = this.#gate(request.groupId, { emptyIdAllowed: false });
    return gate !== ErrorCode.NONE ? gate : this.#membership.heartbeat(request);
  }

  leave(groupId: string, members: readonly LeavingMember[]): LeaveOutcome {
    const gate = this.#gate(groupId, { emptyIdAllowed: false });
    if (gate !== ErrorCode.NONE) return { errorCode: gate, members: [] };
    return this.#membership.leave(groupId, members);
  }

  /** ConsumerGroupHeartbeat: a consumer-protocol member joins, heartbeats or leaves. */
  consumerGroupHeartbeat(request: ConsumerHeartbeatRequest): Promise<ConsumerHeartbeatOutcome> {
    // An empty group id is the heartbeat's own INVALID_REQUEST (Kafka's check), not INVALID_GROUP_ID.
    const gate = this.#gate(request.groupId, { emptyIdAllowed: true });
    if (gate !== ErrorCode.NONE) return Promise.resolve(refusal(gate, null));
    return this.#consumerHeartbeats.heartbeat(request);
  }

  /** ConsumerGroupDescribe: a consumer-protocol group, or GROUP_ID_NOT_FOUND for any other. */
  consumerGroupDescribe(groupId: string): DescribedConsumerGroup {
    const gate = this.#gate(groupId, { emptyIdAllowed: false });
    if (gate !== ErrorCode.NONE) return describeMissingConsumerGroup(groupId, gate);
    const consumer = this.#groupOf(groupId)?.consumer;
    if (!consumer || consumer.state === 'Dead')
      return describeMissingConsumerGroup(groupId, ErrorCode.GROUP_ID_NOT_FOUND);
    return describeConsumerGroup(consumer, this.#deps.catalog);
  }

  async commit(request: CommitRequest): Promise<TopicPartitionErrors> {
    const gate = this.#gate(request.groupId, { emptyIdAllowed: true });
    if (gate !== ErrorCode.NONE) return everyPartition(request.topics, gate);
    return this.#offsets.commit(request);
  }

  /**
   * The transaction coordinator's half of a commit: a committed transaction's offsets become the
   * group's (durably) before EndTxn answers. Returns an error code; retriable ones are retried.
   * While the group's shard is loading it waits for the load instead of answering
   * COORDINATOR_LOAD_IN_PROGRESS, so transactions completed right after a restart do not wait for
   * a retry timer.
   */
  async applyTransactionalOffsets(
    groupId: string,
    committer: { producerId: bigint; producerEpoch: number },
    offsets: readonly TransactionalOffset[],
  ): Promise<number> {
    if (groupId !== '' && !this.#stopped && this.#deps.store.partitionCount > 0) {
      await this.#shards.whenPartitionLoaded(this.partitionOf(groupId));
    }
    const gate = this.#gate(groupId, { emptyIdAllowed: false });
    if (gate !== ErrorCode.NONE) return gate;
    return this.#offsets.commitTransactional(groupId, committer, offsets);
  }

  fetchOffsets(
    groupId: string,
    topics: { name: string; partitionIndexes: number[] }[] | null,
  ): FetchedOffsets {
    const gate = this.#gate(groupId, { emptyIdAllowed: true });
    if (gate === ErrorCode.NONE) return this.#offsets.fetch(groupId, topics);
    return {
      errorCode: gate,
      topics: (topics ?? []).map((topic) => ({
        name: topic.name,
        partitions: topic.partitionIndexes.map((partitionIndex) => ({
          partitionIndex,
          committedOffset: -1,
          committedLeaderEpoch: -1,
          metadata: '',
          errorCode: gate,
        })),
      })),
    };
  }

  async deleteOffsets(
    groupId: string,
    topics: { name: string; partitions: number[] }[],
  ): Promise<{ errorCode: number; topics: TopicPartitionErrors }> {
    const gate = this.#gate(groupId, { emptyIdAllowed: false });
    if (gate !== ErrorCode.NONE) return { errorCode: gate, topics: [] };
    return this.#offsets.delete(groupId, topics);
  }

  /** ListGroups: every live group of the loaded partitions; the error says if some are missing. */
  listGroups(): {
    errorCode: number;
    groups: { groupId: string; protocolType: string; state: GroupState | ConsumerGroupState }[];
  } {
    if (this.#stopped) return { errorCode: ErrorCode.NOT_COORDINATOR, groups: [] };
    const groups = this.#liveGroups().map((group) => ({
      groupId: group.groupId,
      // Kafka lists a consumer-protocol group with the consumer protocol type.
      protocolType: group.consumer ? CONSUMER_PROTOCOL_TYPE : (group.protocolType ?? ''),
      state: group.shownState,
    }));
    const errorCode = this.loadState().loaded ? ErrorCode.NONE : ErrorCode.COORDINATOR_LOAD_IN_PROGRESS;
    return { errorCode, groups };
  }

  /**
   * DescribeGroups. As in Kafka, an unknown group is reported as Dead without an error, and member
   * metadata, assignments and the protocol are filled in only once the group is Stable. A
   * consumer-protocol group is not a classic group, which Kafka 3.9 reports as Dead too
   * (ConsumerGroupDescribe describes it).
   */
  describeGroup(groupId: string): DescribedGroup {
    const gate = this.#gate(groupId, { emptyIdAllowed: true });
    if (gate !== ErrorCode.NONE) return { ...describeUnknown(groupId, ''), errorCode: gate };
    const group = this.#groupOf(groupId);
    return group && !group.consumer ? describeGroup(group) : describeUnknown(groupId, 'Dead');
  }

  /**
   * DeleteGroups: only an Empty group goes (NON_EMPTY_GROUP otherwise); its offsets and metadata
   * are written as tombstones before the answer.
   */
  async deleteGroup(groupId: string): Promise<number> {
    const gate = this.#gate(groupId, { emptyIdAllowed: true });
    if (gate !== ErrorCode.NONE) return gate;
    const shard = this.#activeShardOf(groupId);
    const group = shard.groups.get(groupId);
    if (!group || group.is('Dead')) return ErrorCode.GROUP_ID_NOT_FOUND;
    if (!group.is('Empty') || (group.consumer && !group.consumer.isEmpty)) return ErrorCode.NON_EMPTY_GROUP;
    const consumer = group.consumer;
    group.transitionTo('Dead', this.#deps.scheduler.nowMs());
    this.#membership.rebalancer.shutDownGroup(group, ErrorCode.COORDINATOR_NOT_AVAILABLE);
    consumer?.markDead();
    shard.groups.delete(groupId);
    const records: CoordinatorRecord[] = [...group.allOffsets()].map(({ topic, partition }) => ({
      kind: 'offset',
      groupId,
      topic,
      partition,
      value: null,
    }));
    records.push(
      ...(consumer
        ? this.#consumerHeartbeats.tombstones(consumer)
        : [{ kind: 'group' as const, groupId, value: null }]),
    );
    try {
      await this.#write(groupId, records, { durable: true });
      return ErrorCode.NONE;
    } catch (error) {
      this.#deps.logger.warn({ groupId, err: error }, 'writing the tombstones of a deleted group failed');
      return groupWriteError(error);
    }
  }

  /** A plain-data copy of one group, for operator commands; undefined for an unknown group. */
  snapshot(groupId: string): GroupSnapshot | undefined {
    const group = this.#groupOf(groupId);
    return group && snapshotOf(group, this.#snapshotContext());
  }

  snapshots(): GroupSnapshot[] {
    const context = this.#snapshotContext();
    return this.#liveGroups().map((group) => snapshotOf(group, context));
  }

  #snapshotContext() {
    return {
      catalog: this.#deps.catalog,
      consumerSessionTimeoutMs: this.#deps.config.consumerSessionTimeoutMs,
    };
  }

  /** Every group of the active shards that is not Dead. */
  #liveGroups(): Group[] {
    const groups: Group[] = [];
    for (const shard of this.#shards.active()) {
      for (const group of shard.groups.values()) if (!group.is('Dead')) groups.push(group);
    }
    return groups;
  }

  /**
   * The committed offsets of every live group, by topic then partition, without copying: broker-wide
   * views (lag per topic for thousands of topics and groups) read them on every request. The maps
   * are the coordinator's own; callers only read them, synchronously.
   */
  *committedOffsets(): Generator<{
    groupId: string;
    offsets: ReadonlyMap<string, ReadonlyMap<number, { readonly offset: number }>>;
  }> {
    for (const shard of this.#shards.active()) {
      for (const group of shard.groups.values()) {
        if (!group.is('Dead') && group.offsets.size > 0)
          yield { groupId: group.groupId, offsets: group.offsets };
      }
    }
  }

  /** The gate for operator commands: NONE, or why the group cannot be looked at now. */
  availability(groupId: string): number {
    return this.#gate(groupId, { emptyIdAllowed: true });
  }

  get rebalancesTotal(): number {
    return this.#rebalancesTotal;
  }

  /**
   * One retention round: expired offsets become tombstones, and Empty groups left without offsets
   * are removed (their metadata too). Runs every `offsetsRetentionCheckIntervalMs` on its own.
   */
  expireOffsets(): Promise<{ offsetsExpired: number; groupsRemoved: number }> {
    return this.#retention.runOnce();
  }
}
