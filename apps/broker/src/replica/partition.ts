import { ErrorCode, isTransactionalBatch, type RecordBatchHeader, WeirError } from '@weir/protocol';
import type { EpochEndOffset } from '../log/leader-epoch-cache';
import type { PartitionLog } from '../log/partition-log';
import type { AppendResult, LogChange, ReadResult } from '../log/partition-log-types';
import type { StoredRecords } from '../log/segment-region';
import type { TimestampOffset } from '../log/timestamp-lookup';
import type { VerificationGuard } from '../log/transaction-verification';
import type { PartitionAssignment } from '../metadata/metadata-store';
import { LeaderIsr, type PartitionReplication } from './leader-isr';
import { PartitionFollower } from './partition-follower';
import { judgeRoleChange, leaderEpochError, NO_LEADER_EPOCH, type PartitionRole } from './partition-role';
import {
  type LocalReplicaState,
  type PartitionAppend,
  type PartitionOffsets,
  type PartitionReadOptions,
  type PartitionWaits,
  partitionKey,
  type RoleTransition,
  replicaFetchKey,
} from './partition-types';

/**
 * One topic-partition on this broker: its role (leader, follower, none) with the leader epoch, the
 * replicas and the in-sync replicas from its assignment, and the high watermark, which moves only
 * here: to the smallest log end offset among the in-sync replicas, never back (docs/architecture.md
 * §6). On a standalone broker the ISR is this broker alone, so the high watermark follows the log
 * end as each write completes. Everything that reads or writes the log goes through the checks
 * here: a partition this broker does not lead answers NOT_LEADER_OR_FOLLOWER, a request naming
 * another leader epoch FENCED_LEADER_EPOCH or UNKNOWN_LEADER_EPOCH, an offline log
 * KAFKA_STORAGE_ERROR, and no reader sees past the high watermark.
 */
export class Partition {
  readonly key: string;
  #role: PartitionRole = 'none';
  #leaderEpoch = NO_LEADER_EPOCH;
  #leaderId = -1;
  #replicas: readonly number[] = [];
  #isr: readonly number[] = [];
  #elr: readonly number[] = [];
  /** The assignment this partition applied last; undefined before the first. */
  #assignment: PartitionAssignment | undefined;
  #highWatermark = 0;
  readonly #leaderIsr: LeaderIsr;
  readonly #follower: PartitionFollower;
  /** Follower cuts of the log under way (truncations, restarts); no leader work meanwhile. */
  #cuts = 0;
  /** Bumped by every change a parked fetch may care about, so it can tell one happened. */
  #changeCount = 0;
  /** Bumped by every change of the log end, for the followers' parked fetches. */
  #logEndChangeCount = 0;
  /** The purgatory key followers' fetches park under, made once: every append looks it up. */
  readonly #replicaFetchKey: string;
  /** The turn the next append waits for while an earlier one is still being admitted. */
  #admissionTail: Promise<void> | undefined;
  #admissionsPending = 0;
  readonly #unsubscribe: (() => void) | undefined;

