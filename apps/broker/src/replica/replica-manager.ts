import { ErrorCode, WeirError } from '@weir/protocol';
import type { CleanerPartitionState } from '../log/compaction/log-cleaner';
import type { EpochEndOffset } from '../log/leader-epoch-cache';
import {
  LogManager,
  type LogManagerOptions,
  type LogManagerStartReport,
  type OfflinePartition,
  type WriteDegradedPartition,
} from '../log/log-manager';
import type { AppendResult } from '../log/partition-log-types';
import type { AbortedTransaction } from '../log/transaction-index';
import type { ClusterView } from '../metadata/cluster-view';
import type { PartitionAssignment, PlacementChange } from '../metadata/metadata-store';
import type { TransactionMembershipCheck } from '../txn/transaction-contracts';
import {
  type FetchPartitionResult,
  type FetchRequest,
  type IsolationLevel,
  readFetchPartitions,
  recordCountOf,
  releaseFetchResults,
} from './fetch-reads';
import { MetadataApplier, type ReplicaLogger } from './metadata-applier';
import { Partition } from './partition';
import {
  type LocalReplicaState,
  type PartitionOffsets,
  partitionKey,
  replicaFetchKey,
} from './partition-types';
import { type ProduceRequest, type ProduceResult, produceToPartition, type TrafficObserver } from './produce';
import { Purgatory } from './purgatory';
import { type LeaderClient, ReplicaFetchers } from './replica-fetchers';
import { ReplicationThrottle } from './replication-throttle';

/** Told when this broker starts or stops leading a partition (the coordinators follow theirs). */
export interface LeadershipListener {
  onBecomeLeader(topic: string, partition: number, leaderEpoch: number): void;
  onResign(topic: string, partition: number): void;
}

export interface ReplicaManagerDeps {
  localBrokerId: number;
  view: ClusterView;
  /** The partition logs' settings; the replica manager creates and owns the log manager. */
  logs: LogManagerOptions;
  /** Asked before a transactional client batch is appended (the transaction coordinator). */
  transactions: TransactionMembershipCheck;
  traffic: TrafficObserver;
  logger: ReplicaLogger;
  clock: { nowMs(): number };
  /** fetch.max.bytes: a Fetch answer's record bytes never exceed it, whatever the client asks. */
  fetchMaxBytes: number;
  /** How much of a Fetch answer is read into memory; the rest streams from disk as it is written. */
  fetchInMemoryBytes: number;
  /**
   * Replication (docs/architecture.md §6.5): how ISR changes are stored, and how followers reach
   * their leaders. Without `leaders` (a standalone broker) nothing here follows another broker.
   */
  replication: {
    /** replica.lag.time.max.ms */
    replicaLagTimeMaxMs: number;
    alterIsr(next: PartitionAssignment): Promise<void>;
    leaders?: LeaderClient;
    /** A partition's log failed while this broker leads or follows it (cluster mode hands it over). */
    onLogOffline?(topic: string, partition: number): void;
    /**
     * The follower throttle: follower.replication.throttled.rate in force now (bytes/s, undefined
     * when unthrottled), over the partitions it applies to (a reassignment's adding replicas here).
     */
    followerThrottle?: {
      rateBytesPerSecond(): number | undefined;
      isThrottled(topic: string, partition: number): boolean;
    };
  };
}

/** replica.fetch.wait.max.ms, replica.fetch.max.bytes and replica.fetch.response.max.bytes: Kafka's defaults. */
const REPLICA_FETCH = { waitMaxMs: 500, partitionMaxBytes: 1024 * 1024, responseMaxBytes: 10 * 1024 * 1024 };

/** A partition's producers as DescribeProducers reports them. */
export type PartitionProducers = ReturnType<Partition['producers']>;

