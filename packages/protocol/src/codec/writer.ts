import type { DeferredBytes } from './deferred-bytes';

const INITIAL_CAPACITY_BYTES = 256;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * A growable big-endian byte buffer with the writes that mirror {@link Reader}. It doubles its
 * capacity when full, so encoding a message costs amortised O(size) with few allocations; `finish`
 * returns a view of the bytes written (no copy).
 */
export class Writer {
  #buffer: Buffer;
  #offset = 0;

  constructor(initialCapacityBytes = INITIAL_CAPACITY_BYTES) {
    this.#buffer = Buffer.allocUnsafe(Math.max(16, initialCapacityBytes));
  }

  /** How many bytes have been written. */
  get length(): number {
    return this.#offset;
  }

  /** Makes room for `byteCount` more bytes. */
  ensure(byteCount: number): void {
    const needed = this.#offset + byteCount;
    if (needed <= this.#buffer.length) return;
    let capacity = this.#buffer.length * 2;
    while (capacity < needed) capacity *= 2;
    const grown = Buffer.allocUnsafe(capacity);
    this.#buffer.copy(grown, 0, 0, this.#offset);
    this.#buffer = grown;
  }

  /** The bytes written so far, as a view into the internal buffer. */
  finish(): Buffer {
    return this.#buffer.subarray(0, this.#offset);
  }

  int8(value: number): this {
    this.ensure(1);
    this.#buffer.writeInt8(value, this.#offset);
    this.#offset += 1;
    return this;
  }

  uint8(value: number): this {
    this.ensure(1);
    this.#buffer[this.#offset++] = value & 0xff;
    return this;
  }

  int16(value: number): this {
    this.ensure(2);
    this.#buffer.writeInt16BE(value, this.#offset);
    this.#offset += 2;
    return this;
  }

  uint16(value: number): this {
    this.ensure(2);
    this.#buffer.writeUInt16BE(value, this.#offset);
    this.#offset += 2;
    return this;
  }

  int32(value: number): this {
    this.ensure(4);
    this.#buffer.writeInt32BE(value, this.#offset);
    this.#offset += 4;
    return this;
  }

  uint32(value: number): this {
    this.ensure(4);
    this.#buffer.writeUInt32BE(value, this.#offset);
    this.#offset += 4;
    return this;
  }

  int64(value: bigint): this {
    this.ensure(8);
    this.#buffer.writeBigInt64BE(value, this.#offset);
    this.#offset += 8;
    return this;
  }

  float64(value: number): this {
    this.ensure(8);
    this.#buffer.writeDoubleBE(value, this.#offset);
    this.#offset += 8;
    return this;
  }

  bool(value: boolean): this {
    return this.int8(value ? 1 : 0);
  }

  /** A UUID given as 32 hex digits, with or without dashes. */
  uuid(value: string): this {
    const hex = value.replaceAll('-', '');
    if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new RangeError(`not a UUID: ${value}`);
    this.ensure(16);
    this.#buffer.write(hex, this.#offset, 16, 'hex');
    this.#offset += 16;
    return this;
  }

  /** Unsigned LEB128 varint of a value in 0..2^32-1. */
  uvarint(value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
      throw new RangeError(`uvarint out of range: ${value}`);
    }
    this.ensure(5);
    let remaining = value;
    while (remaining >= 0x80) {
      this.#buffer[this.#offset++] = (remaining & 0x7f) | 0x80;
      remaining = Math.floor(remaining / 128);
    }
    this.#buffer[this.#offset++] = remaining;
    return this;
  }

  /** Zigzag signed 32-bit varint. */
  varint(value: number): this {
    if (!Number.isInteger(value) || value < -0x80000000 || value > 0x7fffffff) {
      throw new RangeError(`varint out of range: ${value}`);
    }
    return this.uvarint(value >= 0 ? value * 2 : -value * 2 - 1);
  }

  /** Zigzag signed 64-bit varint. */
  varlong(value: bigint): this {
    // Without this check a value outside int64 would wrap silently into a different number.
    if (value < INT64_MIN || value > INT64_MAX) throw new RangeError(`varlong out of range: ${value}`);
    let zigzag = BigInt.asUintN(64, (value << 1n) ^ (value >> 63n));
    this.ensure(10);
    while (zigzag >= 0x80n) {
      this.#buffer[this.#offset++] = Number(zigzag & 0x7fn) | 0x80;
      zigzag >>= 7n;
    }
    this.#buffer[this.#offset++] = Number(zigzag);
    return this;
  }

