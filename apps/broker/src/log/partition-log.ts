import { ErrorCode, type RecordBatchHeader, WeirError } from '@weir/protocol';
import {
  collectAbortedTransactions,
  endOffsetOfBatches,
  indexAbortedTransactions,
} from './aborted-transactions';
import { type PendingAppend, prepareGroup } from './append-group';
import { AppendQueue, type AppendQueueHost, answerWrittenAppends } from './append-queue';
import { checkBatchTimestamps } from './batch-timestamps';
import { checkCompactedKeys } from './compacted-keys';
import { swapInCleanedSegment } from './compaction/cleaning-files';
import { type DurabilityHost, DurabilityTracker, type FlushedPointRecorder } from './durability-tracker';
import { rollBackFailedWrite } from './failed-write-rollback';
import type { FlushedPoint, FlushedPointFile } from './flushed-point';
import type { EpochEndOffset, LeaderEpochCache } from './leader-epoch-cache';
import type { EpochEntry } from './leader-epoch-checkpoint';
import type { LogConfig } from './log-config';
import { DELETED_SUFFIX } from './log-files';
import { type AppendOrigin, validateBatch } from './log-validator';
import type {
  AppendOptions,
  AppendResult,
  Clock,
  DeferringReadOptions,
  LogChange,
  PartitionLogEvents,
  PartitionLogState,
  ReadOptions,
  ReadResult,
} from './partition-log-types';
import { deleteSnapshotsBelow, writeSnapshot } from './producer-snapshot';
import { NO_OPEN_TRANSACTION, type ProducerStateManager } from './producer-state';
import { rebuildProducerState } from './producer-state-rebuild';
import { floorSegmentIndex, readWholeBatches } from './read-batches';
import { describeClosedSegments, segmentsToDelete } from './retention';
import type { Segment, SegmentContext } from './segment';
import { Segment as SegmentClass } from './segment';
import { SegmentRegion, type StoredRecords } from './segment-region';
import { isRollDue, writeWithRolls } from './segment-roll';
import { SegmentSwapGate } from './segment-swap-gate';
import { StorageError } from './storage';
import { StorageGuard, type StorageGuardEvents, type StorageState } from './storage-guard';
import { findOffsetForTimestamp, type TimestampOffset } from './timestamp-lookup';
import { type Admission, TransactionVerifications, type VerificationGuard } from './transaction-verification';

type PartitionLogHooks = AppendQueueHost & StorageGuardEvents & DurabilityHost & FlushedPointRecorder;

export type {
  AppendOptions,
  AppendResult,
  Clock,
  LogChange,
  PartitionLogEvents,
  PartitionLogState,
  ReadOptions,
  ReadResult,
} from './partition-log-types';
export type { StoredRecords } from './segment-region';

/**
 * One partition's log (docs/architecture.md §4). Appends are serialized: whatever queues up while a write
 * is in flight goes out as the next group in a single `writev`, with offsets assigned by rewriting
 * each batch's first 8 bytes. The flush policy fdatasyncs written data, and one fdatasync covers
 * everything written before it started; subscribers hear when the log end and the flushed offset
 * move. Readers see only what has been written completely, and never past the bound they pass:
 * the log knows no high watermark, which belongs to the replica layer. A disk error takes just
 * this partition offline.
 */
export class PartitionLog {
  /** See `#hooks`. Declared inside the class so its methods can reach the log's private members. */
  static readonly #Hooks = class implements PartitionLogHooks {
    constructor(private readonly log: PartitionLog) {}

    writeGroup(group: PendingAppend[]): Promise<void> {
      return this.log.#writeGroup(group);
    }

    writeBlockedError(): StorageError | undefined {
      return this.log.#storage.writeBlockedError;
    }

    failure(error: StorageError): Error {
      return this.log.#storage.failure(error);
    }

    onOffline(error: StorageError): void {
      this.log.#wentOffline(error);
    }

    onOutOfSpace(error: StorageError): void {
      this.log.#ranOutOfSpace(error);
    }

    onWritable(): void {
      this.log.#becameWritable();
    }

    writtenOffset(): number {
      return this.log.#logEndOffset;
    }

    onStorageError(error: StorageError): void {
      this.log.#storage.goOffline(error);
    }

    onFlushed(): void {
      this.log.#notify('flushed');
    }

    capture(): FlushedPoint {
      return this.log.#logEndPoint;
    }

