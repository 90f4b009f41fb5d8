import { ErrorCode } from '@weir/protocol';
import type {
  CoordinatorContext,
  CoordinatorLogger,
  GroupCoordinatorConfig,
  PartitionCatalog,
} from './coordinator-context';
import type { Group } from './group';
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
import { GroupLoader } from './group-persistence';
import type { GroupScheduler } from './group-scheduler';
import type { GroupState } from './group-state';
import {
  type DescribedGroup,
  describeGroup,
  describeUnknown,
  type GroupSnapshot,
  snapshotOf,
} from './group-views';
import { offsetsPartitionFor } from './java-string-hash';
import { type JoinOutcome, joinError, type SyncOutcome, syncError } from './member';
import type { CoordinatorRecord } from './offsets-records';
import type { GroupStore, ReplayReport } from './offsets-topic';

/** What the coordinator loads its state from at start. */
export interface GroupLogSource {
  readonly partitionCount: number;
  replay(partition: number, onRecord: (record: CoordinatorRecord) => void): Promise<ReplayReport>;
}

export interface GroupCoordinatorDeps {
  config: GroupCoordinatorConfig;
  store: GroupStore;
  scheduler: GroupScheduler;
  logger: CoordinatorLogger;
  catalog: PartitionCatalog;
}

export interface CoordinatorLoadState {
  /** True once every partition has been replayed (successfully or not). */
  loaded: boolean;
  loadingPartitions: number;
  failedPartitions: number[];
}

type PartitionStatus = 'loading' | 'loaded' | 'failed';

/**
 * The group coordinator (docs/architecture.md §5; docs/kafka-compat.md §7 "Group coordinator"). Owns the groups,
 * gates every request on the load state of the group's `__consumer_offsets` partition
 * (COORDINATOR_LOAD_IN_PROGRESS until it is replayed), and delegates membership to
 * {@link GroupMembership} and committed offsets to {@link GroupOffsets}.
 */
export class GroupCoordinator {
  readonly #groups = new Map<string, Group>();
  readonly #membership: GroupMembership;
  readonly #offsets: GroupOffsets;
  readonly #deps: GroupCoordinatorDeps;
  #status: 'starting' | 'loading' | 'active' | 'stopped' = 'starting';
  #partitions: PartitionStatus[] = [];
  #partitionCount = 0;
  #rebalancesTotal = 0;
  #cancelExpiry: (() => void) | undefined;

  constructor(deps: GroupCoordinatorDeps) {
    this.#deps = deps;
    const context: CoordinatorContext = {
      config: deps.config,
      scheduler: deps.scheduler,
      store: deps.store,
      logger: deps.logger,
      catalog: deps.catalog,
      groups: this.#groups,
      partitionOf: (groupId) => this.partitionOf(groupId),
      onRebalanceCompleted: () => {
        this.#rebalancesTotal += 1;
      },
    };
    this.#membership = new GroupMembership(context);
    this.#offsets = new GroupOffsets(context, this.#membership.rebalancer);
  }

