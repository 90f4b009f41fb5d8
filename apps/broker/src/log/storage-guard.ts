import { ErrorCode, WeirError } from '@weir/protocol';
import type { Clock } from './partition-log-types';
import { StorageError } from './storage';

/**
 * What one partition's storage allows: everything (`online`), reads but no writes (`out-of-space`:
 * the file system refused a write for want of space or quota, and the log was rolled back to its
 * last complete batch), or nothing (`offline`: any other I/O error, or a roll-back that failed).
 */
export type StorageState = 'online' | 'out-of-space' | 'offline';

/** What can happen to a partition's storage. */
export type StorageEvent = 'space-exhausted' | 'space-available' | 'io-failed';

/**
 * The transitions of {@link StorageState}. Out of space passes once space is back; offline is
 * for good, until an operator repairs the partition and the broker restarts (docs/architecture.md §4).
 * An event a state has no entry for changes nothing.
 */
export const STORAGE_TRANSITIONS: Readonly<
  Record<StorageState, Readonly<Partial<Record<StorageEvent, StorageState>>>>
> = {
  online: { 'space-exhausted': 'out-of-space', 'io-failed': 'offline' },
  'out-of-space': { 'space-available': 'online', 'io-failed': 'offline' },
  offline: {},
};

/** What the guard tells its log when the state changes. */
export interface StorageGuardEvents {
  /** Called once, with the error that took the partition offline. */
  onOffline(error: StorageError): void;
  /** Called when a write failed for want of space and writes are refused from now on. */
  onOutOfSpace(error: StorageError): void;
  /** Called when writes are accepted again. */
  onWritable(): void;
}

/**
 * Whether one partition's storage is still usable. Out of space refuses writes with
 * KAFKA_STORAGE_ERROR (retriable: clients retry it) while reads go on; any other storage error
 * takes the partition offline, and from then on every operation is refused with
 * KAFKA_STORAGE_ERROR naming that error. Only this partition is affected; the rest of the broker
 * keeps serving.
 */
export class StorageGuard {
  #state: StorageState = 'online';
  /** The error that caused the current state; undefined while online. */
  #error: StorageError | undefined;
  #sinceMs = 0;

  constructor(
    private readonly topic: string,
    private readonly partition: number,
    private readonly events: StorageGuardEvents,
    private readonly clock: Clock = { nowMs: () => Date.now() },
  ) {}

  get state(): StorageState {
    return this.#state;
  }

  /** When the current state began (epoch milliseconds); 0 while it has always been online. */
  get sinceMs(): number {
    return this.#sinceMs;
  }

  /** The storage error that took the partition offline, if one did. */
  get offlineError(): StorageError | undefined {
    return this.#state === 'offline' ? this.#error : undefined;
  }

  /** The write that failed for want of space, while writes are refused for it. */
  get outOfSpaceError(): StorageError | undefined {
    return this.#state === 'out-of-space' ? this.#error : undefined;
  }

  /** Why writes are refused now (out of space or offline), or undefined when they are accepted. */
  get writeBlockedError(): StorageError | undefined {
    return this.#error;
  }

  /** Throws unless the partition can be read (it is not offline). */
  assertOnline(): void {
    const error = this.offlineError;
    if (error) throw this.failure(error);
  }

  /** Throws unless the partition accepts writes. */
  assertWritable(): void {
    const error = this.#error;
    if (error) throw this.failure(error);
  }

  /** The KAFKA_STORAGE_ERROR a request against the partition is answered with. */
  failure(error: StorageError): WeirError {
    const name = `${this.topic}-${this.partition}`;
    const detail = error.isOutOfSpace
      ? `${name} refuses writes until disk space is available again (${error.message}); reads are served`
      : `${name} is offline: ${error.message}`;
    return new WeirError(ErrorCode.KAFKA_STORAGE_ERROR, { detail, cause: error });
  }

  asStorageError(error: unknown): StorageError {
    if (error instanceof StorageError) return error;
    // Anything else thrown while writing is a bug; it still must not leave the partition half-open.
    throw error;
  }

  goOffline(error: StorageError): void {
    if (this.#apply('io-failed', error)) this.events.onOffline(error);
  }

  /** A write failed for want of space (and what it left was rolled back): refuse writes for now. */
  outOfSpace(error: StorageError): void {
    if (this.#apply('space-exhausted', error)) this.events.onOutOfSpace(error);
  }

  /** Space is available again: accept writes. Returns whether the state changed. */
  spaceAvailable(): boolean {
    if (!this.#apply('space-available', undefined)) return false;
    this.events.onWritable();
    return true;
  }

  /** Takes a failed operation's error to the state it calls for: out of space or offline. */
  note(error: StorageError): void {
    if (error.isOutOfSpace) this.outOfSpace(error);
    else this.goOffline(error);
  }

  /**
   * Runs a disk operation that leaves nothing half-done for the log to undo; a storage error moves
   * the state (out of space or offline) and is rethrown as a code.
   */
  async run<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof StorageError) {
        this.note(error);
        throw this.failure(error);
      }
      throw error;
    }
  }

  #apply(event: StorageEvent, error: StorageError | undefined): boolean {
    const next = STORAGE_TRANSITIONS[this.#state][event];
    if (next === undefined) return false;
    this.#state = next;
    this.#error = error;
    this.#sinceMs = this.clock.nowMs();
    return true;
  }
}
