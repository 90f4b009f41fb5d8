import { crc32c as nativeCrc32c } from '@node-rs/crc32';

/**
 * CRC-32C (Castagnoli), the checksum of Kafka RecordBatch v2.
 *
 * Node's built-in `zlib.crc32` computes IEEE CRC-32, a different polynomial, so it cannot be used
 * here. `@node-rs/crc32` uses the SSE4.2 / ARMv8 CRC instructions and runs at several GB/s, which is
 * what lets the broker check every produced batch on the hot path.
 *
 * Pass the result of a previous call as `previous` to checksum data that arrives in pieces:
 * `crc32c(b, crc32c(a))` equals `crc32c(concat(a, b))`. The result is an unsigned 32-bit integer.
 */
export function crc32c(bytes: Uint8Array, previous?: number): number {
  return nativeCrc32c(bytes, previous) >>> 0;
}
