/**
 * Exact-size varint helpers for the record encoder.
 *
 * The batch encoder measures every record first and then writes into one preallocated buffer, so it
 * needs the size of a varint before writing it and a writer that does no capacity checks. The
 * general-purpose `Writer` in `codec/writer.ts` grows and validates on every call, which costs more than the
 * record itself for small records. Values are JavaScript numbers: varints (int32) and varlongs
 * whose values are safe integers share one code path, so the hot path never touches BigInt.
 */

const TWO_POW_31 = 0x80000000;

/** The zigzag mapping of a signed safe integer: 0, -1, 1, -2 … become 0, 1, 2, 3 …. */
export function zigzag(value: number): number {
  return value >= 0 ? value * 2 : -value * 2 - 1;
}

/** Bytes taken by the unsigned LEB128 encoding of a non-negative integer below 2^56. */
export function unsignedVarintSizeBytes(value: number): number {
  if (value < 0x80) return 1;
  if (value < 0x4000) return 2;
  if (value < 0x200000) return 3;
  if (value < 0x10000000) return 4;
  if (value < 0x800000000) return 5;
  if (value < 0x40000000000) return 6;
  if (value < 0x2000000000000) return 7;
  return 8;
}

/**
 * Bytes taken by a zigzag varint or varlong holding `value` (a safe integer). The zigzag value may
 * be rounded above 2^53, but the size boundaries (2^49, 2^56) are far from there, so the size is
 * exact.
 */
export function zigzagVarintSizeBytes(value: number): number {
  return unsignedVarintSizeBytes(zigzag(value));
}

/**
 * Writes the unsigned LEB128 encoding of `value` at `offset` and returns the offset after it.
 * The caller guarantees the room (see {@link unsignedVarintSizeBytes}).
 */
export function writeUnsignedVarint(buffer: Uint8Array, offset: number, value: number): number {
  let remaining = value;
  let at = offset;
  // Above 2^31 the bitwise operators would truncate, so the rare large values use arithmetic.
  while (remaining >= TWO_POW_31) {
    buffer[at++] = (remaining % 128) | 0x80;
    remaining = Math.floor(remaining / 128);
  }
  while (remaining >= 0x80) {
    buffer[at++] = (remaining & 0x7f) | 0x80;
    remaining >>>= 7;
  }
  buffer[at++] = remaining;
  return at;
}

/** Beyond this magnitude the zigzag value (2|v| or 2|v|-1) passes 2^53 and a double rounds it. */
const MAX_EXACT_ZIGZAG_MAGNITUDE = 2 ** 52 - 1;

/** Writes a zigzag varint or varlong holding the safe integer `value`; returns the next offset. */
export function writeZigzagVarint(buffer: Uint8Array, offset: number, value: number): number {
  if (value > MAX_EXACT_ZIGZAG_MAGNITUDE || value < -MAX_EXACT_ZIGZAG_MAGNITUDE) {
    return writeWideZigzagVarint(buffer, offset, BigInt(value));
  }
  return writeUnsignedVarint(buffer, offset, zigzag(value));
}

/** The exact (BigInt) path for the rare values whose zigzag form does not fit 53 bits. */
function writeWideZigzagVarint(buffer: Uint8Array, offset: number, value: bigint): number {
  let remaining = BigInt.asUintN(64, (value << 1n) ^ (value >> 63n));
  let at = offset;
  while (remaining >= 0x80n) {
    buffer[at++] = Number(remaining & 0x7fn) | 0x80;
    remaining >>= 7n;
  }
  buffer[at++] = Number(remaining);
  return at;
}