/**
 * The replica layer (docs/architecture.md §4, §6): the one owner of the partition logs. It holds a
 * {@link Partition} for every partition whose assignment names this broker, takes on the role each
 * assignment gives it as the cluster view changes, and is the only way to the data: produce,
 * fetch (long-polls wait in its purgatory), list offsets, delete records, the coordinators'
 * writes and replays of their internal topics, transaction markers, and the operator views'
 * reads. Standalone is one policy of it: every assignment names this broker as leader and sole
 * in-sync replica.
 */
export class ReplicaManager {
  readonly #logs: LogManager;
  readonly #partitions = new Map<string, Partition>();
  readonly #waits = { produce: new Purgatory(), fetch: new Purgatory() };
  readonly #applier: MetadataApplier;
  readonly #fetchers: ReplicaFetchers | undefined;
  #isrCheck: ReturnType<typeof setInterval> | undefined;
  #unfollow: (() => void) | undefined;
  /** True while this broker's cluster session is lost: it serves no partition until registered again. */
  #sessionFenced = false;

  constructor(private readonly deps: ReplicaManagerDeps) {
    this.#logs = new LogManager({
      ...deps.logs,
      // A clean stays below the high watermark: a follower may still truncate what lies above it.
      cleanableUpperBound: (log) =>
        this.#partitions.get(partitionKey(log.topic, log.partition))?.highWatermark ?? log.logStartOffset,
    });
    const { replication } = deps;
    const partitionReplication = {
      nowMs: () => deps.clock.nowMs(),
      replicaLagTimeMaxMs: replication.replicaLagTimeMaxMs,
      alterIsr: (next: PartitionAssignment) => replication.alterIsr(next),
      onAlterIsrFailed: (topic: string, partition: number, error: unknown) =>
        deps.logger.warn({ topic, partition, err: error }, 'storing an ISR change failed'),
      storageIdOf: (brokerId: number) => deps.view.broker(brokerId)?.storageId,
      isLive: (brokerId: number) => deps.view.isLive(brokerId),
      onLogOffline: (topic: string, partition: number) => replication.onLogOffline?.(topic, partition),
    };
    this.#fetchers =
      replication.leaders === undefined
        ? undefined
        : new ReplicaFetchers({
            localBrokerId: deps.localBrokerId,
            client: replication.leaders,
            logger: deps.logger,
            fetchWaitMaxMs: REPLICA_FETCH.waitMaxMs,
            partitionMaxBytes: REPLICA_FETCH.partitionMaxBytes,
            responseMaxBytes: REPLICA_FETCH.responseMaxBytes,
            delay: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
            ...(replication.followerThrottle === undefined
              ? {}
              : {
                  throttle: {
                    quota: new ReplicationThrottle(replication.followerThrottle.rateBytesPerSecond, () =>
                      performance.now(),
                    ),
                    isThrottled: replication.followerThrottle.isThrottled,
                  },
                }),
          });
    this.#applier = new MetadataApplier({
      localBrokerId: deps.localBrokerId,
      view: deps.view,
      logs: this.#logs,
      partitions: this.#partitions,
      createPartition: (topic, partition, log) =>
        new Partition(topic, partition, deps.localBrokerId, log, this.#waits, partitionReplication),
      onApplied: (local) => this.#fetchers?.update(local),
      onRemoved: (local) => this.#fetchers?.remove(local),
      localStorageId: () => deps.view.broker(deps.localBrokerId)?.storageId,
      logger: deps.logger,
    });
  }

  /**
   * Recovers the logs, then takes on every assignment of the cluster view: logs of partitions
   * assigned here are opened or created, logs of partitions no longer assigned here (a topic
   * deleted during a crash) are deleted, and each partition takes its role. From then on it
   * follows the view.
   */
  async start(): Promise<LogManagerStartReport> {
    const report = await this.#logs.start();
    this.#unfollow = this.deps.view.onChange((changes: readonly PlacementChange[], revision) =>
      this.#applier.noteChanges(changes, revision),
    );
    await this.#applier.applyEverything();
    // Kafka checks for lagging followers at half the lag time, so none stays in the ISR much longer.
    this.#isrCheck = setInterval(
      () => {
        for (const local of this.#partitions.values()) local.checkIsr();
      },
      Math.max(10, this.deps.replication.replicaLagTimeMaxMs / 2),
    );
    this.#isrCheck.unref();
    return report;
  }

  /** Answers every waiting produce and fetch, then closes the logs cleanly. */
  async stop(): Promise<void> {
    this.#unfollow?.();
    if (this.#isrCheck !== undefined) clearInterval(this.#isrCheck);
    await this.#applier.settle();
    await this.#fetchers?.stop();
    this.#waits.produce.expireAll();
    this.#waits.fetch.expireAll();
    await this.#logs.shutdown();
  }

  /**
   * Stops every fetch from a leader for good, for a broker's controlled shutdown
   * (docs/architecture.md §6.3): a follower that goes on fetching would be added back to an ISR it
   * just left. The partitions keep their roles; `stop` closes them later.
   */
  async stopFollowing(): Promise<void> {
    await this.#fetchers?.stop();
  }

  /** Resolves once every placement change up to `revision` (default: the view's now) is applied. */
  whenApplied(revision = this.deps.view.revision): Promise<void> {
    return this.#applier.whenApplied(revision);
  }

  /** Follows leadership changes; returns the unsubscribe function. */
  onLeadershipChange(listener: LeadershipListener): () => void {
    return this.#applier.onLeadershipChange(listener);
  }

  /**
   * Produce: appends one partition's batch as its leader. The append is queued before this
   * returns, so a later request's append to the partition cannot pass it.
   */
  appendRecords(request: ProduceRequest): Promise<ProduceResult> {
    return produceToPartition(request, {
      partition: (topic, partition) => this.#partition(topic, partition),
      isInternal: (topic) => this.deps.view.topic(topic)?.internal === true,
      transactions: this.deps.transactions,
      traffic: this.deps.traffic,
    });
  }

  /**
   * Fetch: reads every requested partition (records beyond the answer's in-memory allowance stay on
   * disk as segment regions, released by whoever writes or drops the answer); when fewer than
   * `minBytes` came back, waits in the
   * purgatory until one of them changes (an append moves its high watermark: push delivery),
   * `maxWaitMs` passes, or `signal` aborts (the connection closed), then reads again.
   */
  async fetch(asked: FetchRequest, signal: AbortSignal): Promise<FetchPartitionResult[]> {
    // Kafka caps both the answer and what it waits for at the broker's fetch.max.bytes.
    const maxBytes = Math.min(asked.maxBytes, this.deps.fetchMaxBytes);
    const request = { ...asked, maxBytes, minBytes: Math.min(asked.minBytes, maxBytes) };
    const deadlineMs = this.deps.clock.nowMs() + Math.max(0, request.maxWaitMs);
    const lookup = (topic: string, partition: number) => this.#partition(topic, partition);
    for (;;) {
      // Read before reading: a read waits on disk, and a change that lands meanwhile must still
      // wake this fetch (otherwise it sleeps until maxWaitMs with the data already there).
      const seen = this.#changeCounts(request);
      const follower = request.followerId !== undefined;
      const results = await readFetchPartitions(request, lookup, this.deps.fetchInMemoryBytes);
      const totalBytes = results.reduce((total, result) => total + result.records.length, 0);
      const anyError = results.some((result) => result.errorCode !== ErrorCode.NONE);
      const remainingMs = deadlineMs - this.deps.clock.nowMs();
      if (
        request.maxWaitMs <= 0 ||
        totalBytes >= request.minBytes ||
        anyError ||
        remainingMs <= 0 ||
        signal.aborted
      ) {
        // Replication is not client traffic: the byte counters and quotas are the clients'.
        for (const result of results) {
          if (result.records.length > 0 && !follower)
            this.deps.traffic.bytesOut(result.topic, result.records.length, recordCountOf(result.records));
        }
        return results;
      }
      releaseFetchResults(results);
      await this.#parkFetch(seen, remainingMs, signal, follower);
    }
  }

  /**
   * ListOffsets: -2 is the log start, -1 the high watermark (the last stable offset for
   * read_committed), anything else the first record at or after that time, below the same bound.
   * No such record gives offset -1 and timestamp -1.
   */
  async listOffset(request: {
    topic: string;
    partition: number;
    timestampMs: number;
    isolationLevel?: IsolationLevel;
    currentLeaderEpoch?: number;
  }): Promise<{ offset: number; timestampMs: number; leaderEpoch: number }> {
    const partition = this.#partition(request.topic, request.partition);
    const offsets = partition.offsets(request.currentLeaderEpoch);
    const isolation = request.isolationLevel ?? 'read_uncommitted';
    const end = isolation === 'read_committed' ? offsets.lastStableOffset : offsets.highWatermark;
    const at = (offset: number, timestampMs: number, latest = false) => ({
      offset,
      timestampMs,
      leaderEpoch: partition.leaderEpochOf(offset, latest),
    });
    if (request.timestampMs === -2) return at(offsets.logStartOffset, -1);
    if (request.timestampMs === -1) {
      partition.checkLatestOffsetAvailable();
      return at(end, -1, true);
    }
    if (request.timestampMs < 0) {
      throw new WeirError(ErrorCode.INVALID_REQUEST, {
        detail: `unsupported timestamp ${request.timestampMs}`,
      });
    }
    const found = await partition.offsetForTimestamp(request.timestampMs, isolation);
    return found ? at(found.offset, found.timestampMs) : { offset: -1, timestampMs: -1, leaderEpoch: -1 };
  }

  /**
   * OffsetForLeaderEpoch: where `leaderEpoch` ends in a partition's log here (see
   * `Partition.endOffsetForLeaderEpoch`), after the `currentLeaderEpoch` check.
   */
  endOffsetForLeaderEpoch(request: {
    topic: string;
    partition: number;
    leaderEpoch: number;
    currentLeaderEpoch: number;
    leaderOnly: boolean;
  }): EpochEndOffset {
    return this.#partition(request.topic, request.partition).endOffsetForLeaderEpoch(
      request.leaderEpoch,
      request.currentLeaderEpoch,
      request.leaderOnly,
    );
  }

  /** DeleteRecords: moves the log start offset; -1 means "up to the high watermark". */
  async deleteRecords(request: { topic: string; partition: number; offset: number }): Promise<number> {
    return this.#partition(request.topic, request.partition).deleteRecordsBefore(request.offset);
  }

  /**
   * An operator's read (record scans): whole batches from `fetchOffset` as the leader reads them,
   * read_uncommitted, below `maxOffset` and the high watermark, with the aborted transactions that
   * overlap them (from the segments' transaction indexes), so the scan can mark each record.
   */
  async readRecords(
    topic: string,
    partition: number,
    fetchOffset: number,
    options: { maxBytes: number; maxOffset: number },
  ): Promise<{ records: Buffer; abortedTransactions: readonly AbortedTransaction[] }> {
    const { read } = await this.#partition(topic, partition).read(fetchOffset, {
      maxBytes: options.maxBytes,
      isolation: 'read_uncommitted',
      withAbortedTransactions: true,
      maxOffset: options.maxOffset,
    });
    return { records: read.records, abortedTransactions: read.abortedTransactions ?? [] };
  }

  /** DescribeProducers: the producers the leader keeps state for. */
  producers(topic: string, partition: number): PartitionProducers {
    return this.#partition(topic, partition).producers();
  }

  /** The leader's offsets of a partition (lag, offset resets); throws why they are not known here. */
  offsets(topic: string, partition: number): PartitionOffsets {
    return this.#partition(topic, partition).offsets();
  }

  /** The first offset at or after `timestampMs` a read_uncommitted reader sees (offset resets). */
  offsetForTimestamp(topic: string, partition: number, timestampMs: number) {
    return this.#partition(topic, partition).offsetForTimestamp(timestampMs, 'read_uncommitted');
  }

  /**
   * A coordinator's write to its internal topic: only while this broker leads the partition at
   * `leaderEpoch` (the epoch the coordinator loaded at), so a coordinator that lost its partition
   * cannot write. `durable` waits for fdatasync and the high watermark, as acks=-1 does.
   */
  appendAsCoordinator(
    topic: string,
    partition: number,
    batch: Buffer,
    options: { leaderEpoch: number; durable: boolean },
  ): Promise<AppendResult> {
    try {
      return this.#partition(topic, partition).append(batch, {
        origin: 'coordinator',
        acks: options.durable ? -1 : 1,
        timeoutMs: undefined,
        expectedLeaderEpoch: options.leaderEpoch,
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** A coordinator's replay read of its internal topic, up to the high watermark, at `leaderEpoch`. */
  readAsCoordinator(
    topic: string,
    partition: number,
    fetchOffset: number,
    options: { leaderEpoch: number; maxBytes: number; maxOffset: number },
  ) {
    return this.#partition(topic, partition).read(fetchOffset, {
      maxBytes: options.maxBytes,
      isolation: 'read_uncommitted',
      expectedLeaderEpoch: options.leaderEpoch,
      maxOffset: options.maxOffset,
    });
  }

  /**
   * Where a coordinator's replay starts and ends: the log start and the high watermark, once the
   * high watermark has reached the log end this leadership began with.
   */
  async coordinatorRange(
    topic: string,
    partition: number,
    leaderEpoch: number,
  ): Promise<{ start: number; end: number }> {
    const local = this.#partition(topic, partition);
    if (local.role !== 'leader' || local.leaderEpoch !== leaderEpoch) {
      throw new WeirError(ErrorCode.NOT_LEADER_OR_FOLLOWER, {
        detail: `${topic}-${partition} is not led here at epoch ${leaderEpoch}`,
      });
    }
    // A new leader's high watermark may trail records the previous one acknowledged (docs/architecture.md §6.5).
    await local.whenCaughtUpAsLeader(leaderEpoch);
    const offsets = local.offsets();
    return { start: offsets.logStartOffset, end: offsets.highWatermark };
  }

  /**
   * A COMMIT or ABORT marker written by the transaction coordinator, durably (the coordinator
   * records the transaction complete only once every marker is on disk). The coordinator epoch
   * inside the marker is checked against the partition's producer state by the log.
   */
  appendTransactionMarker(topic: string, partition: number, batch: Buffer): Promise<AppendResult> {
    try {
      return this.#partition(topic, partition).append(batch, {
        origin: 'coordinator',
        acks: -1,
        timeoutMs: undefined,
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** This broker's replica of a partition, whatever its role; undefined when it has none or it is offline. */
  localReplica(topic: string, partition: number): LocalReplicaState | undefined {
    return this.#partitions.get(partitionKey(topic, partition))?.localReplica();
  }

  /** Whether this broker holds the partition but cannot serve it (its log is offline). */
  isOffline(topic: string, partition: number): boolean {
    const local = this.#partitions.get(partitionKey(topic, partition));
    return local !== undefined ? local.isOffline : this.#logs.isOffline(topic, partition);
  }

  /** Every local replica with its state, for the metrics and the overview. */
  localReplicas(): { topic: string; partition: number; state: LocalReplicaState }[] {
    const replicas = [];
    for (const local of this.#partitions.values()) {
      const state = local.localReplica();
      if (state !== undefined) replicas.push({ topic: local.topic, partition: local.partition, state });
    }
    return replicas;
  }

  /**
   * The log cleaner's state of this broker's compacted replicas (leaders and followers clean their
   * own logs), for the metrics, the console and `weir topic describe`.
   */
  cleanerStates(): CleanerPartitionState[] {
    return this.#logs.cleaner.states();
  }

  /** Partitions whose logs could not be opened or hit a disk error; /ready reports them. */
  offlinePartitions(): OfflinePartition[] {
    return this.#logs.offlinePartitions();
  }

  /**
   * Partitions that ran out of disk space: they serve reads and answer writes KAFKA_STORAGE_ERROR
   * until the log manager's probe finds space again; /ready and the metrics report them.
   */
  writeDegradedPartitions(): WriteDegradedPartition[] {
    return this.#logs.writeDegradedPartitions();
  }

  /** Checks for disk space now, for the partitions waiting for it; resolves whether there is. */
  probeDiskSpace(): Promise<boolean> {
    return this.#logs.probeDiskSpace();
  }

  /**
   * Stops (true) or resumes (false) serving every partition here, for the time between a lost
   * cluster session and the next registration (docs/architecture.md §6.4): every request that
   * names a partition answers NOT_LEADER_OR_FOLLOWER meanwhile.
   */
  setSessionFenced(fenced: boolean): void {
    this.#sessionFenced = fenced;
  }

  /** Whether this broker lost its cluster session and has not registered again yet. */
  get sessionFenced(): boolean {
    return this.#sessionFenced;
  }

  /** The node id of this broker. */
  get localBrokerId(): number {
    return this.deps.localBrokerId;
  }

  /** How many fetches are parked on a partition now; for observability and tests that wait for a park. */
  parkedFetchCount(topic: string, partition: number): number {
    return this.#waits.fetch.watcherCount(partitionKey(topic, partition));
  }

  /** The partition a request names, or the error that says why it cannot be served here. */
  #partition(topic: string, partition: number): Partition {
    if (this.#sessionFenced) {
      throw new WeirError(ErrorCode.NOT_LEADER_OR_FOLLOWER, {
        detail: `broker ${this.deps.localBrokerId} lost its cluster session and is registering again`,
      });
    }
    const local = this.#partitions.get(partitionKey(topic, partition));
    if (local !== undefined) return local;
    if (!this.deps.view.hasPartition(topic, partition)) {
      throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, {
        detail: `${topic}-${partition} does not exist`,
      });
    }
    if (this.#logs.isOffline(topic, partition)) {
      throw new WeirError(ErrorCode.KAFKA_STORAGE_ERROR, { detail: `${topic}-${partition} is offline` });
    }
    throw new WeirError(ErrorCode.NOT_LEADER_OR_FOLLOWER, {
      detail: `${topic}-${partition} has no replica on broker ${this.deps.localBrokerId}`,
    });
  }

  /** What each partition's change counter reads now: for a follower, the log end's. */
  #changeCounts(request: FetchRequest): Map<string, { partition: Partition; changeCount: number }> {
    const seen = new Map<string, { partition: Partition; changeCount: number }>();
    const follower = request.followerId !== undefined;
    for (const { topic, partition } of request.partitions) {
      const local = this.#partitions.get(partitionKey(topic, partition));
      if (local !== undefined) {
        const changeCount = follower ? local.logEndChangeCount : local.changeCount;
        seen.set(local.key, { partition: local, changeCount });
      }
    }
    return seen;
  }

  /** Parks a fetch until one of its partitions changes after `seen`, `timeoutMs` passes, or `signal` aborts. */
  #parkFetch(
    seen: Map<string, { partition: Partition; changeCount: number }>,
    timeoutMs: number,
    signal: AbortSignal,
    follower: boolean,
  ): Promise<void> {
    return new Promise<void>((resolve) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        watched.cancel();
        finish();
      };
      const changed = () => {
        for (const [key, { partition, changeCount }] of seen) {
          const now = follower ? partition.logEndChangeCount : partition.changeCount;
          if (this.#partitions.get(key) !== partition || now !== changeCount) return true;
        }
        return false;
      };
      // A follower waits for the log end to move, not the high watermark (which its fetch moves).
      const keys = follower ? [...seen.keys()].map(replicaFetchKey) : [...seen.keys()];
      const watched = this.#waits.fetch.watch(
        keys,
        {
          tryComplete: () => {
            if (!changed()) return false;
            finish();
            return true;
          },
          onExpiration: finish,
        },
        timeoutMs,
      );
      if (done) return;
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