  partitionOf(groupId: string): number {
    return offsetsPartitionFor(groupId, this.#partitionCount);
  }

  /**
   * Replays every partition of the offsets topic into groups, one partition after the other;
   * each partition's groups are served as soon as it is done. A partition that cannot be read
   * stays failed (its groups get COORDINATOR_NOT_AVAILABLE) without failing the others.
   */
  async load(
    source: GroupLogSource,
  ): Promise<{ groups: number; records: number; failedPartitions: number[] }> {
    if (this.#status !== 'starting')
      throw new Error(`the group coordinator cannot load while ${this.#status}`);
    this.#status = 'loading';
    this.#partitionCount = source.partitionCount;
    this.#partitions = Array.from({ length: source.partitionCount }, () => 'loading');
    let records = 0;
    for (let partition = 0; partition < source.partitionCount; partition++) {
      const loader = new GroupLoader();
      try {
        records += (await source.replay(partition, (record) => loader.apply(record))).records;
      } catch (error) {
        this.#partitions[partition] = 'failed';
        this.#deps.logger.warn({ partition, err: error }, 'loading a __consumer_offsets partition failed');
        continue;
      }
      if (this.#isStopped()) break;
      for (const group of loader.build(this.#deps.scheduler.nowMs())) this.#install(group);
      this.#partitions[partition] = 'loaded';
    }
    if (this.#isStopped()) return { groups: 0, records, failedPartitions: [] };
    this.#status = 'active';
    this.#scheduleExpiry();
    const failedPartitions = this.loadState().failedPartitions;
    return { groups: this.#groups.size, records, failedPartitions };
  }

  /** A separate read, because the status may change while the load awaits (shutdown). */
  #isStopped(): boolean {
    return this.#status === 'stopped';
  }

  /** Loaded members get a fresh session: they have that long to show up again. */
  #install(group: Group): void {
    this.#groups.set(group.groupId, group);
    for (const member of group.members.values()) this.#membership.rebalancer.armSession(group, member);
  }

  loadState(): CoordinatorLoadState {
    const failedPartitions: number[] = [];
    let loadingPartitions = 0;
    this.#partitions.forEach((status, partition) => {
      if (status === 'failed') failedPartitions.push(partition);
      if (status === 'loading') loadingPartitions += 1;
    });
    const loaded = this.#status === 'active' || (this.#status === 'loading' && loadingPartitions === 0);
    return { loaded, loadingPartitions, failedPartitions };
  }

  /** Stops timers and answers parked requests with NOT_COORDINATOR, so clients look elsewhere. */
  shutdown(): void {
    this.#status = 'stopped';
    this.#cancelExpiry?.();
    this.#cancelExpiry = undefined;
    for (const group of this.#groups.values()) {
      this.#membership.rebalancer.shutDownGroup(group, ErrorCode.NOT_COORDINATOR);
    }
  }

  /** Whether requests for this group can be served now; the error to answer otherwise. */
  #gate(groupId: string, options: { emptyIdAllowed: boolean }): number {
    if (!options.emptyIdAllowed && groupId === '') return ErrorCode.INVALID_GROUP_ID;
    if (this.#status === 'stopped') return ErrorCode.NOT_COORDINATOR;
    if (this.#status === 'starting') return ErrorCode.COORDINATOR_LOAD_IN_PROGRESS;
    const status = this.#partitions[this.partitionOf(groupId)];
    if (status === 'loading') return ErrorCode.COORDINATOR_LOAD_IN_PROGRESS;
    if (status === 'failed') return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    return ErrorCode.NONE;
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

  async commit(request: CommitRequest): Promise<TopicPartitionErrors> {
    const gate = this.#gate(request.groupId, { emptyIdAllowed: true });
    if (gate !== ErrorCode.NONE) return everyPartition(request.topics, gate);
    return this.#offsets.commit(request);
  }

  /**
   * The transaction coordinator's half of a commit: a committed transaction's offsets become the
   * group's (durably) before EndTxn answers. Returns an error code; retriable ones are retried.
   */
  async applyTransactionalOffsets(
    groupId: string,
    committer: { producerId: bigint; producerEpoch: number },
    offsets: readonly TransactionalOffset[],
  ): Promise<number> {
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
    groups: { groupId: string; protocolType: string; state: GroupState }[];
  } {
    if (this.#status === 'stopped') return { errorCode: ErrorCode.NOT_COORDINATOR, groups: [] };
    const groups = [...this.#groups.values()]
      .filter((group) => !group.is('Dead'))
      .map((group) => ({
        groupId: group.groupId,
        protocolType: group.protocolType ?? '',
        state: group.state,
      }));
    const errorCode = this.loadState().loaded ? ErrorCode.NONE : ErrorCode.COORDINATOR_LOAD_IN_PROGRESS;
    return { errorCode, groups };
  }

  /**
   * DescribeGroups. As in Kafka, an unknown group is reported as Dead without an error, and member
   * metadata, assignments and the protocol are filled in only once the group is Stable.
   */
  describeGroup(groupId: string): DescribedGroup {
    const gate = this.#gate(groupId, { emptyIdAllowed: true });
    if (gate !== ErrorCode.NONE) return { ...describeUnknown(groupId, ''), errorCode: gate };
    const group = this.#groups.get(groupId);
    return group ? describeGroup(group) : describeUnknown(groupId, 'Dead');
  }

  /**
   * DeleteGroups: only an Empty group goes (NON_EMPTY_GROUP otherwise); its offsets and metadata
   * are written as tombstones before the answer.
   */
  async deleteGroup(groupId: string): Promise<number> {
    const gate = this.#gate(groupId, { emptyIdAllowed: true });
    if (gate !== ErrorCode.NONE) return gate;
    const group = this.#groups.get(groupId);
    if (!group || group.is('Dead')) return ErrorCode.GROUP_ID_NOT_FOUND;
    if (!group.is('Empty')) return ErrorCode.NON_EMPTY_GROUP;
    group.transitionTo('Dead', this.#deps.scheduler.nowMs());
    this.#membership.rebalancer.shutDownGroup(group, ErrorCode.COORDINATOR_NOT_AVAILABLE);
    this.#groups.delete(groupId);
    const records: CoordinatorRecord[] = [...group.allOffsets()].map(({ topic, partition }) => ({
      kind: 'offset',
      groupId,
      topic,
      partition,
      value: null,
    }));
    records.push({ kind: 'group', groupId, value: null });
    try {
      await this.#deps.store.write(this.partitionOf(groupId), records, { durable: true });
      return ErrorCode.NONE;
    } catch (error) {
      this.#deps.logger.warn({ groupId, err: error }, 'writing the tombstones of a deleted group failed');
      return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    }
  }

  /** A plain-data copy of one group, for operator commands; undefined for an unknown group. */
  snapshot(groupId: string): GroupSnapshot | undefined {
    const group = this.#groups.get(groupId);
    return group && snapshotOf(group);
  }

  snapshots(): GroupSnapshot[] {
    return [...this.#groups.values()].filter((group) => !group.is('Dead')).map(snapshotOf);
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
    for (const group of this.#groups.values()) {
      if (!group.is('Dead') && group.offsets.size > 0)
        yield { groupId: group.groupId, offsets: group.offsets };
    }
  }

  /** The gate for operator commands: NONE, or why the group cannot be looked at now. */
  availability(groupId: string): number {
    return this.#gate(groupId, { emptyIdAllowed: true });
  }

  get rebalancesTotal(): number {
    return this.#rebalancesTotal;
  }

  #scheduleExpiry(): void {
    this.#cancelExpiry = this.#deps.scheduler.schedule(
      this.#deps.config.offsetsRetentionCheckIntervalMs,
      () => {
        this.#cancelExpiry = undefined;
        this.expireOffsets().then(
          () => {
            if (this.#status === 'active') this.#scheduleExpiry();
          },
          (error: unknown) => {
            this.#deps.logger.warn({ err: error }, 'expiring committed offsets failed');
            if (this.#status === 'active') this.#scheduleExpiry();
          },
        );
      },
    );
  }

  /**
   * One retention round: expired offsets become tombstones, and Empty groups left without offsets
   * are removed (their metadata too). Runs every `offsetsRetentionCheckIntervalMs`.
   */
  async expireOffsets(): Promise<{ offsetsExpired: number; groupsRemoved: number }> {
    let offsetsExpired = 0;
    let groupsRemoved = 0;
    for (const group of [...this.#groups.values()]) {
      if (this.#status !== 'active') break;
      if (group.is('Dead')) continue;
      offsetsExpired += await this.#offsets.expire(group);
      if (group.is('Empty') && !group.hasOffsets && group.pendingMembers.size === 0) {
        group.transitionTo('Dead', this.#deps.scheduler.nowMs());
        this.#groups.delete(group.groupId);
        groupsRemoved += 1;
        this.#deps.store
          .write(this.partitionOf(group.groupId), [{ kind: 'group', groupId: group.groupId, value: null }], {
            durable: false,
          })
          .catch((error: unknown) => {
            this.#deps.logger.warn(
              { groupId: group.groupId, err: error },
              'writing a group tombstone failed',
            );
          });
      }
    }
    if (offsetsExpired > 0 || groupsRemoved > 0) {
      this.#deps.logger.info({ offsetsExpired, groupsRemoved }, 'committed offsets expired');
    }
    return { offsetsExpired, groupsRemoved };
  }
}
