import { ErrorCode, WeirError } from '@weir/protocol';
import { StorageError } from './storage';

/**
 * Whether one partition's storage is still usable. The first storage error takes the partition
 * offline, and from then on every operation is refused with KAFKA_STORAGE_ERROR naming that error.
 * Only this partition goes offline; the rest of the broker keeps serving.
 */
export class StorageGuard {
  #offline: StorageError | undefined;

  constructor(
    private readonly topic: string,
    private readonly partition: number,
    /** Called once, with the error that took the partition offline. */
    private readonly onOffline: (error: StorageError) => void,
  ) {}

  /** The storage error that took the partition offline, if one did. */
  get offlineError(): StorageError | undefined {
    return this.#offline;
  }

  assertOnline(): void {
    if (this.#offline) throw this.failure(this.#offline);
  }

  /** The KAFKA_STORAGE_ERROR a request against the offline partition is answered with. */
  failure(error: StorageError): WeirError {
    return new WeirError(ErrorCode.KAFKA_STORAGE_ERROR, {
      detail: `${this.topic}-${this.partition} is offline: ${error.message}`,
      cause: error,
    });
  }

  asStorageError(error: unknown): StorageError {
    if (error instanceof StorageError) return error;
    // Anything else thrown while writing is a bug; it still must not leave the partition half-open.
    throw error;
  }

  goOffline(error: StorageError): void {
    if (this.#offline) return;
    this.#offline = error;
    this.onOffline(error);
  }

  /** Runs a disk operation; a storage error takes the partition offline and is rethrown as a code. */
  async run<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof StorageError) {
        this.goOffline(error);
        throw this.failure(error);
      }
      throw error;
    }
  }
}
