import type { FlushedPoint } from './flushed-point';
import type { LogConfig } from './log-config';
import type { Segment } from './segment';
import { StorageError } from './storage';

/**
 * Where the flushed point is recorded after each fdatasync round: `capture` says where the written
 * data ends (read when a round starts, like the offset it covers), `record` makes that durable.
 */
export interface FlushedPointRecorder {
  capture(): FlushedPoint;
  /** Records `point`, durably, with `confirmedOffset`: below it the data was on disk before. */
  record(point: FlushedPoint, confirmedOffset: number): Promise<void>;
}

/** What the tracker needs from its log. */
export interface DurabilityHost {
  /** One past the last offset written so far: what a flush round covers when there is no recorder. */
  writtenOffset(): number;
  /** A flush failed; the log goes offline. */
  onStorageError(error: StorageError): void;
  /** The flushed offset advanced. */
  onFlushed(): void;
}

interface FlushWaiter {
  offset: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Decides when a partition's written data is fdatasync'd and tells waiters when they are covered.
 * A flush runs when someone waits or asks for one, when `flush.messages` messages are unflushed,
 * or `flush.ms` after the first unflushed write. One flush covers everything written before it
 * started; data written while it runs waits for the next one, which starts as soon as it ends.
 * Every advance of the flushed offset is reported to the host's `onFlushed`. With a recorder, the new
 * flushed point is recorded durably before anyone hears of it, so no waiter is told its data is
 * durable before a restart would know it too (docs/architecture.md §4).
 */
export class DurabilityTracker {
  /** Offsets below this are on disk and, with a recorder, so is the flushed point saying so. */
  #flushedOffset: number;
  #unflushedMessages = 0;
  /** Created with the first write; a partition that is only opened never needs it. */
  #dirtySegments: Set<Segment> | undefined;
  #waiters: FlushWaiter[] = [];
  #flushInFlight: Promise<void> | undefined;
  #flushAgain = false;
  #timer: NodeJS.Timeout | undefined;
  #failure: unknown;

  constructor(
    flushedOffset: number,
    private readonly config: Pick<LogConfig, 'flushMessages' | 'flushMs'>,
    private readonly host: DurabilityHost,
    private readonly recorder?: FlushedPointRecorder,
  ) {
    this.#flushedOffset = flushedOffset;
  }

  /** Offsets below this are on disk. */
  get flushedOffset(): number {
    return this.#flushedOffset;
  }

  /** Notes that `segment` has data that is not yet fdatasync'd. */
  markDirty(segment: Segment): void {
    this.#dirtySegments ??= new Set();
    this.#dirtySegments.add(segment);
  }

  /** Counts a completed write and applies the flush policy. */
  recordWrite(_bytes: number, messageCount: number): void {
    this.#unflushedMessages += messageCount;
    if (this.#unflushedMessages >= this.config.flushMessages) {
      void this.#requestFlush();
      return;
    }
    if (this.#timer === undefined && Number.isFinite(this.config.flushMs)) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        void this.#requestFlush();
      }, this.config.flushMs);
      // A pending flush must not keep a process alive that is otherwise done.
      this.#timer.unref();
    }
  }

  /** Resolves once everything below `offset` is on disk, flushing now if needed. */
  waitUntilFlushed(offset: number): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (offset <= this.#flushedOffset) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.#waiters.push({ offset, resolve, reject });
      void this.#requestFlush();
    });
  }

  /** Starts a flush now when written data is not on disk yet; does not wait for it. */
  requestFlush(): void {
    if (this.#failure || this.host.writtenOffset() <= this.#flushedOffset) return;
    void this.#requestFlush();
  }

  /** Forgets a segment that was deleted (truncation, retention) so it is not flushed. */
  forget(segment: Segment): void {
    this.#dirtySegments?.delete(segment);
  }

  /** Starts over at `offset` with nothing written: the log was emptied and begins again there. */
  restartAt(offset: number): void {
    this.#dirtySegments?.clear();
    this.#flushedOffset = offset;
  }

  /** Lowers the flushed offset after a truncation removed data. */
  truncateTo(offset: number): void {
    this.#flushedOffset = Math.min(this.#flushedOffset, offset);
  }

  /** Fails every waiter and refuses new ones: the partition went offline. */
  fail(error: unknown): void {
    this.#failure = error;
    this.#clearTimer();
    for (const waiter of this.#waiters.splice(0)) waiter.reject(error);
  }

  /** Stops the timer (on close); data still unflushed is flushed by the caller. */
  stop(): void {
    this.#clearTimer();
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #requestFlush(): Promise<void> {
    if (this.#flushInFlight) {
      this.#flushAgain = true;
      return this.#flushInFlight;
    }
    this.#flushInFlight = this.#flushLoop().finally(() => {
      this.#flushInFlight = undefined;
    });
    return this.#flushInFlight;
  }

  async #flushLoop(): Promise<void> {
    do {
      this.#flushAgain = false;
      if (this.#failure) return;
      // Only writes that completed before this point are covered by the fdatasync below.
      const covered = this.recorder?.capture();
      const coveredOffset = covered?.offset ?? this.host.writtenOffset();
      const segments = [...(this.#dirtySegments ?? [])];
      this.#dirtySegments?.clear();
      this.#unflushedMessages = 0;
      this.#clearTimer();
      // The point is recorded beside the data it covers, with the point before it, whose data is
      // known to be on disk already, as confirmed: recording then adds no second disk flush to an
      // acknowledgement. Recovery tells a torn last round apart from damaged data (log-loader.ts).
      const recording =
        covered !== undefined && coveredOffset > this.#flushedOffset
          ? this.recorder!.record(covered, this.#flushedOffset)
          : undefined;
      try {
        // Side by side (after a roll, the old segment's tail and the new one): the fdatasyncs are
        // independent and nothing is counted durable before all of them are done.
        await Promise.all([...segments.map((segment) => segment.flush()), recording]);
      } catch (error) {
        if (error instanceof StorageError) {
          this.host.onStorageError(error);
          return;
        }
        throw error;
      }
      this.#advance(coveredOffset);
    } while (
      this.#flushAgain ||
      this.#waiters.some(
        (waiter) => waiter.offset > this.#flushedOffset && (this.#dirtySegments?.size ?? 0) > 0,
      )
    );
  }

  #advance(offset: number): void {
    if (offset > this.#flushedOffset) {
      this.#flushedOffset = offset;
      this.host.onFlushed();
    }
    this.#resolveCovered();
  }

  #resolveCovered(): void {
    const stillWaiting: FlushWaiter[] = [];
    for (const waiter of this.#waiters) {
      if (waiter.offset <= this.#flushedOffset) waiter.resolve();
      else stillWaiting.push(waiter);
    }
    this.#waiters = stillWaiting;
  }
}
