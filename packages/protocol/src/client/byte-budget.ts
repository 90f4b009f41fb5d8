/**
 * A fixed number of bytes shared by waiters in arrival order: the producer's bounded buffer. A
 * `send` that does not fit waits until completed batches give bytes back, so a producer that
 * outruns its broker slows down instead of growing without bound.
 */
export class ByteBudget {
  readonly capacityBytes: number;
  #usedBytes = 0;
  readonly #waiters: { bytes: number; resolve: () => void; reject: (error: unknown) => void }[] = [];

  constructor(capacityBytes: number) {
    if (!Number.isSafeInteger(capacityBytes) || capacityBytes < 1) {
      throw new RangeError(`the buffer size must be a positive integer, got ${capacityBytes}`);
    }
    this.capacityBytes = capacityBytes;
  }

  /** Bytes currently taken. */
  get usedBytes(): number {
    return this.#usedBytes;
  }

  /** Takes `bytes` if they are free and nobody is waiting ahead; never waits. */
  tryAcquire(bytes: number): boolean {
    this.#check(bytes);
    if (this.#waiters.length > 0 || this.#usedBytes + bytes > this.capacityBytes) return false;
    this.#usedBytes += bytes;
    return true;
  }

  /** Takes `bytes`, waiting behind earlier callers until they are free. */
  acquire(bytes: number): Promise<void> {
    if (this.tryAcquire(bytes)) return Promise.resolve();
    return new Promise((resolve, reject) => this.#waiters.push({ bytes, resolve, reject }));
  }

  /** Gives bytes back and wakes the waiters that now fit, in order. */
  release(bytes: number): void {
    this.#usedBytes -= bytes;
    if (this.#usedBytes < 0)
      throw new Error(`byte budget released ${-this.#usedBytes} bytes more than taken`);
    while (this.#waiters.length > 0 && this.#usedBytes + this.#waiters[0]!.bytes <= this.capacityBytes) {
      const waiter = this.#waiters.shift()!;
      this.#usedBytes += waiter.bytes;
      waiter.resolve();
    }
  }

  /** Rejects every waiter, for shutdown. */
  rejectWaiters(error: unknown): void {
    for (const waiter of this.#waiters.splice(0)) waiter.reject(error);
  }

  #check(bytes: number): void {
    if (!Number.isSafeInteger(bytes) || bytes < 0 || bytes > this.capacityBytes) {
      // Callers check sizes against the capacity first; a request beyond it would wait forever.
      throw new RangeError(`cannot take ${bytes} bytes from a budget of ${this.capacityBytes}`);
    }
  }
}
