/**
 * A view of `input` as a Buffer over the same memory, without copying. Decoders accept any
 * `Uint8Array` but use Buffer's big-endian readers internally.
 */
export function asBuffer(input: Uint8Array): Buffer {
  return Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
}
