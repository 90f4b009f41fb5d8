/** Pieces at least this large are kept as views of the chunk they arrived in, not copied. */
const MIN_VIEW_BYTES = 4 * 1024;
/** Smaller pieces are copied into buffers of this size (or what is left of the frame, if less). */
const SMALL_PIECES_BUFFER_BYTES = 16 * 1024;

/**
 * The body of one frame that arrives over several chunks, collected as it comes and copied into
 * one buffer only once it is complete. Growing a single buffer instead (doubling it as bytes
 * arrive) copied a large frame about twice and allocated about 2.5 times its size in fresh pages,
 * and for a Fetch answer of megabytes that page faulting and copying was a large part of a
 * consumer's work.
 *
 * Memory still follows what the peer has actually sent, never what its size prefix claims: large
 * pieces are views of received chunks, and small ones are copied into shared buffers, so a peer
 * that sends a frame a byte at a time costs bytes, not an object per byte.
 */
export class FrameAssembly {
  readonly #parts: Buffer[] = [];
  #small: Buffer | undefined;
  /** `#small` holds pieces in [#smallStart, #smallEnd) not yet in `#parts`. */
  #smallStart = 0;
  #smallEnd = 0;
  #bytes = 0;

  constructor(private readonly frameBytes: number) {}

  /** Body bytes received so far. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Takes `input[start, end)` as the next bytes of the body; the caller must not change `input`
   * afterwards (a view of it may be kept). Returns the body once it is complete.
   */
  add(input: Buffer, start: number, end: number): Buffer | undefined {
    const length = end - start;
    if (length >= MIN_VIEW_BYTES) {
      this.#flushSmall();
      this.#parts.push(input.subarray(start, end));
    } else if (length > 0) {
      this.#copySmall(input, start, end);
    }
    this.#bytes += length;
    if (this.#bytes < this.frameBytes) return undefined;
    this.#flushSmall();
    return this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts, this.frameBytes);
  }

  #copySmall(input: Buffer, start: number, end: number): void {
    const length = end - start;
    if (this.#small === undefined || this.#small.length - this.#smallEnd < length) {
      this.#flushSmall();
      const remaining = this.frameBytes - this.#bytes;
      this.#small = Buffer.allocUnsafe(Math.min(remaining, Math.max(SMALL_PIECES_BUFFER_BYTES, length)));
      this.#smallStart = 0;
      this.#smallEnd = 0;
    }
    input.copy(this.#small, this.#smallEnd, start, end);
    this.#smallEnd += length;
  }

  /** Moves the small pieces copied so far into `#parts`, keeping their place in the order. */
  #flushSmall(): void {
    if (this.#small === undefined || this.#smallEnd === this.#smallStart) return;
    this.#parts.push(this.#small.subarray(this.#smallStart, this.#smallEnd));
    this.#smallStart = this.#smallEnd;
  }
}
