import { ErrorCode, WeirError } from '@weir/protocol';
import {
  collectAbortedTransactions,
  endOffsetOfBatches,
  indexAbortedTransactions,
} from './aborted-transactions';
import { type PendingAppend, prepareGroup } from './append-group';
import { DurabilityTracker } from './durability-tracker';
import type { LogConfig } from './log-config';
import { DELETED_SUFFIX } from './log-files';
import { validateBatch } from './log-validator';
import type {
  AppendOptions,
  AppendResult,
  Clock,
  PartitionLogEvents,
  PartitionLogState,
  ReadOptions,
  ReadResult,
} from './partition-log-types';
import { deleteSnapshotsBelow, writeSnapshot } from './producer-snapshot';
import type { ProducerStateManager } from './producer-state';
import { rebuildProducerState } from './producer-state-rebuild';
import { readWholeBatches } from './read-batches';
import { describeClosedSegments, segmentsToDelete } from './retention';
import type { BatchToWrite, Segment, SegmentContext } from './segment';
import { Segment as SegmentClass } from './segment';
import { StorageError } from './storage';
import { findOffsetForTimestamp, type TimestampOffset } from './timestamp-lookup';

export type {
  AppendOptions,
  AppendResult,
  Clock,
  PartitionLogEvents,
  PartitionLogState,
  ReadOptions,
  ReadResult,
} from './partition-log-types';

/**
 * One partition's log (ARCHITECTURE §4). Appends are serialized: whatever queues up while a write
 * is in flight goes out as the next group in a single `writev`, with offsets assigned by rewriting
 * each batch's first 8 bytes. Durable appends wait for an fdatasync that covers them, and one
 * fdatasync serves every append written before it started. Readers see only what has been written
 * completely. A disk error takes just this partition offline.
 */