  constructor(
    readonly topic: string,
    readonly partition: number,
    private readonly localBrokerId: number,
    /** Undefined when the log could not be opened; every data call answers KAFKA_STORAGE_ERROR. */
    private readonly log: PartitionLog | undefined,
    private readonly waits: PartitionWaits,
    private readonly replication: PartitionReplication,
  ) {
    this.key = partitionKey(topic, partition);
    this.#leaderIsr = new LeaderIsr(localBrokerId, replication);
    this.#follower = new PartitionFollower({
      followerLog: (leaderEpoch) => this.#followerLog(leaderEpoch),
      highWatermark: () => this.#highWatermark,
      setHighWatermark: (offset) => {
        this.#highWatermark = offset;
        this.#changed();
      },
      cutting: (cut) => this.#cutting(cut),
    });
    this.#replicaFetchKey = replicaFetchKey(this.key);
    this.#unsubscribe = log?.subscribe((change) => this.#onLogChange(change));
  }

  get role(): PartitionRole {
    return this.#role;
  }

  get leaderEpoch(): number {
    return this.#leaderEpoch;
  }

  get highWatermark(): number {
    return this.#highWatermark;
  }

  /** Changes so far that a parked fetch may care about; compare two readings to see one. */
  get changeCount(): number {
    return this.#changeCount;
  }

  /** Changes of the log end so far, for a follower's parked fetch. */
  get logEndChangeCount(): number {
    return this.#logEndChangeCount;
  }

  /** The leader this broker follows, while it is a follower of a partition with a leader. */
  get followedLeader(): { leaderId: number; leaderEpoch: number } | undefined {
    if (this.#role !== 'follower' || this.#leaderId < 0 || this.isOffline) return undefined;
    return { leaderId: this.#leaderId, leaderEpoch: this.#leaderEpoch };
  }

  get #minInsyncReplicas(): number {
    return this.log?.config.minInsyncReplicas ?? 1;
  }

  get isOffline(): boolean {
    return this.log === undefined || this.log.isOffline;
  }

  /**
   * Takes on the role an assignment gives this broker. A change the transition table refuses (an
   * older leader epoch) leaves everything as it was. Waiters are re-checked, so those that
   * belonged to a leadership that ended are answered now.
   */
  applyAssignment(assignment: PartitionAssignment): RoleTransition {
    const role: PartitionRole =
      assignment.leader === this.localBrokerId
        ? 'leader'
        : assignment.replicas.includes(this.localBrokerId)
          ? 'follower'
          : 'none';
    const outcome = judgeRoleChange(this.#role, this.#leaderEpoch, role, assignment.leaderEpoch);
    if (outcome.kind === 'refused') return { kind: 'refused', reason: outcome.reason };
    const wasLeader = this.#role === 'leader';
    const newLeadership = role === 'leader' && outcome.kind === 'changed';
    this.#role = role;
    this.#leaderEpoch = assignment.leaderEpoch;
    this.#leaderId = assignment.leader;
    this.#replicas = assignment.replicas;
    this.#isr = assignment.isr;
    this.#elr = assignment.elr ?? [];
    this.#assignment = assignment;
    const log = this.log;
    if (newLeadership && log !== undefined) {
      // A follower's high watermark may trail the log; it never passes it, nor the log start.
      this.#highWatermark = Math.max(Math.min(this.#highWatermark, log.logEndOffset), log.logStartOffset);
    }
    const leadership = newLeadership ? 'new' : role === 'leader' ? 'same' : 'none';
    this.#leaderIsr.applied(assignment, leadership, log?.logEndOffset ?? 0);
    if (role === 'leader') this.#maybeAdvanceHighWatermark();
    this.#changed();
    this.waits.produce.checkAndComplete(this.key);
    return { kind: outcome.kind, becameLeader: newLeadership, resigned: wasLeader && role !== 'leader' };
  }

  /** Gives up every role (the partition leaves this broker); waiters are answered now. */
  stop(): RoleTransition {
    const wasLeader = this.#role === 'leader';
    this.#role = 'none';
    this.#leaderId = -1;
    this.#changed();
    this.waits.produce.checkAndComplete(this.key);
    this.#unsubscribe?.();
    return { kind: 'changed', becameLeader: false, resigned: wasLeader };
  }

  /**
   * Appends one batch as the leader. The append is queued before this returns (a later append to
   * this partition cannot overtake it), unless an earlier client append is still being admitted, in
   * which case a client append waits its turn behind that one. A transactional client batch is
   * admitted first (`admit`), asynchronously, as a coordinator on another broker will have to answer
   * it; only the first batch of a producer epoch's transaction here is asked about under one leadership.
   */
  append(batch: Buffer, request: PartitionAppend): Promise<AppendResult> {
    let log: PartitionLog;
    let header: RecordBatchHeader;
    try {
      log = this.#leaderLog(request.expectedLeaderEpoch);
      header = log.validate(batch, request.origin);
      // acks=-1 writes nothing while too few replicas are in sync to acknowledge it (Kafka's rule).
      if (request.acks === -1) this.#checkEnoughReplicas(ErrorCode.NOT_ENOUGH_REPLICAS);
    } catch (error) {
      return Promise.reject(error);
    }
    const epoch = this.#leaderEpoch;
    const transactional = request.origin === 'client' && isTransactionalBatch(header.attributes);
    const admission = { producerEpoch: header.producerEpoch, leaderEpoch: epoch };
    // A batch of a transaction this partition already knows to be admitted is not asked about
    // again (transaction-verification.ts); the guard it carries still refuses it after a marker.
    const verifiedGuard =
      transactional && this.#admissionsPending === 0
        ? log.verifiedTransactionGuard(header.producerId, admission)
        : undefined;
    const admit = transactional && verifiedGuard === undefined ? request.admit : undefined;
    // Client appends keep their order while one is being admitted; a coordinator's write (a
    // marker) does not wait for a producer's admission: the verification guard orders the two.
    const inTurn = request.origin === 'client' && (admit !== undefined || this.#admissionsPending > 0);
    const written = inTurn
      ? this.#appendInTurn(batch, header, request, admit)
      : log.appendValidated(batch, header, {
          origin: request.origin,
          leaderEpoch: epoch,
          ...(verifiedGuard === undefined ? {} : { verificationGuard: verifiedGuard }),
        });
    if (request.acks !== -1) return written;
    return written.then((result) => this.#awaitDurable(result, epoch, request.timeoutMs));
  }

  /** Waits for the turn of the appends admitted before it, admits the batch, then queues it. */
  #appendInTurn(
    batch: Buffer,
    header: RecordBatchHeader,
    request: PartitionAppend,
    admit: ((header: RecordBatchHeader) => Promise<void>) | undefined,
  ): Promise<AppendResult> {
    const previous = this.#admissionTail;
    let release!: () => void;
    const turn = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#admissionTail = turn;
    this.#admissionsPending += 1;
    return (async () => {
      try {
        await previous;
        const log = this.#leaderLog(request.expectedLeaderEpoch);
        const verificationGuard = admit === undefined ? undefined : await this.#admitted(log, header, admit);
        // Leadership may have moved while the batch waited; check again before it is queued.
        return this.#leaderLog(request.expectedLeaderEpoch).appendValidated(batch, header, {
          origin: request.origin,
          // The epoch when it is queued: appends queue in order, and epochs only rise.
          leaderEpoch: this.#leaderEpoch,
          ...(verificationGuard === undefined ? {} : { verificationGuard }),
        });
      } finally {
        this.#admissionsPending -= 1;
        if (this.#admissionTail === turn) this.#admissionTail = undefined;
        release();
      }
    })();
  }

  /**
   * Has the coordinator admit a transactional batch, unless a batch admitted before it in its turn
   * already told this partition what it needs to know; returns the guard the batch carries.
   */
  async #admitted(
    log: PartitionLog,
    header: RecordBatchHeader,
    admit: (header: RecordBatchHeader) => Promise<void>,
  ): Promise<VerificationGuard> {
    const admission = { producerEpoch: header.producerEpoch, leaderEpoch: this.#leaderEpoch };
    const verified = log.verifiedTransactionGuard(header.producerId, admission);
    if (verified !== undefined) return verified;
    // Taken before the coordinator is asked: a marker written from now on voids the answer.
    const guard = log.beginTransactionVerification(header.producerId);
    await admit(header);
    log.transactionAdmitted(header.producerId, guard, admission);
    return guard;
  }

  #checkEnoughReplicas(code: number): void {
    if (this.#isr.length < this.#minInsyncReplicas) throw this.#notEnoughReplicas(code);
  }

  #notEnoughReplicas(code: number): WeirError {
    return new WeirError(code, {
      detail: `${this.topic}-${this.partition} has ${this.#isr.length} in-sync replicas [${this.#isr.join(', ')}], fewer than min.insync.replicas ${this.#minInsyncReplicas}`,
    });
  }

  /**
   * The acks=-1 wait (Kafka's delayed produce): answered once the records are fdatasync'd and
   * below the high watermark, with NOT_LEADER_OR_FOLLOWER if the leadership they were written
   * under ends first, KAFKA_STORAGE_ERROR if the log fails, NOT_ENOUGH_REPLICAS_AFTER_APPEND once
   * the ISR is below min.insync.replicas, and REQUEST_TIMED_OUT after `timeoutMs` (the records
   * stay written: an idempotent retry finds them).
   */
  #awaitDurable(result: AppendResult, epoch: number, timeoutMs: number | undefined): Promise<AppendResult> {
    const requiredOffset = result.lastOffset + 1;
    const log = this.log!;
    log.requestFlush();
    return new Promise<AppendResult>((resolve, reject) => {
      this.waits.produce.watch(
        [this.key],
        {
          tryComplete: () => {
            if (log.isOffline) {
              reject(this.#offlineError());
              return true;
            }
            if (this.#role !== 'leader' || this.#leaderEpoch !== epoch) {
              reject(this.#notLeader());
              return true;
            }
            // With the ISR below the minimum the high watermark stands still (strict min-ISR): the
            // records are in the log but cannot be acknowledged, as Kafka answers after an append.
            if (this.#isr.length < this.#minInsyncReplicas) {
              reject(this.#notEnoughReplicas(ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND));
              return true;
            }
            if (this.#highWatermark < requiredOffset || log.recoveryPoint < requiredOffset) return false;
            resolve(result);
            return true;
          },
          onExpiration: () =>
            reject(
              new WeirError(ErrorCode.REQUEST_TIMED_OUT, {
                detail: `${this.topic}-${this.partition}: offset ${result.lastOffset} was written but not durable within ${timeoutMs} ms`,
              }),
            ),
        },
        timeoutMs,
      );
    });
  }

  /**
   * Reads whole batches from `fetchOffset` as the leader, never past the high watermark (the last
   * stable offset for read_committed, which also lists the aborted transactions overlapping what
   * is returned). Below the log start or past the log end is OFFSET_OUT_OF_RANGE; from the high
   * watermark to the log end is a valid, empty read, as in Kafka (docs/kafka-compat.md §7): a new
   * leader's high watermark may trail records a consumer already read from the old one.
   */
  read(
    fetchOffset: number,
    options: PartitionReadOptions & { deferAboveBytes: number },
  ): Promise<{ offsets: PartitionOffsets; read: ReadResult<StoredRecords> }>;
  read(
    fetchOffset: number,
    options: PartitionReadOptions,
  ): Promise<{ offsets: PartitionOffsets; read: ReadResult }>;
  async read(
    fetchOffset: number,
    options: PartitionReadOptions & { deferAboveBytes?: number },
  ): Promise<{ offsets: PartitionOffsets; read: ReadResult<StoredRecords> }> {
    const log = this.#leaderLog(options.expectedLeaderEpoch, options.currentLeaderEpoch);
    const offsets = this.#offsetsOf(log);
    if (fetchOffset < offsets.logStartOffset || fetchOffset > offsets.logEndOffset) {
      throw new WeirError(ErrorCode.OFFSET_OUT_OF_RANGE, {
        detail: `offset ${fetchOffset} is outside ${offsets.logStartOffset}..${offsets.logEndOffset} of ${this.topic}-${this.partition}`,
      });
    }
    const committed = options.isolation === 'read_committed';
    const read = await log.read(fetchOffset, {
      maxBytes: options.maxBytes,
      minOneBatch: options.minOneBatch ?? true,
      isolation: options.isolation,
      withAbortedTransactions: options.withAbortedTransactions === true,
      deferAboveBytes: options.deferAboveBytes ?? Number.POSITIVE_INFINITY,
      maxOffset: Math.min(
        committed ? offsets.lastStableOffset : offsets.highWatermark,
        options.maxOffset ?? Number.POSITIVE_INFINITY,
      ),
    });
    return { offsets: this.#offsetsOf(log), read };
  }

  /**
   * A follower's fetch, as the leader (Kafka's Fetch with `replica_id`): `fetchOffset` is the
   * follower's log end, which moves the high watermark and may bring it back into the ISR; the
   * answer is whole batches up to the log end (not the high watermark) with the offsets the
   * follower learns its high watermark and log start from. Out of range outside the log start and
   * the log end, as for consumers.
   */
  async readForFollower(
    followerId: number,
    fetchOffset: number,
    options: { maxBytes: number; currentLeaderEpoch: number; deferAboveBytes: number },
  ): Promise<{ offsets: PartitionOffsets; read: ReadResult<StoredRecords> }> {
    const log = this.#leaderLog(undefined, options.currentLeaderEpoch);
    if (!this.#replicas.includes(followerId) || followerId === this.localBrokerId) {
      throw new WeirError(ErrorCode.NOT_LEADER_OR_FOLLOWER, {
        detail: `broker ${followerId} is not a follower of ${this.topic}-${this.partition} (replicas [${this.#replicas.join(', ')}])`,
      });
    }
    if (fetchOffset < log.logStartOffset || fetchOffset > log.logEndOffset) {
      throw new WeirError(ErrorCode.OFFSET_OUT_OF_RANGE, {
        detail: `follower offset ${fetchOffset} is outside ${log.logStartOffset}..${log.logEndOffset} of ${this.topic}-${this.partition}`,
      });
    }
    this.#leaderIsr.recordFetch(followerId, fetchOffset, log.logEndOffset);
    this.#leaderIsr.maybeExpand(this.#assignment!, followerId, this.#highWatermark, this.#minInsyncReplicas);
    this.#maybeAdvanceHighWatermark();
    const read = await log.read(fetchOffset, {
      maxBytes: options.maxBytes,
      minOneBatch: true,
      isolation: 'read_uncommitted',
      deferAboveBytes: options.deferAboveBytes,
      maxOffset: log.logEndOffset,
    });
    return { offsets: this.#offsetsOf(log), read };
  }

  /**
   * Removes the followers that have not caught up within replica.lag.time.max.ms from the ISR, as
   * the leader (leader-isr.ts).
   */
  checkIsr(): void {
    const log = this.log;
    if (this.#role !== 'leader' || log === undefined || log.isOffline || this.#assignment === undefined)
      return;
    this.#leaderIsr.checkShrink(this.#assignment, log.logEndOffset, this.#minInsyncReplicas);
  }

  /**
   * The follower side (partition-follower.ts): appending the leader's batches, following its
   * offsets, and the cuts a follower makes. Replica fetchers call it directly; every call names the
   * leader epoch it follows and fails once this partition no longer follows at that epoch.
   */
  get follower(): PartitionFollower {
    return this.#follower;
  }

  /**
   * Runs a cut of the log that began as a follower. The partition may be made leader while it runs
   * (an election lands meanwhile): until the cut is done it serves nothing as leader, since an
   * append queued now would race the cut, and its leadership then starts from the cut log.
   */
  async #cutting(cut: () => Promise<void>): Promise<void> {
    this.#cuts += 1;
    try {
      await cut();
    } finally {
      this.#cuts -= 1;
      const log = this.log;
      if (
        this.#cuts === 0 &&
        this.#role === 'leader' &&
        log !== undefined &&
        this.#assignment !== undefined
      ) {
        this.#highWatermark = Math.min(this.#highWatermark, log.logEndOffset);
        this.#leaderIsr.applied(this.#assignment, 'new', log.logEndOffset);
      }
    }
  }

  /**
   * Resolves once this leader's high watermark reached the log end it had when its leadership
   * began, so a coordinator replaying the partition sees every record the previous leader may have
   * acknowledged; rejects when the leadership at `leaderEpoch` ends first.
   */
  whenCaughtUpAsLeader(leaderEpoch: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waits.produce.watch(
        [this.key],
        {
          tryComplete: () => {
            if (this.isOffline) {
              reject(this.#offlineError());
              return true;
            }
            if (this.#role !== 'leader' || this.#leaderEpoch !== leaderEpoch) {
              reject(this.#notLeader());
              return true;
            }
            if (this.#highWatermark < this.#leaderIsr.epochStartOffset) return false;
            resolve();
            return true;
          },
          onExpiration: () => reject(this.#notLeader()),
        },
        undefined,
      );
    });
  }

  /**
   * ListOffsets' latest offset on a new leader (Kafka's rule): OFFSET_NOT_AVAILABLE, which clients
   * retry, until the high watermark reaches the start of this leadership, so no client is told an
   * end below records the previous leader already served.
   */
  checkLatestOffsetAvailable(): void {
    if (this.#role === 'leader' && this.#highWatermark < this.#leaderIsr.epochStartOffset) {
      throw new WeirError(ErrorCode.OFFSET_NOT_AVAILABLE, {
        detail: `${this.topic}-${this.partition}: the new leader's high watermark ${this.#highWatermark} has not reached ${this.#leaderIsr.epochStartOffset} yet`,
      });
    }
  }

  /** The offsets as the leader serves them (ListOffsets, lag, offset resets). */
  offsets(currentLeaderEpoch = NO_LEADER_EPOCH): PartitionOffsets {
    return this.#offsetsOf(this.#leaderLog(undefined, currentLeaderEpoch));
  }

  /**
   * OffsetForLeaderEpoch: where leader epoch `requested` ends in this replica's log
   * (leader-epoch-cache.ts), after the `current_leader_epoch` check. Only the leader answers unless
   * `leaderOnly` is false (Kafka's debugging replica id), when a follower's log answers too. The
   * leader's own epoch ends at the log end even before its first write, as in Kafka, which records
   * an epoch when leadership starts rather than at its first batch.
   */
  endOffsetForLeaderEpoch(
    requested: number,
    currentLeaderEpoch: number,
    leaderOnly: boolean,
  ): EpochEndOffset {
    const log = leaderOnly
      ? this.#leaderLog(undefined, currentLeaderEpoch)
      : this.#replicaLog(currentLeaderEpoch);
    const written = log.endOffsetForEpoch(requested);
    const current = this.#role === 'leader' && requested === this.#leaderEpoch;
    if (current && written.epoch !== requested) return { epoch: requested, endOffset: log.logEndOffset };
    return written;
  }

  /**
   * The leader epoch a ListOffsets answer carries for `offset` (v4+): the partition's own epoch for
   * the latest offset, else the epoch that wrote it (-1 for records of an older Weir).
   */
  leaderEpochOf(offset: number, latest: boolean): number {
    return latest ? this.#leaderEpoch : this.#leaderLog().epochForOffset(offset);
  }

  /** The first offset at or after `timestampMs` that a reader at this isolation level may see. */
  offsetForTimestamp(
    timestampMs: number,
    isolation: 'read_committed' | 'read_uncommitted',
  ): Promise<TimestampOffset | undefined> {
    const log = this.#leaderLog();
    const offsets = this.#offsetsOf(log);
    const bound = isolation === 'read_committed' ? offsets.lastStableOffset : offsets.highWatermark;
    return log.offsetForTimestamp(timestampMs, bound);
  }

  /** DeleteRecords: moves the log start up to `offset` (-1: the high watermark), never past it. */
  async deleteRecordsBefore(offset: number): Promise<number> {
    const log = this.#leaderLog();
    if (!log.config.deleteByRetention) {
      // Kafka's rule: a compact-only topic is a table, and cutting its start would drop keys' latest values.
      throw new WeirError(ErrorCode.POLICY_VIOLATION, {
        detail: `Records of partitions of topic ${this.topic} can be deleted only if the topic has a delete cleanup policy.`,
      });
    }
    const target = offset === -1 ? this.#highWatermark : offset;
    if (target < 0 || target > this.#highWatermark) {
      throw new WeirError(ErrorCode.OFFSET_OUT_OF_RANGE, {
        detail: `cannot delete records before ${target}: the high watermark of ${this.topic}-${this.partition} is ${this.#highWatermark}`,
      });
    }
    return log.deleteRecordsBefore(target);
  }

  /** The producers the leader keeps state for (DescribeProducers). */
  producers(): ReturnType<PartitionLog['producerState']['snapshot']>['entries'] {
    return this.#leaderLog().producerState.snapshot().entries;
  }

  /** This broker's replica as it is, whatever its role; undefined when its log is offline. */
  localReplica(): LocalReplicaState | undefined {
    const log = this.log;
    if (log === undefined || log.isOffline) return undefined;
    return {
      role: this.#role,
      leaderEpoch: this.#leaderEpoch,
      leaderId: this.#leaderId,
      replicas: this.#replicas,
      isr: this.#isr,
      elr: this.#elr,
      offsets: this.#offsetsOf(log),
      minInsyncReplicas: this.#minInsyncReplicas,
      followers: this.#role === 'leader' ? this.#leaderIsr.lags(log.logEndOffset) : [],
      log,
    };
  }

  /**
   * The log if this broker leads the partition (at `expectedLeaderEpoch`, for a coordinator's
   * write) and the request's leader epoch agrees; else the error that says why not.
   */
  #leaderLog(expectedLeaderEpoch?: number, currentLeaderEpoch = NO_LEADER_EPOCH): PartitionLog {
    const log = this.log;
    if (log === undefined || log.isOffline) throw this.#offlineError();
    if (this.#role !== 'leader' || this.#cuts > 0) throw this.#notLeader();
    if (expectedLeaderEpoch !== undefined && expectedLeaderEpoch !== this.#leaderEpoch) {
      throw new WeirError(
        expectedLeaderEpoch < this.#leaderEpoch
          ? ErrorCode.FENCED_LEADER_EPOCH
          : ErrorCode.NOT_LEADER_OR_FOLLOWER,
        {
          detail: `${this.topic}-${this.partition} is led at epoch ${this.#leaderEpoch}, not ${expectedLeaderEpoch}`,
        },
      );
    }
    const epochError = leaderEpochError(this.#leaderEpoch, currentLeaderEpoch);
    if (epochError !== ErrorCode.NONE) {
      throw new WeirError(epochError, {
        detail: `${this.topic}-${this.partition} is at leader epoch ${this.#leaderEpoch}; the request says ${currentLeaderEpoch}`,
      });
    }
    return log;
  }

  /** The log of any replica role (leader or follower) whose epoch agrees with the request's. */
  #replicaLog(currentLeaderEpoch: number): PartitionLog {
    if (this.#role === 'leader') return this.#leaderLog(undefined, currentLeaderEpoch);
    const log = this.log;
    if (log === undefined || log.isOffline) throw this.#offlineError();
    if (this.#role !== 'follower') throw this.#notLeader();
    const epochError = leaderEpochError(this.#leaderEpoch, currentLeaderEpoch);
    if (epochError !== ErrorCode.NONE) {
      throw new WeirError(epochError, {
        detail: `${this.topic}-${this.partition} is at leader epoch ${this.#leaderEpoch}; the request says ${currentLeaderEpoch}`,
      });
    }
    return log;
  }

  /** The log if this broker follows the partition at `leaderEpoch`; else the error that says why not. */
  #followerLog(leaderEpoch: number): PartitionLog {
    const log = this.log;
    if (log === undefined || log.isOffline) throw this.#offlineError();
    if (this.#role !== 'follower' || this.#leaderEpoch !== leaderEpoch) {
      throw new WeirError(ErrorCode.NOT_LEADER_OR_FOLLOWER, {
        detail: `${this.topic}-${this.partition} is no longer followed here at leader epoch ${leaderEpoch}`,
      });
    }
    return log;
  }

  #offsetsOf(log: PartitionLog): PartitionOffsets {
    const highWatermark = this.#highWatermark;
    const logStartOffset = log.logStartOffset;
    const unstable = log.firstUnstableOffset;
    // DeleteRecords may move the log start past an open transaction; the LSO never lies below it.
    const stable = unstable === undefined ? highWatermark : Math.min(unstable, highWatermark);
    return {
      logStartOffset,
      logEndOffset: log.logEndOffset,
      highWatermark,
      lastStableOffset: Math.max(stable, logStartOffset),
    };
  }

  #notLeader(): WeirError {
    return new WeirError(ErrorCode.NOT_LEADER_OR_FOLLOWER, {
      detail: `this broker is ${this.#role === 'none' ? 'not a replica' : `a ${this.#role}`} of ${this.topic}-${this.partition}`,
    });
  }

  #offlineError(): WeirError {
    return new WeirError(ErrorCode.KAFKA_STORAGE_ERROR, {
      detail: `${this.topic}-${this.partition} is offline`,
    });
  }

  #onLogChange(change: LogChange): void {
    switch (change) {
      case 'appended':
        this.#logEndChanged();
        this.#maybeAdvanceHighWatermark();
        break;
      case 'flushed':
        this.waits.produce.checkAndComplete(this.key);
        break;
      case 'truncated':
        this.#highWatermark = Math.min(this.#highWatermark, this.log!.logEndOffset);
        this.#logEndChanged();
        this.#changed();
        break;
      case 'log-start':
        this.#changed();
        break;
      case 'offline':
        this.#changed();
        this.waits.produce.checkAndComplete(this.key);
        if (this.#role !== 'none') this.replication.onLogOffline(this.topic, this.partition);
        break;
    }
  }

  /**
   * Moves the high watermark to the smallest log end offset among the in-sync replicas, counting
   * both sides of an ISR change being stored (Kafka's maximal ISR), and only while the ISR has at
   * least min.insync.replicas members (strict min-ISR, KIP-966). A follower whose log end is not
   * known yet under this leadership holds it where it is.
   */
  #maybeAdvanceHighWatermark(): void {
    const log = this.log;
    if (this.#role !== 'leader' || log === undefined) return;
    if (this.#isr.length < this.#minInsyncReplicas) return;
    const candidate = this.#leaderIsr.highWatermarkCandidate(this.#isr, log.logEndOffset);
    if (candidate === undefined || candidate <= this.#highWatermark) return;
    this.#highWatermark = candidate;
    this.#changed();
    this.waits.produce.checkAndComplete(this.key);
  }

  #changed(): void {
    this.#changeCount += 1;
    this.waits.fetch.checkAndComplete(this.key);
  }

  #logEndChanged(): void {
    this.#logEndChangeCount += 1;
    // A standalone partition has no followers, so nothing ever parks here and the lookup finds nothing.
    this.waits.fetch.checkAndComplete(this.#replicaFetchKey);
  }
}
