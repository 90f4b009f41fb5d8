/**
 * A request that cannot be answered yet: an acks=all produce waiting for its records to become
 * durable (and, with replication, to reach the in-sync replicas), or a long-polling fetch waiting
 * for data. It says itself whether it can complete now, and what it answers when its time is up.
 */
export interface DelayedOperation {
  /** Completes the operation (answers it) if it can; true when it did. Never throws. */
  tryComplete(): boolean;
  /** Answers the operation because its timeout passed first. Never throws. */
  onExpiration(): void;
}

/** A watched operation, to cancel it early (a fetch whose connection closed). */
export interface WatchedOperation {
  /** Forgets the operation without answering it; the caller answers. */
  cancel(): void;
}

interface Entry {
  readonly operation: DelayedOperation;
  readonly keys: readonly string[];
  timer: NodeJS.Timeout | undefined;
  done: boolean;
}

/**
 * The one place delayed work waits (Kafka's purgatory): operations are watched under the keys of
 * the partitions they wait on, re-checked whenever something about one of those partitions
 * changes (`checkAndComplete`), and expired after their timeout. Nothing polls.
 */
export class Purgatory {
  readonly #watching = new Map<string, Set<Entry>>();

  /**
   * Completes `operation` now if it can, else watches it under `keys` until a change completes it
   * or `timeoutMs` passes (never, when undefined).
   */
  watch(
    keys: readonly string[],
    operation: DelayedOperation,
    timeoutMs: number | undefined,
  ): WatchedOperation {
    const entry: Entry = { operation, keys, timer: undefined, done: false };
    if (operation.tryComplete()) return { cancel: () => {} };
    for (const key of keys) {
      let entries = this.#watching.get(key);
      if (entries === undefined) {
        entries = new Set();
        this.#watching.set(key, entries);
      }
      entries.add(entry);
    }
    if (timeoutMs !== undefined) {
      entry.timer = setTimeout(
        () => {
          if (this.#finish(entry)) operation.onExpiration();
        },
        Math.max(0, timeoutMs),
      );
    }
    return { cancel: () => this.#finish(entry) };
  }

  /** Re-checks every operation watched under `key`; returns how many completed. */
  checkAndComplete(key: string): number {
    const entries = this.#watching.get(key);
    if (entries === undefined) return 0;
    let completed = 0;
    for (const entry of [...entries]) {
      if (entry.done || !entry.operation.tryComplete()) continue;
      this.#finish(entry);
      completed += 1;
    }
    return completed;
  }

  /** How many operations wait on `key` now; for observability and tests that wait for a park. */
  watcherCount(key: string): number {
    return this.#watching.get(key)?.size ?? 0;
  }

  /** Expires every operation now (the broker is stopping): each gets its timeout answer. */
  expireAll(): void {
    const entries = new Set<Entry>();
    for (const watched of this.#watching.values()) for (const entry of watched) entries.add(entry);
    for (const entry of entries) if (this.#finish(entry)) entry.operation.onExpiration();
  }

  /** Marks an entry done and forgets it; false when it already was. */
  #finish(entry: Entry): boolean {
    if (entry.done) return false;
    entry.done = true;
    clearTimeout(entry.timer);
    for (const key of entry.keys) {
      const entries = this.#watching.get(key);
      entries?.delete(entry);
      if (entries?.size === 0) this.#watching.delete(key);
    }
    return true;
  }
}