    record(point: FlushedPoint, confirmedOffset: number): Promise<void> {
      return this.log.#flushedPointFile.write({ point, confirmedOffset });
    }
  };

  readonly topic: string;
  readonly partition: number;
  #segments: Segment[];
  #logStartOffset: number;
  #logEndOffset: number;
  /** Where the log end lies on disk, moved with the log end offset: what a flush round covers. */
  #logEndPoint: FlushedPoint;
  readonly #flushedPointFile: FlushedPointFile;
  /**
   * The first offset of the earliest open transaction as of the log end, published with it (the
   * producer state runs ahead while a group is being written, and readers must not see that).
   */
  #firstUnstableOffset: number | undefined;
  /**
   * The calls the log's collaborators make back into it, as one object whose methods are shared by
   * every log. An arrow function per callback cost a closure, its context and (under tsx, which
   * keeps function names) a property dictionary: about 5 KiB per partition, 50 MB at 10,000.
   */
  readonly #hooks: PartitionLogHooks = new PartitionLog.#Hooks(this);
  readonly #appends = new AppendQueue(this.#hooks);
  readonly #storage: StorageGuard;
  readonly #durability: DurabilityTracker;
  /** Created with the first subscriber; an empty Set costs more than the pointer. */
  #listeners: Set<(change: LogChange) => void> | undefined;
  readonly #verifications = new TransactionVerifications();
  /** Each leader epoch's first offset (KIP-101), persisted before the batches it describes. */
  readonly #epochs: LeaderEpochCache;
  #pendingSnapshot = false;
  #failedWriteBytes = 0;
  /** Keeps reads of segment files apart from a clean's segment swap. */
  readonly #swapGate = new SegmentSwapGate();
  #truncationCount = 0;

  constructor(
    readonly context: SegmentContext & { topic: string; partition: number },
    readonly config: LogConfig,
    private readonly clock: Clock,
    readonly producerState: ProducerStateManager,
    private readonly events: PartitionLogEvents,
    state: PartitionLogState,
  ) {
    if (state.segments.length === 0) throw new Error('a partition log needs at least one segment');
    this.topic = context.topic;
    this.partition = context.partition;
    this.#segments = state.segments;
    this.#logStartOffset = state.logStartOffset;
    this.#logEndOffset = this.#activeSegment.nextOffset;
    this.#logEndPoint = this.#endPoint();
    this.#flushedPointFile = state.flushedPointFile;
    this.#epochs = state.leaderEpochs;
    this.#firstUnstableOffset = producerState.firstUnstableOffset();
    this.#storage = new StorageGuard(this.topic, this.partition, this.#hooks, clock);
    this.#durability = new DurabilityTracker(state.recoveryPoint, config, this.#hooks, this.#hooks);
  }

  /** The on-disk position of the log end as it is now. */
  #endPoint(): FlushedPoint {
    const active = this.#activeSegment;
    return {
      offset: this.#logEndOffset,
      segmentBaseOffset: active.baseOffset,
      positionBytes: active.sizeBytes,
    };
  }

  get logStartOffset(): number {
    return this.#logStartOffset;
  }

  get logEndOffset(): number {
    return this.#logEndOffset;
  }

  /**
   * The first offset of the earliest transaction still open as of the log end, or undefined when
   * none is: the replica layer bounds its last stable offset with it.
   */
  get firstUnstableOffset(): number | undefined {
    return this.#firstUnstableOffset;
  }

  /** Offsets below this are known to be on disk (fdatasync'd). */
  get recoveryPoint(): number {
    return this.#durability.flushedOffset;
  }

  get sizeBytes(): number {
    return this.#segments.reduce((total, segment) => total + segment.sizeBytes, 0);
  }

  get segments(): readonly Segment[] {
    return this.#segments;
  }

  get isOffline(): boolean {
    return this.#storage.offlineError !== undefined;
  }

  get offlineError(): StorageError | undefined {
    return this.#storage.offlineError;
  }

  /**
   * The write that failed for want of disk space, while writes are refused for it (reads are still
   * served); undefined when writes are accepted or the log is offline.
   */
  get outOfSpaceError(): StorageError | undefined {
    return this.#storage.outOfSpaceError;
  }

  /** online, out-of-space (reads only) or offline, and since when (epoch milliseconds). */
  get storageState(): { state: StorageState; sinceMs: number } {
    return { state: this.#storage.state, sinceMs: this.#storage.sinceMs };
  }

  /**
   * Accepts writes again after running out of space, once the log manager's probe found space
   * (space-probe.ts). The failed write was rolled back when it failed, so there is nothing to
   * repair first. Returns whether writes were refused until now.
   */
  resumeWrites(): boolean {
    return this.#storage.spaceAvailable();
  }

  get #activeSegment(): Segment {
    return this.#segments[this.#segments.length - 1]!;
  }

  /**
   * Applies changed topic settings (AlterConfigs). The config object is shared with the flush
   * policy, so updating it in place takes effect for the next append, flush and retention check.
   */
  reconfigure(next: LogConfig): void {
    Object.assign(this.config, next);
  }

  /**
   * Calls `listener` after every change of the log end offset, the flushed offset, the log start
   * offset, and after a truncation; the first unstable offset only moves with the log end (markers
   * are appends). The partition that owns the log subscribes once.
   */
  subscribe(listener: (change: LogChange) => void): () => void {
    this.#listeners ??= new Set();
    const listeners = this.#listeners;
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /**
   * Checks one RecordBatch v2 (CRC, sizes, attributes allowed for `origin`, record timestamps)
   * without queueing it; throws the Kafka error of the first problem. A wrong max timestamp is
   * corrected in the batch (batch-timestamps.ts), and the header returned says so. The caller may
   * then ask whatever it must (the transaction coordinator, for a transactional batch) and
   * {@link appendValidated} it.
   */
  validate(batch: Buffer, origin: AppendOrigin): RecordBatchHeader {
    this.#storage.assertWritable();
    const header = validateBatch(batch, origin, this.config.maxMessageBytes);
    if (origin === 'client' && this.config.compact)
      checkCompactedKeys(batch, header, this.topic, this.partition);
    const name = `${this.topic}-${this.partition}`;
    return checkBatchTimestamps(batch, header, origin, this.config, this.clock.nowMs(), name);
  }

  /**
   * Appends one RecordBatch v2: validated, then modified in place (base offset, leader epoch,
   * append time) before it is written. Resolves once the batch is written; the producer sequence
   * is checked in the write path.
   */
  append(batch: Buffer, options: AppendOptions): Promise<AppendResult> {
    let header: RecordBatchHeader;
    try {
      header = this.validate(batch, options.origin);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.appendValidated(batch, header, options);
  }

  /**
   * Takes the guard a transactional batch of `producerId` carries through its admission by the
   * transaction coordinator (transaction-verification.ts).
   */
  beginTransactionVerification(producerId: bigint): VerificationGuard {
    return this.#verifications.begin(Number(producerId));
  }

  /** Notes that the coordinator admitted a batch under `guard`. */
  transactionAdmitted(producerId: bigint, guard: VerificationGuard, admission: Admission): void {
    this.#verifications.admitted(Number(producerId), guard, admission);
  }

  /**
   * The guard a transactional batch of this producer carries without asking the coordinator, or
   * undefined when it must ask: no batch of the same producer and leader epochs was admitted since
   * the producer's last marker here, and its transaction is not open in this partition.
   */
  verifiedTransactionGuard(producerId: bigint, admission: Admission): VerificationGuard | undefined {
    const id = Number(producerId);
    const admitted = this.#verifications.admittedGuard(id, admission);
    if (admitted !== undefined) return admitted;
    const open = this.producerState.transactionView(id);
    if (
      open === undefined ||
      open.producerEpoch !== admission.producerEpoch ||
      open.currentTransactionFirstOffset === NO_OPEN_TRANSACTION
    ) {
      return undefined;
    }
    // The guard still matters: a marker written before the batch is drops it, and the batch is refused.
    return this.#verifications.begin(id);
  }

  /**
   * Resolves once everything below `offset` is fdatasync'd: a follower waits for this before it
   * reports its log end to the leader, so what the leader counts as replicated is on disk
   * (docs/architecture.md §6.5).
   */
  async waitUntilDurable(offset: number): Promise<void> {
    await this.#storage.run(() => this.#durability.waitUntilFlushed(Math.min(offset, this.#logEndOffset)));
  }

  /** Appends a batch {@link validate} accepted, with the header it returned. */
  appendValidated(batch: Buffer, header: RecordBatchHeader, options: AppendOptions): Promise<AppendResult> {
    this.#storage.assertWritable();
    return new Promise<AppendResult>((resolve, reject) => {
      this.#appends.enqueue({ batch, header, options, resolve, reject });
    });
  }

  /** Writes one group from the append queue and answers its appends. */
  async #writeGroup(group: PendingAppend[]): Promise<void> {
    const nowMs = this.clock.nowMs();
    const endBefore = this.#logEndOffset;
    const segmentCountBefore = this.#segments.length;
    const { toWrite, completions, nextOffset, aborted, epochStarts } = prepareGroup(group, {
      producerState: this.producerState,
      verifications: this.#verifications,
      timestampType: this.config.timestampType,
      nextOffset: this.#logEndOffset,
      nowMs,
    });
    try {
      // Before the batches, as Kafka does: a crash in between leaves an entry past the log end,
      // which the next open cuts, never a batch whose epoch the checkpoint does not know.
      if (this.#assignEpochs(epochStarts)) await this.#epochs.persist();
      await writeWithRolls(toWrite, nowMs, {
        active: () => this.#activeSegment,
        config: this.config,
        markDirty: (segment) => this.#durability.markDirty(segment),
        roll: (baseOffset) => this.#roll(baseOffset),
      });
      // In the index before the markers are published, so no read can miss an aborted range.
      await indexAbortedTransactions(this.#segments, aborted);
    } catch (error) {
      // Nothing from here on was written. The file may keep the entry; it is rewritten from these
      // entries at the next change and cut to the log at the next open.
      this.#epochs.truncateFromEnd(endBefore);
      const failure = this.#storage.asStorageError(error);
      const answer = this.#storage.failure(failure);
      if (failure.isOutOfSpace) {
        // Refused from now on, before the roll-back, so no new append queues behind it meanwhile.
        this.#storage.outOfSpace(failure);
        await this.#rollBackFailedWrite(endBefore, segmentCountBefore, failure);
        this.#failedWriteBytes = toWrite.reduce((total, batch) => total + batch.bytes.length, 0);
      } else {
        this.#storage.goOffline(failure);
      }
      for (const { item } of completions) item.reject(answer);
      return;
    }
    if (nextOffset !== this.#logEndOffset) {
      // The producer state has seen every batch up to here, idempotent or not.
      this.producerState.advanceMapEndOffset(nextOffset);
      this.#logEndOffset = nextOffset;
      this.#logEndPoint = this.#endPoint();
      this.#firstUnstableOffset = this.producerState.firstUnstableOffset();
      this.#durability.recordWrite(
        toWrite.reduce((total, batch) => total + batch.bytes.length, 0),
        toWrite.length,
      );
      this.#notify('appended');
    }
    if (this.#pendingSnapshot) await this.#writeProducerSnapshotAfterWrite();
    answerWrittenAppends(completions, this.#logStartOffset);
  }

  /**
   * Records the epochs of the batches about to be written; true when a new epoch starts among
   * them. An epoch older than the newest one here (metadata older than this log) is written as
   * stamped but starts no entry, as in Kafka, and is worth a warning.
   */
  #assignEpochs(epochStarts: readonly EpochEntry[]): boolean {
    let appended = false;
    for (const { epoch, startOffset } of epochStarts) {
      const outcome = this.#epochs.assign(epoch, startOffset);
      if (outcome === 'appended') appended = true;
      if (outcome === 'stale') {
        this.events.warn('a batch was written under a leader epoch older than the log already has', {
          topic: this.topic,
          partition: this.partition,
          leaderEpoch: epoch,
          latestLeaderEpoch: this.#epochs.latestEpoch,
          offset: startOffset,
        });
      }
    }
    return appended;
  }

  /**
   * The end of leader epoch `epoch` by Kafka's rule (leader-epoch-cache.ts): where the next larger
   * epoch starts, or the log end for the newest, with the largest known epoch at or below it.
   */
  endOffsetForEpoch(epoch: number): EpochEndOffset {
    return this.#epochs.endOffsetFor(epoch, this.#logEndOffset);
  }

  /** The leader epoch that wrote `offset`, or -1 when the log knows none (ListOffsets v4+). */
  epochForOffset(offset: number): number {
    return this.#epochs.epochForOffset(offset);
  }

  /** Each leader epoch and its first offset, oldest first (operator views, tests). */
  get leaderEpochs(): readonly EpochEntry[] {
    return this.#epochs.entries;
  }

  /** The epoch cache follows the log start: entries below it fold into it. */
  async #epochsFollowLogStart(): Promise<void> {
    if (this.#epochs.truncateFromStart(this.#logStartOffset)) {
      await this.#storage.run(() => this.#epochs.persist());
    }
  }

  /**
   * Rolls a write that failed for want of space back (failed-write-rollback.ts); if that fails
   * too, the log's state is unknown and it goes offline.
   */
  async #rollBackFailedWrite(
    endBefore: number,
    segmentCountBefore: number,
    cause: StorageError,
  ): Promise<void> {
    try {
      const target = {
        context: this.context,
        segments: this.#segments,
        durability: this.#durability,
        producerState: this.producerState,
      };
      await rollBackFailedWrite(target, endBefore, segmentCountBefore);
      this.#firstUnstableOffset = this.producerState.firstUnstableOffset();
    } catch (error) {
      const failure = error instanceof StorageError ? error : cause;
      this.events.warn('rolling back a write that ran out of space failed', {
        topic: this.topic,
        partition: this.partition,
        error: String(error),
      });
      this.#storage.goOffline(
        failure.isOutOfSpace ? new StorageError(failure.operation, failure.path, 'EIO') : failure,
      );
      if (!(error instanceof StorageError)) throw error;
    }
  }

  /**
   * The snapshot after a roll only saves the next start a replay, and the group it follows is
   * written: out of space, it is put off to the next write, which will fail for want of space too
   * and make the log refuse writes.
   */
  async #writeProducerSnapshotAfterWrite(): Promise<void> {
    try {
      await this.#writeProducerSnapshot();
    } catch (error) {
      const failure = this.#storage.asStorageError(error);
      if (!failure.isOutOfSpace) {
        this.#storage.goOffline(failure);
        return;
      }
      this.#pendingSnapshot = true;
      this.events.warn('producer snapshot put off: out of disk space', {
        topic: this.topic,
        partition: this.partition,
        errno: failure.errno,
      });
    }
  }

  /** Closes the active segment for writing and starts a new one at `baseOffset`. */
  async #roll(baseOffset: number): Promise<void> {
    const previous = this.#activeSegment;
    let next: Segment;
    try {
      next = await SegmentClass.create(this.context, baseOffset);
    } catch (error) {
      // Files of a half-created segment would be taken for a segment at the next start.
      await SegmentClass.discardFiles(this.context, baseOffset).catch(() => undefined);
      throw error;
    }
    this.#segments.push(next);
    await previous.finishActive();
    // The producer state is snapshotted once the group that rolled is fully written, so the
    // snapshot's offset describes exactly the batches the state has seen.
    this.#pendingSnapshot = true;
  }

  /** Rolls now if the active segment is older than segment.ms (called by the log manager). */
  async rollIfExpired(): Promise<void> {
    if (this.#storage.writeBlockedError) return;
    // An append is answered from inside its write; the write itself ends a moment later.
    await this.#appends.settle();
    if (this.#storage.writeBlockedError || this.#appends.writing) return;
    if (!isRollDue(this.#activeSegment, this.config.segmentMs, this.clock)) return;
    this.#appends.beginWrite();
    const segmentCountBefore = this.#segments.length;
    try {
      await this.#roll(this.#logEndOffset);
      await this.#writeProducerSnapshot();
    } catch (error) {
      const failure = this.#storage.asStorageError(error);
      if (failure.isOutOfSpace) {
        this.#storage.outOfSpace(failure);
        await this.#rollBackFailedWrite(this.#logEndOffset, segmentCountBefore, failure);
        this.#failedWriteBytes = 0;
      } else {
        this.#storage.goOffline(failure);
      }
    } finally {
      this.#appends.endWrite();
    }
    void this.#appends.drain();
  }

  async #writeProducerSnapshot(): Promise<void> {
    this.#pendingSnapshot = false;
    await writeSnapshot(this.context.io, this.context.directory, this.producerState);
  }

  /**
   * Reads whole batches starting with the one that contains `fetchOffset`, up to `maxBytes` (at
   * least one batch unless `minOneBatch` is false), never past `maxOffset`; read_committed reads
   * (and those asking `withAbortedTransactions`) also get the aborted transactions overlapping the
   * batches returned. An offset below the log
   * start or above the log end is OFFSET_OUT_OF_RANGE.
   */
  read(fetchOffset: number, options: DeferringReadOptions): Promise<ReadResult<StoredRecords>>;
  read(fetchOffset: number, options: ReadOptions): Promise<ReadResult>;
  async read(
    fetchOffset: number,
    options: ReadOptions & { deferAboveBytes?: number },
  ): Promise<ReadResult<StoredRecords>> {
    this.#storage.assertOnline();
    const committed = options.isolation === 'read_committed' || options.withAbortedTransactions === true;
    const maxOffset = Math.min(options.maxOffset, this.#logEndOffset);
    if (fetchOffset < this.#logStartOffset || fetchOffset > this.#logEndOffset) {
      throw new WeirError(ErrorCode.OFFSET_OUT_OF_RANGE, {
        detail: `offset ${fetchOffset} is outside ${this.#logStartOffset}..${this.#logEndOffset} of ${this.topic}-${this.partition}`,
      });
    }
    return this.#swapGate.read(async () => {
      const records: StoredRecords =
        fetchOffset >= maxOffset
          ? Buffer.alloc(0)
          : await this.#storage.run(() => readWholeBatches(this.#segments, fetchOffset, maxOffset, options));
      // Entries are in the index before their markers are published, so those of every abort below
      // the LSO read above are there; later ones lie beyond what was returned.
      const upperBound =
        records instanceof SegmentRegion ? records.lastOffset + 1 : endOffsetOfBatches(records, fetchOffset);
      return {
        records,
        logStartOffset: this.#logStartOffset,
        logEndOffset: this.#logEndOffset,
        abortedTransactions: committed
          ? collectAbortedTransactions(this.#segments, fetchOffset, upperBound)
          : undefined,
      };
    });
  }

  /** Waits until every append so far is on disk. */
  async flush(): Promise<void> {
    this.#storage.assertOnline();
    await this.#durability.waitUntilFlushed(this.#logEndOffset);
  }

  /** Resolves once everything below `offset` is on disk, flushing now if needed. */
  waitUntilFlushed(offset: number): Promise<void> {
    return this.#durability.waitUntilFlushed(offset);
  }

  /**
   * Starts an fdatasync now if written data is not on disk yet, without waiting for it: a
   * producer waiting for durability should not wait for `flush.ms` as well. Subscribers hear
   * `flushed` when it is done.
   */
  requestFlush(): void {
    if (this.#storage.offlineError) return;
    this.#durability.requestFlush();
  }

  #notify(change: LogChange): void {
    if (this.#listeners === undefined) return;
    for (const listener of this.#listeners) listener(change);
  }

  /**
   * Called once, when the first storage error takes the partition offline: durable appends waiting
   * for an fdatasync and appends still queued fail now, since neither will ever be written.
   */
  #wentOffline(error: StorageError): void {
    this.events.warn('partition log offline after a storage error', {
      topic: this.topic,
      partition: this.partition,
      operation: error.operation,
      path: error.path,
      errno: error.errno,
    });
    this.#durability.fail(this.#storage.failure(error));
    this.#appends.rejectQueued(error);
    this.events.onOffline(error);
    this.#notify('offline');
  }

  /**
   * Called when a write failed for want of space: appends still queued fail now (they would fail
   * the same way), while appends already written still become durable, since fdatasync needs no
   * new space. The log manager probes for space and calls {@link resumeWrites}.
   */
  #ranOutOfSpace(error: StorageError): void {
    this.events.warn('partition log refuses writes: out of disk space; reads are still served', {
      topic: this.topic,
      partition: this.partition,
      operation: error.operation,
      path: error.path,
      errno: error.errno,
    });
    this.#appends.rejectQueued(error);
    this.events.onOutOfSpace(error);
  }

  #becameWritable(): void {
    this.events.info('partition log accepts writes again: disk space is available', {
      topic: this.topic,
      partition: this.partition,
    });
  }

  /** The bytes of the write that last failed for want of space: the probe asks for at least that much. */
  get failedWriteBytes(): number {
    return this.#failedWriteBytes;
  }

  /**
   * The first offset whose record timestamp is ≥ `targetMs`, below `maxOffset` (the bound the
   * caller may see), or undefined when there is none.
   */
  async offsetForTimestamp(targetMs: number, maxOffset: number): Promise<TimestampOffset | undefined> {
    this.#storage.assertOnline();
    return this.#swapGate.read(() =>
      this.#storage.run(() =>
        findOffsetForTimestamp(this.#segments, targetMs, Math.min(maxOffset, this.#logEndOffset)),
      ),
    );
  }

  /**
   * Moves the log start offset up to `offset` (DeleteRecords): records below it are no longer
   * served, and whole segments below it are deleted. The replica layer keeps `offset` at or below
   * its high watermark; the log only refuses one past its end. Returns the new log start offset
   * (the "low watermark").
   */
  async deleteRecordsBefore(offset: number): Promise<number> {
    this.#storage.assertOnline();
    if (offset < 0 || offset > this.#logEndOffset) {
      throw new WeirError(ErrorCode.OFFSET_OUT_OF_RANGE, {
        detail: `cannot delete records before ${offset}: the log end of ${this.topic}-${this.partition} is ${this.#logEndOffset}`,
      });
    }
    if (offset > this.#logStartOffset) {
      this.#logStartOffset = offset;
      this.events.onLogStartOffsetChanged();
      await this.applyRetention();
      await this.#epochsFollowLogStart();
      this.#notify('log-start');
    }
    return this.#logStartOffset;
  }

  /**
   * Deletes the oldest closed segments that retention.ms, retention.bytes or the log start offset
   * say must go, by renaming them to `.deleted` (unlinked after file.delete.delay.ms, or at the next
   * start), and advances the log start offset past them. Returns how many segments were deleted.
   */
  async applyRetention(): Promise<number> {
    if (this.#storage.offlineError) return 0;
    const decision = segmentsToDelete(
      await this.#storage.run(() => describeClosedSegments(this.#segments)),
      this.#activeSegment.sizeBytes,
      this.#logStartOffset,
      this.config,
      this.clock.nowMs(),
    );
    if (decision.count === 0) return 0;
    const doomed = this.#segments.slice(0, decision.count);
    this.#segments = this.#segments.slice(decision.count);
    const newStart = Math.max(this.#logStartOffset, this.#segments[0]!.baseOffset);
    if (newStart !== this.#logStartOffset) {
      this.#logStartOffset = newStart;
      this.events.onLogStartOffsetChanged();
      this.#notify('log-start');
    }
    for (const segment of doomed) {
      this.#durability.forget(segment);
      await this.#storage.run(() => segment.renameFilesWithSuffix(DELETED_SUFFIX));
      this.events.scheduleDelete(segment, decision.reason ?? 'retention.ms');
    }
    await this.#storage.run(() => deleteSnapshotsBelow(this.context.io, this.context.directory, newStart));
    await this.#epochsFollowLogStart();
    return decision.count;
  }

  /** How many times the log was truncated or restarted: a clean that saw it change gives up. */
  get truncationCount(): number {
    return this.#truncationCount;
  }

  /**
   * Puts the segment a clean wrote in the cleaning directory in place of `replaced`, consecutive
   * closed segments whose first base offset it has (compaction/cleaning-files.ts has the file
   * steps and their crash rule). Reads wait meanwhile; the replaced files are deleted after
   * file.delete.delay.ms, so regions of them being sent stay readable. Refused (false) when the
   * log changed under the clean: those segments are gone, or it was truncated since
   * `truncationCount`.
   */
  async replaceCleanedSegments(replaced: readonly Segment[], truncationCount: number): Promise<boolean> {
    return this.#swapGate.exclusive(async () => {
      if (this.#storage.offlineError || truncationCount !== this.#truncationCount) return false;
      const start = this.#segments.indexOf(replaced[0]!);
      const intact =
        start >= 0 &&
        start + replaced.length < this.#segments.length &&
        replaced.every((segment, index) => this.#segments[start + index] === segment);
      if (!intact) return false;
      const endOffset = this.#segments[start + replaced.length]!.baseOffset;
      const cleaned = await this.#storage.run(async () => {
        await swapInCleanedSegment(this.context.io, this.context.directory, replaced);
        const segment = await SegmentClass.open(this.context, replaced[0]!.baseOffset);
        await segment.txnIndex.load(endOffset);
        return segment;
      });
      this.#segments.splice(start, replaced.length, cleaned);
      for (const segment of replaced) {
        this.#durability.forget(segment);
        this.events.scheduleDelete(segment, 'compaction');
      }
      return true;
    });
  }

  /**
   * Removes every batch at or above `offset` (a follower truncating a divergent tail). Whole
   * batches only: the new log end is the base offset of the batch that contained `offset`. The
   * leader-epoch cache loses the epochs that started in the cut tail, and the producer state is
   * rebuilt from the newest snapshot below the new end. No appends may arrive
   * meanwhile (the replica layer truncates only a partition it does not lead); the write that
   * answered the last one is let finish first.
   */
  async truncateTo(offset: number): Promise<void> {
    this.#storage.assertOnline();
    await this.#appends.settle();
    if (this.#appends.busy) throw new Error('truncateTo while appends are in flight');
    if (offset >= this.#logEndOffset) return;
    this.#truncationCount++;
    await this.#storage.run(async () => {
      // A flush round under way would record its older, higher point after the one written here.
      await this.#durability.waitUntilFlushed(this.#logEndOffset);
      // The flushed point goes down first, to the start of the segment the cut lands in (at or below
      // the new end): a crash in the middle must not leave it claiming data that is gone.
      const landing = this.#segments[floorSegmentIndex(this.#segments, offset)]!;
      if (landing.baseOffset < this.recoveryPoint) {
        await this.#flushedPointFile.write({
          point: { offset: landing.baseOffset, segmentBaseOffset: landing.baseOffset, positionBytes: 0 },
          confirmedOffset: landing.baseOffset,
        });
      }
      while (this.#segments.length > 1 && this.#activeSegment.baseOffset >= offset) {
        const removed = this.#segments.pop()!;
        this.#durability.forget(removed);
        await removed.delete();
      }
      await this.#activeSegment.truncateTo(offset);
      this.#logEndOffset = this.#activeSegment.nextOffset;
      this.#logEndPoint = this.#endPoint();
      this.#durability.truncateTo(this.#logEndOffset);
      if (this.#logStartOffset > this.#logEndOffset) this.#logStartOffset = this.#logEndOffset;
      // Epochs that started in the cut tail are gone with it (a follower then refetches them).
      if (this.#epochs.truncateFromEnd(this.#logEndOffset)) await this.#epochs.persist();
      // The transaction indexes were cut with the segments; what is left is already indexed.
      await rebuildProducerState(this.context, this.#segments, this.producerState, this.#logEndOffset);
      this.#firstUnstableOffset = this.producerState.firstUnstableOffset();
    });
    this.#notify('truncated');
  }

  /**
   * Empties the log and begins it again, empty, at `offset`, above its log end (or anywhere, when
   * the log is empty): a follower whose log ends below its leader's log start (retention or
   * DeleteRecords removed what it lacks) can only copy from there, as Kafka's
   * `truncateFullyAndStartAt`, and from the start of the leader's batch that holds that offset. The new segment comes first and
   * the old ones are then renamed for deletion; a crash in between leaves the old segments below
   * an empty one at `offset`, which reads the same to a follower (its log end is `offset`). No
   * appends may arrive meanwhile, as for {@link truncateTo}.
   */
  async restartAt(offset: number): Promise<void> {
    this.#storage.assertOnline();
    await this.#appends.settle();
    if (this.#appends.busy) throw new Error('restartAt while appends are in flight');
    const empty = this.#logStartOffset === this.#logEndOffset;
    if (offset <= this.#logEndOffset && !empty) {
      throw new Error(`restartAt(${offset}) must be past the log end ${this.#logEndOffset}`);
    }
    this.#truncationCount++;
    await this.#storage.run(async () => {
      await this.#durability.waitUntilFlushed(this.#logEndOffset);
      const next = await SegmentClass.create(this.context, offset);
      const doomed = this.#segments;
      this.#segments = [next];
      this.#logStartOffset = offset;
      this.#logEndOffset = offset;
      this.#logEndPoint = this.#endPoint();
      this.#durability.restartAt(offset);
      await this.#flushedPointFile.write({
        point: { offset, segmentBaseOffset: offset, positionBytes: 0 },
        confirmedOffset: offset,
      });
      for (const segment of doomed) {
        await segment.renameFilesWithSuffix(DELETED_SUFFIX);
        this.events.scheduleDelete(segment, 'follower restarted at the leader log start');
      }
      if (this.#epochs.truncateFromEnd(offset) || this.#epochs.truncateFromStart(offset))
        await this.#epochs.persist();
      await deleteSnapshotsBelow(this.context.io, this.context.directory, offset);
      await rebuildProducerState(this.context, this.#segments, this.producerState, offset);
      this.#firstUnstableOffset = this.producerState.firstUnstableOffset();
    });
    this.events.onLogStartOffsetChanged();
    this.#notify('truncated');
    this.#notify('log-start');
  }

  /**
   * Closes the log cleanly: waits for queued appends, flushes everything, writes the active
   * segment's indexes and a producer snapshot at the log end, so the next open scans nothing.
   */
  async close(): Promise<void> {
    await this.#appends.settle();
    this.#durability.stop();
    if (this.#storage.offlineError) return;
    await this.#storage.run(async () => {
      await this.#durability.waitUntilFlushed(this.#logEndOffset);
      await this.#activeSegment.writeIndexes();
      await writeSnapshot(this.context.io, this.context.directory, this.producerState);
      for (const segment of this.#segments) await segment.close();
      await this.#flushedPointFile.close();
    });
  }
}
