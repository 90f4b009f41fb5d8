import type { CompressionType } from '../batch-attributes';

/**
 * One compression codec for the records section of a RecordBatch.
 *
 * The API is synchronous on purpose. The broker's hot path never compresses or decompresses (it
 * stores batches as they arrive); only the SDK does, one batch at a time, and a batch is bounded
 * by `max.message.bytes` (1 MiB by default). At that size a synchronous native call costs tens to
 * hundreds of microseconds, about what the thread-pool round trip of an async call would add, and
 * zstd-napi has no async one-shot API at all. A sync API also keeps batch encode and decode plain
 * functions that return a value or a `DecodeResult`, with no promise plumbing through every caller.
 * A caller that must not block its event loop can run encode/decode in a worker thread.
 */
export interface CompressionCodec {
  readonly type: CompressionType;
  /** Compresses `input` into a new buffer in the format Kafka clients expect for this codec. */
  compress(input: Uint8Array): Buffer;
  /**
   * Decompresses `input`. Throws (any error) on corrupt, truncated or oversized input; the
   * callers turn that into a `'decompression-failed'` decode error. Output larger than
   * `maxOutputBytes` is refused before or while it is produced, so a small lying input cannot make
   * the process allocate gigabytes.
   */
  decompress(input: Uint8Array, maxOutputBytes: number): Buffer;
}

/**
 * The default cap on the decompressed size of one batch's records. Kafka's own limits are on
 * compressed sizes; this only exists to stop decompression bombs, so it is generous.
 */
export const DEFAULT_MAX_DECOMPRESSED_BYTES = 128 * 1024 * 1024;

/** Throws when a codec produced (or announced) more than the caller allows. */
export function checkOutputSize(sizeBytes: number, maxOutputBytes: number): void {
  if (sizeBytes > maxOutputBytes) {
    throw new RangeError(`decompressed size ${sizeBytes} exceeds the limit of ${maxOutputBytes} bytes`);
  }
}