export class PartitionLog {
  readonly topic: string;
  readonly partition: number;
  #segments: Segment[];
  #logStartOffset: number;
  #logEndOffset: number;
  #highWatermark: number;
  /**
   * The first offset of the earliest open transaction as of the log end, published with it (the
   * producer state runs ahead while a group is being written, and readers must not see that).
   */
  #firstUnstableOffset: number | undefined;
  #queue: PendingAppend[] = [];
  #writing = false;
  /** Resolved when the write in flight (an append group or a roll) is done. */
  #notWritingWaiters: (() => void)[] = [];
  #drainScheduled = false;
  #offline: StorageError | undefined;
  readonly #durability: DurabilityTracker;
  readonly #listeners = new Set<() => void>();
  #pendingSnapshot = false;

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
    // In standalone mode everything on disk at open is committed; replication sets it later.
    this.#highWatermark = this.#logEndOffset;
    this.#firstUnstableOffset = producerState.firstUnstableOffset();
    this.#durability = new DurabilityTracker(
      state.recoveryPoint,
      config,
      () => this.#logEndOffset,
      (error) => this.#goOffline(error),
    );
  }

  get logStartOffset(): number {
    return this.#logStartOffset;
  }

  get logEndOffset(): number {
    return this.#logEndOffset;
  }

  get highWatermark(): number {
    return this.#highWatermark;
  }

  /**
   * The last stable offset (LSO): every transaction below it is decided, so read_committed
   * consumers read up to here. The first offset of the earliest open transaction, bounded by the
   * high watermark, and never below the log start (DeleteRecords may pass an open transaction).
   */
  get lastStableOffset(): number {
    const unstable = this.#firstUnstableOffset;
    const stable = unstable === undefined ? this.#highWatermark : Math.min(unstable, this.#highWatermark);
    return Math.max(stable, this.#logStartOffset);
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
    return this.#offline !== undefined;
  }

  get offlineError(): StorageError | undefined {
    return this.#offline;
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
   * Calls `listener` after every change of the log end offset or high watermark; the last stable
   * offset only moves with them (markers are appends), so read_committed waiters wake too.
   */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * How many listeners are subscribed now: long-polling Fetches, which subscribe just before
   * their read and stay subscribed while parked. Read-only, for observability and for tests that
   * wait until a Fetch is parked instead of sleeping.
   */
  get subscriberCount(): number {
    return this.#listeners.size;
  }

  /**
   * Sets the high watermark (replication does this later). It never passes the log end offset.
   */
  setHighWatermark(offset: number): void {
    const bounded = Math.min(offset, this.#logEndOffset);
    if (bounded === this.#highWatermark) return;
    this.#highWatermark = bounded;
    this.#notify();
  }

  /**
   * Appends one RecordBatch v2. The batch is validated (CRC, sizes, producer sequence) and then
   * modified in place (base offset, leader epoch, append time) before it is written.
   */
  async append(batch: Buffer, options: AppendOptions): Promise<AppendResult> {
    this.#assertOnline();
    const header = validateBatch(batch, options.origin, this.config.maxMessageBytes);
    options.admit?.(header);
    return new Promise<AppendResult>((resolve, reject) => {
      this.#queue.push({ batch, header, options, resolve, reject });
      this.#scheduleDrain();
    });
  }

  /**
   * Starts draining after the current synchronous work, so appends issued together (a produce
   * request's partitions, appenders woken by the same completion) form one group and one write
   * instead of the first of them going out alone.
   */
  #scheduleDrain(): void {
    if (this.#drainScheduled) return;
    this.#drainScheduled = true;
    queueMicrotask(() => {
      this.#drainScheduled = false;
      void this.#drainQueue();
    });
  }

  async #drainQueue(): Promise<void> {
    if (this.#writing) return;
    this.#writing = true;
    try {
      while (this.#queue.length > 0 && !this.#offline) {
        const group = this.#queue.splice(0);
        await this.#writeGroup(group);
      }
    } finally {
      this.#setNotWriting();
    }
    if (this.#offline) this.#rejectQueued(this.#offline);
  }

  async #writeGroup(group: PendingAppend[]): Promise<void> {
    const nowMs = this.clock.nowMs();
    const { toWrite, completions, nextOffset, aborted } = prepareGroup(group, {
      producerState: this.producerState,
      timestampType: this.config.timestampType,
      nextOffset: this.#logEndOffset,
      nowMs,
    });
    try {
      await this.#writeWithRolls(toWrite, nowMs);
      // In the index before the markers are published, so no read can miss an aborted range.
      await indexAbortedTransactions(this.#segments, aborted);
    } catch (error) {
      const failure = this.#asStorageError(error);
      this.#goOffline(failure);
      for (const { item } of completions) item.reject(this.#storageFailure(failure));
      return;
    }
    if (nextOffset !== this.#logEndOffset) {
      // The producer state has seen every batch up to here, idempotent or not.
      this.producerState.advanceMapEndOffset(nextOffset);
      this.#logEndOffset = nextOffset;
      this.#highWatermark = nextOffset;
      this.#firstUnstableOffset = this.producerState.firstUnstableOffset();
      this.#durability.recordWrite(
        toWrite.reduce((total, batch) => total + batch.bytes.length, 0),
        toWrite.length,
      );
      this.#notify();
    }
    if (this.#pendingSnapshot) await this.#writeProducerSnapshot();
    for (const { item, result: prepared } of completions) {
      const result: AppendResult = { ...prepared, logStartOffset: this.#logStartOffset };
      if (!item.options.durable) {
        item.resolve(result);
        continue;
      }
      this.#durability.waitUntilFlushed(result.lastOffset + 1).then(
        () => item.resolve(result),
        (error: unknown) => item.reject(error),
      );
    }
  }

  /** Writes batches to the active segment, rolling first whenever the next batch would not fit. */
  async #writeWithRolls(batches: BatchToWrite[], nowMs: number): Promise<void> {
    let run: BatchToWrite[] = [];
    let runBytes = 0;
    for (const batch of batches) {
      if (this.#shouldRoll(runBytes, run.length, batch.bytes.length, nowMs)) {
        await this.#activeSegment.append(run, nowMs);
        this.#durability.markDirty(this.#activeSegment);
        await this.#roll(batch.baseOffset);
        run = [];
        runBytes = 0;
      }
      run.push(batch);
      runBytes += batch.bytes.length;
    }
    if (run.length === 0) return;
    await this.#activeSegment.append(run, nowMs);
    this.#durability.markDirty(this.#activeSegment);
  }

  #shouldRoll(runBytes: number, runCount: number, nextBytes: number, nowMs: number): boolean {
    const active = this.#activeSegment;
    if (active.isEmpty && runCount === 0) return false;
    if (active.sizeBytes + runBytes + nextBytes > this.config.segmentBytes) return true;
    if (active.indexEntriesLeft <= runCount + 1) return true;
    const firstAppend = active.firstAppendWallClockMs;
    return firstAppend !== undefined && nowMs - firstAppend >= this.config.segmentMs;
  }

  /** Closes the active segment for writing and starts a new one at `baseOffset`. */
  async #roll(baseOffset: number): Promise<void> {
    const previous = this.#activeSegment;
    const next = await SegmentClass.create(this.context, baseOffset);
    this.#segments.push(next);
    await previous.finishActive();
    // The producer state is snapshotted once the group that rolled is fully written, so the
    // snapshot's offset describes exactly the batches the state has seen.
    this.#pendingSnapshot = true;
  }

  /** Rolls now if the active segment is older than segment.ms (called by the log manager). */
  async rollIfExpired(): Promise<void> {
    if (this.#offline || this.#writing) return;
    const active = this.#activeSegment;
    const firstAppend = active.firstAppendWallClockMs;
    if (active.isEmpty || firstAppend === undefined) return;
    if (this.clock.nowMs() - firstAppend < this.config.segmentMs) return;
    this.#writing = true;
    try {
      await this.#roll(this.#logEndOffset);
      await this.#writeProducerSnapshot();
    } catch (error) {
      this.#goOffline(this.#asStorageError(error));
    } finally {
      this.#setNotWriting();
    }
    void this.#drainQueue();
  }

  async #writeProducerSnapshot(): Promise<void> {
    this.#pendingSnapshot = false;
    await writeSnapshot(this.context.io, this.context.directory, this.producerState);
  }

  /**
   * Reads whole batches starting with the one that contains `fetchOffset`, up to `maxBytes` (at
   * least one batch unless `minOneBatch` is false), never past `maxOffset` (default: the high
   * watermark, or the last stable offset for read_committed, which also gets the aborted
   * transactions overlapping the batches returned). An offset below the log start or above the
   * log end is OFFSET_OUT_OF_RANGE.
   */
  async read(fetchOffset: number, options: ReadOptions): Promise<ReadResult> {
    this.#assertOnline();
    const committed = options.isolation === 'read_committed';
    const defaultMax = committed ? this.lastStableOffset : this.#highWatermark;
    const maxOffset = Math.min(options.maxOffset ?? defaultMax, this.#logEndOffset);
    if (fetchOffset < this.#logStartOffset || fetchOffset > this.#logEndOffset) {
      throw new WeirError(ErrorCode.OFFSET_OUT_OF_RANGE, {
        detail: `offset ${fetchOffset} is outside ${this.#logStartOffset}..${this.#logEndOffset} of ${this.topic}-${this.partition}`,
      });
    }
    const records =
      fetchOffset >= maxOffset
        ? Buffer.alloc(0)
        : await this.#guardStorage(() => readWholeBatches(this.#segments, fetchOffset, maxOffset, options));
    // Entries are in the index before their markers are published, so those of every abort below
    // the LSO read above are there; later ones lie beyond what was returned.
    const upperBound = endOffsetOfBatches(records, fetchOffset);
    return {
      records,
      highWatermark: this.#highWatermark,
      lastStableOffset: this.lastStableOffset,
      logStartOffset: this.#logStartOffset,
      logEndOffset: this.#logEndOffset,
      abortedTransactions: committed
        ? collectAbortedTransactions(this.#segments, fetchOffset, upperBound)
        : undefined,
    };
  }

  #setNotWriting(): void {
    this.#writing = false;
    for (const resolve of this.#notWritingWaiters.splice(0)) resolve();
  }

  /** Waits until every append so far is on disk. */
  async flush(): Promise<void> {
    this.#assertOnline();
    await this.#durability.waitUntilFlushed(this.#logEndOffset);
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }

  #assertOnline(): void {
    if (this.#offline) throw this.#storageFailure(this.#offline);
  }

  #storageFailure(error: StorageError): WeirError {
    return new WeirError(ErrorCode.KAFKA_STORAGE_ERROR, {
      detail: `${this.topic}-${this.partition} is offline: ${error.message}`,
      cause: error,
    });
  }

  #asStorageError(error: unknown): StorageError {
    if (error instanceof StorageError) return error;
    // Anything else thrown while writing is a bug; it still must not leave the partition half-open.
    throw error;
  }

  #goOffline(error: StorageError): void {
    if (this.#offline) return;
    this.#offline = error;
    this.events.warn('partition log offline after a storage error', {
      topic: this.topic,
      partition: this.partition,
      operation: error.operation,
      path: error.path,
      errno: error.errno,
    });
    this.#durability.fail(this.#storageFailure(error));
    this.#rejectQueued(error);
    this.events.onOffline(error);
  }

  #rejectQueued(error: StorageError): void {
    for (const item of this.#queue.splice(0)) item.reject(this.#storageFailure(error));
  }

  /**
   * The first offset whose record timestamp is ≥ `targetMs`, below the high watermark (or the
   * given bound), or undefined when there is none.
   */
  async offsetForTimestamp(
    targetMs: number,
    maxOffset = this.#highWatermark,
  ): Promise<TimestampOffset | undefined> {
    this.#assertOnline();
    return this.#guardStorage(() =>
      findOffsetForTimestamp(this.#segments, targetMs, Math.min(maxOffset, this.#logEndOffset)),
    );
  }

  /**
   * Moves the log start offset up to `offset` (DeleteRecords): records below it are no longer
   * served, and whole segments below it are deleted. `offset` may not pass the high watermark.
   * Returns the new log start offset (the "low watermark").
   */
  async deleteRecordsBefore(offset: number): Promise<number> {
    this.#assertOnline();
    if (offset < 0 || offset > this.#highWatermark) {
      throw new WeirError(ErrorCode.OFFSET_OUT_OF_RANGE, {
        detail: `cannot delete records before ${offset}: the high watermark of ${this.topic}-${this.partition} is ${this.#highWatermark}`,
      });
    }
    if (offset > this.#logStartOffset) {
      this.#logStartOffset = offset;
      this.events.onLogStartOffsetChanged();
      await this.applyRetention();
      this.#notify();
    }
    return this.#logStartOffset;
  }

  /**
   * Deletes the oldest closed segments that retention.ms, retention.bytes or the log start offset
   * say must go, by renaming them to `.deleted` (unlinked after file.delete.delay.ms, or at the next
   * start), and advances the log start offset past them. Returns how many segments were deleted.
   */
  async applyRetention(): Promise<number> {
    if (this.#offline) return 0;
    const decision = segmentsToDelete(
      await this.#guardStorage(() => describeClosedSegments(this.#segments)),
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
    }
    for (const segment of doomed) {
      this.#durability.forget(segment);
      await this.#guardStorage(() => segment.renameFilesWithSuffix(DELETED_SUFFIX));
      this.events.scheduleDelete(segment, decision.reason ?? 'retention.ms');
    }
    await this.#guardStorage(() => deleteSnapshotsBelow(this.context.io, this.context.directory, newStart));
    return decision.count;
  }

  /**
   * Removes every batch at or above `offset` (a follower truncating a divergent tail). Whole
   * batches only: the new log end is the base offset of the batch that contained `offset`. The
   * producer state is rebuilt from the newest snapshot below the new end. Appends must not be in
   * flight; the replication layer guarantees that.
   */
  async truncateTo(offset: number): Promise<void> {
    this.#assertOnline();
    if (this.#writing || this.#queue.length > 0) throw new Error('truncateTo while appends are in flight');
    if (offset >= this.#logEndOffset) return;
    await this.#guardStorage(async () => {
      while (this.#segments.length > 1 && this.#activeSegment.baseOffset >= offset) {
        const removed = this.#segments.pop()!;
        this.#durability.forget(removed);
        await removed.delete();
      }
      await this.#activeSegment.truncateTo(offset);
      this.#logEndOffset = this.#activeSegment.nextOffset;
      this.#durability.truncateTo(this.#logEndOffset);
      this.#highWatermark = Math.min(this.#highWatermark, this.#logEndOffset);
      if (this.#logStartOffset > this.#logEndOffset) this.#logStartOffset = this.#logEndOffset;
      // The transaction indexes were cut with the segments; what is left is already indexed.
      await rebuildProducerState(this.context, this.#segments, this.producerState, this.#logEndOffset);
      this.#firstUnstableOffset = this.producerState.firstUnstableOffset();
    });
    this.#notify();
  }

  /**
   * Closes the log cleanly: waits for queued appends, flushes everything, writes the active
   * segment's indexes and a producer snapshot at the log end, so the next open scans nothing.
   */
  async close(): Promise<void> {
    // Wait for the write in flight to finish (awaiting an event, not spinning on microtasks, which
    // would starve the very I/O it waits for), then drain whatever is still queued.
    while (this.#writing || this.#queue.length > 0) {
      if (this.#writing) await new Promise<void>((resolve) => this.#notWritingWaiters.push(resolve));
      else await this.#drainQueue();
    }
    this.#durability.stop();
    if (this.#offline) return;
    await this.#guardStorage(async () => {
      await this.#durability.waitUntilFlushed(this.#logEndOffset);
      await this.#activeSegment.writeIndexes();
      await writeSnapshot(this.context.io, this.context.directory, this.producerState);
      for (const segment of this.#segments) await segment.close();
    });
  }

  /** Runs a disk operation; a storage error takes the partition offline and is rethrown as a code. */
  async #guardStorage<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof StorageError) {
        this.#goOffline(error);
        throw this.#storageFailure(error);
      }
      throw error;
    }
  }
}