  /** Zigzag varlong from a safe integer, without going through BigInt (the record hot path). */
  varlongNumber(value: number): this {
    if (!Number.isSafeInteger(value)) throw new RangeError(`varlong value is not a safe integer: ${value}`);
    // Below -2^52 the zigzag value is an odd number above 2^53, which a double cannot hold exactly;
    // those rare values take the exact BigInt path.
    if (value < -(2 ** 52)) return this.varlong(BigInt(value));
    let zigzag = value >= 0 ? value * 2 : -value * 2 - 1;
    this.ensure(10);
    while (zigzag >= 0x80) {
      this.#buffer[this.#offset++] = (zigzag % 128) | 0x80;
      zigzag = Math.floor(zigzag / 128);
    }
    this.#buffer[this.#offset++] = zigzag;
    return this;
  }

  /**
   * Bytes whose content is read when the frame is written. A frame built as one buffer cannot hold
   * them; only the frame-parts writer (message-codec.ts) can.
   */
  deferred(bytes: DeferredBytes): this {
    throw new TypeError(`${bytes.length} deferred bytes can only be encoded as frame parts`);
  }

  /** Raw bytes, copied in. */
  raw(bytes: Uint8Array): this {
    this.ensure(bytes.length);
    this.#buffer.set(bytes, this.#offset);
    this.#offset += bytes.length;
    return this;
  }

  #utf8(value: string, lengthPrefix: (byteLength: number) => void): this {
    const byteLength = Buffer.byteLength(value, 'utf8');
    lengthPrefix(byteLength);
    this.ensure(byteLength);
    this.#buffer.write(value, this.#offset, byteLength, 'utf8');
    this.#offset += byteLength;
    return this;
  }

  /** STRING: int16 length then UTF-8. */
  string(value: string): this {
    return this.#utf8(value, (byteLength) => {
      if (byteLength > 0x7fff) throw new RangeError(`string of ${byteLength} bytes exceeds the int16 length`);
      this.int16(byteLength);
    });
  }

  nullableString(value: string | null): this {
    return value === null ? this.int16(-1) : this.string(value);
  }

  compactString(value: string): this {
    return this.#utf8(value, (byteLength) => this.uvarint(byteLength + 1));
  }

  compactNullableString(value: string | null): this {
    return value === null ? this.uvarint(0) : this.compactString(value);
  }

  bytes(value: Uint8Array): this {
    return this.int32(value.length).raw(value);
  }

  nullableBytes(value: Uint8Array | null): this {
    return value === null ? this.int32(-1) : this.bytes(value);
  }

  compactBytes(value: Uint8Array): this {
    return this.uvarint(value.length + 1).raw(value);
  }

  /** BYTES or COMPACT_BYTES (by `flexible`) whose content is written later. */
  deferredBytes(value: DeferredBytes, flexible: boolean): this {
    return (flexible ? this.uvarint(value.length + 1) : this.int32(value.length)).deferred(value);
  }

  compactNullableBytes(value: Uint8Array | null): this {
    return value === null ? this.uvarint(0) : this.compactBytes(value);
  }

  arrayLength(count: number | null): this {
    return this.int32(count === null ? -1 : count);
  }

  compactArrayLength(count: number | null): this {
    return this.uvarint(count === null ? 0 : count + 1);
  }

  /** An empty tagged-field section. */
  emptyTaggedFields(): this {
    return this.uint8(0);
  }

  /**
   * Reserves an int32 to be filled in later (a length prefix whose value is known only after the
   * body is written) and returns its position for {@link patchInt32}.
   */
  reserveInt32(): number {
    this.ensure(4);
    const at = this.#offset;
    this.#offset += 4;
    return at;
  }

  patchInt32(at: number, value: number): this {
    this.#buffer.writeInt32BE(value, at);
    return this;
  }

  patchUInt32(at: number, value: number): this {
    this.#buffer.writeUInt32BE(value, at);
    return this;
  }
}
