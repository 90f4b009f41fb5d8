/**
 * The bytes of requests that connections have read from their sockets and not yet handed to the
 * dispatcher: incomplete frames in their decoders and complete frames waiting their turn. One
 * tally per broker, for the `weir_request_buffered_bytes` gauge, with its high-water mark, so an
 * operator (and a test) can see what unanswered input costs in memory without reading RSS.
 */
export class HeldRequestBytes {
  #bytes = 0;
  #peakBytes = 0;

  /** Bytes held now, over every connection. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The most ever held at once since the broker started. */
  get peakBytes(): number {
    return this.#peakBytes;
  }

  /** Applies one connection's change; each connection reports its own deltas and returns to 0. */
  change(deltaBytes: number): void {
    this.#bytes += deltaBytes;
    if (this.#bytes < 0) throw new Error(`held request bytes went negative (${this.#bytes})`);
    if (this.#bytes > this.#peakBytes) this.#peakBytes = this.#bytes;
  }
}
