/**
 * Bytes of a known length whose content is read only when they are written: a Fetch answer's
 * stored record batches served from their segment file as the socket drains, instead of being read
 * into memory whole before the answer goes out. Only the frame-parts encoder accepts them (a
 * frame built as one buffer would have to read them all first, which is what they exist to avoid).
 */
export interface DeferredBytes {
  /** Tells deferred bytes from a byte array without a class check across packages. */
  readonly deferred: true;
  readonly length: number;
  /**
   * Reads up to `maxBytes` of the content from `fromByte` on. Fewer bytes than asked for (other than
   * at the end) mean the content is gone; the writer then cannot finish the frame. With `into` (at
   * least `maxBytes` long) the bytes are read into it and a view of it is returned, so a writer can
   * reuse one buffer for every chunk instead of allocating each.
   */
  read(fromByte: number, maxBytes: number, into?: Uint8Array): Promise<Uint8Array>;
  /** Frees what holds the content (an open file); called once, whether or not it was written. */
  release(): void;
}

/** One piece of an encoded frame: bytes to write as they are, or bytes to read as they are written. */
export type FramePart = Uint8Array | DeferredBytes;

export function isDeferredBytes(value: unknown): value is DeferredBytes {
  return typeof value === 'object' && value !== null && (value as { deferred?: unknown }).deferred === true;
}
