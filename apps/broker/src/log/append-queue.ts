import type { PendingAppend, PreparedGroup } from './append-group';
import type { AppendResult } from './partition-log-types';
import type { StorageError } from './storage';

/** What the queue needs from its partition log. */
export interface AppendQueueHost {
  /** Writes one group of appends and answers or rejects each of them. */
  writeGroup(group: PendingAppend[]): Promise<void>;
  /** Why the partition refuses writes now (offline, or out of space), if it does. */
  writeBlockedError(): StorageError | undefined;
  /** The error an append is rejected with while writes are refused. */
  failure(error: StorageError): Error;
}

/**
 * Serializes one partition's writes. Whatever queues up while a write is in flight goes out as the
 * next group, so appends issued together share one `writev`. A roll is also a write: it holds the
 * queue the same way, so no group is written into a segment that is being closed.
 */
export class AppendQueue {
  #queue: PendingAppend[] = [];
  #writing = false;
  /** Resolved when the write in flight (an append group or a roll) is done. */
  #notWritingWaiters: (() => void)[] = [];
  #drainScheduled = false;

  constructor(private readonly host: AppendQueueHost) {}

  /** Whether a write (an append group or a roll) is in flight. */
  get writing(): boolean {
    return this.#writing;
  }

  /** Whether a write is in flight or appends are waiting for one. */
  get busy(): boolean {
    return this.#writing || this.#queue.length > 0;
  }

  /** Queues an append; it is written with the next group. */
  enqueue(item: PendingAppend): void {
    this.#queue.push(item);
    this.#scheduleDrain();
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
      void this.drain();
    });
  }

  /** Writes queued groups until the queue is empty or the partition refuses writes. */
  async drain(): Promise<void> {
    if (this.#writing) return;
    this.#writing = true;
    try {
      while (this.#queue.length > 0 && !this.host.writeBlockedError()) {
        const group = this.#queue.splice(0);
        await this.host.writeGroup(group);
      }
    } finally {
      this.#setNotWriting();
    }
    const blocked = this.host.writeBlockedError();
    if (blocked) this.rejectQueued(blocked);
  }

  /**
   * Marks a write that is not an append group (a roll) as in flight; `endWrite` must follow. The
   * caller checks `writing` first, so this never overlaps a group.
   */
  beginWrite(): void {
    this.#writing = true;
  }

  /** Ends a write started with `beginWrite` and wakes whoever waits for the queue to be idle. */
  endWrite(): void {
    this.#setNotWriting();
  }

  #setNotWriting(): void {
    this.#writing = false;
    for (const resolve of this.#notWritingWaiters.splice(0)) resolve();
  }

  /** Rejects every queued append (not yet written) with the partition's storage failure. */
  rejectQueued(error: StorageError): void {
    for (const item of this.#queue.splice(0)) item.reject(this.host.failure(error));
  }

  /** Waits until no write is in flight and nothing is queued, writing what is still queued. */
  async settle(): Promise<void> {
    // Wait for the write in flight to finish (awaiting an event, not spinning on microtasks, which
    // would starve the very I/O it waits for), then drain whatever is still queued.
    while (this.#writing || this.#queue.length > 0) {
      if (this.#writing) await new Promise<void>((resolve) => this.#notWritingWaiters.push(resolve));
      else await this.drain();
    }
  }
}

/**
 * Answers the appends of a group that has been written. Durability is the caller's to wait for
 * (the replica layer's purgatory), so every append is answered now.
 */
export function answerWrittenAppends(
  completions: PreparedGroup['completions'],
  logStartOffset: number,
): void {
  for (const { item, result: prepared } of completions) {
    const result: AppendResult = { ...prepared, logStartOffset };
    item.resolve(result);
  }
}
