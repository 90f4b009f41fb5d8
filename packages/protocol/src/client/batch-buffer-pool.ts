/**
 * Full-size batch buffers that one producer reuses. At high rates every batch is about
 * `batchBytes`, and a fresh buffer of that size per batch is new memory each time: the pages are
 * faulted in and zeroed by the kernel as the records are copied in, and the garbage collector is
 * pushed by the external memory. Reusing the buffers of answered batches removes both (bench:broker,
 * SDK produce of 1 KiB records).
 *
 * Only buffers of exactly `bufferBytes` are kept, at most `maxBuffers` of them, so what the pool
 * holds is bounded by what the producer's own buffer allowed in flight.
 */
export class BatchBufferPool {
  readonly #free: Buffer[] = [];

  constructor(
    readonly bufferBytes: number,
    readonly maxBuffers: number,
  ) {}

  /**
   * A buffer for a batch expected to reach `capacityBytes`: a pooled one when that is more than
   * half the pooled size (a busy partition's batch), otherwise a fresh one of that size.
   */
  take(capacityBytes: number): Buffer {
    if (capacityBytes * 2 <= this.bufferBytes || capacityBytes > this.bufferBytes) {
      return Buffer.allocUnsafe(capacityBytes);
    }
    return this.#free.pop() ?? Buffer.allocUnsafe(this.bufferBytes);
  }

  /**
   * Gives back a buffer nothing refers to any more (its batch was answered, or compressed into
   * another buffer). Buffers of another size are left to the garbage collector.
   */
  give(buffer: Buffer): void {
    if (buffer.length === this.bufferBytes && this.#free.length < this.maxBuffers) this.#free.push(buffer);
  }

  /** Buffers held now. */
  get freeCount(): number {
    return this.#free.length;
  }
}
