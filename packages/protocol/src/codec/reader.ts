import { DecodeError } from './decode-error';

const textDecoder = new TextDecoder('utf-8');

/**
 * A bounds-checked cursor over a byte buffer, reading Kafka's big-endian primitives, varints and the
 * classic and compact (flexible) forms of strings, bytes and arrays.
 *
 * Every read checks that the bytes it needs are there and throws a {@link DecodeError} otherwise,
 * so a short or lying input can never make a decoder read outside its buffer. Byte fields are
 * returned as views into the input (no copy); callers that keep them past the input's lifetime copy.
 */
export class Reader {
  readonly #buffer: Buffer;
  readonly #end: number;
  #offset: number;

  constructor(input: Uint8Array, start = 0, end = input.length) {
    this.#buffer = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.length);
    if (start < 0 || end > input.length || start > end) {
      throw new DecodeError(
        'invalid-length',
        `reader window ${start}..${end} outside 0..${input.length}`,
        start,
      );
    }
    this.#offset = start;
    this.#end = end;
  }

  /** The position of the next byte to read, relative to the start of the underlying buffer. */
  get offset(): number {
    return this.#offset;
  }

  /** How many bytes are left before the end of this reader's window. */
  get remaining(): number {
    return this.#end - this.#offset;
  }

  /** The buffer this reader walks; useful for views that span fields (such as CRC ranges). */
  get buffer(): Buffer {
    return this.#buffer;
  }

  /** Fails unless `byteCount` more bytes are available. */
  require(byteCount: number): void {
    if (byteCount > this.#end - this.#offset) {
      throw new DecodeError(
        'truncated',
        `needed ${byteCount} bytes, ${this.#end - this.#offset} left`,
        this.#offset,
      );
    }
  }

  /** Fails unless every byte has been consumed. */
  expectEnd(what: string): void {
    if (this.#offset !== this.#end) {
      throw new DecodeError(
        'trailing-bytes',
        `${this.#end - this.#offset} bytes left after ${what}`,
        this.#offset,
      );
    }
  }

  skip(byteCount: number): void {
    this.require(byteCount);
    this.#offset += byteCount;
  }

  int8(): number {
    this.require(1);
    const value = this.#buffer.readInt8(this.#offset);
    this.#offset += 1;
    return value;
  }

  uint8(): number {
    this.require(1);
    const value = this.#buffer[this.#offset]!;
    this.#offset += 1;
    return value;
  }

  int16(): number {
    this.require(2);
    const value = this.#buffer.readInt16BE(this.#offset);
    this.#offset += 2;
    return value;
  }

  uint16(): number {
    this.require(2);
    const value = this.#buffer.readUInt16BE(this.#offset);
    this.#offset += 2;
    return value;
  }

  int32(): number {
    this.require(4);
    const value = this.#buffer.readInt32BE(this.#offset);
    this.#offset += 4;
    return value;
  }

  uint32(): number {
    this.require(4);
    const value = this.#buffer.readUInt32BE(this.#offset);
    this.#offset += 4;
    return value;
  }

  int64(): bigint {
    this.require(8);
    const value = this.#buffer.readBigInt64BE(this.#offset);
    this.#offset += 8;
    return value;
  }

  float64(): number {
    this.require(8);
    const value = this.#buffer.readDoubleBE(this.#offset);
    this.#offset += 8;
    return value;
  }

  bool(): boolean {
    return this.int8() !== 0;
  }

  /** A 16-byte UUID, returned as 32 lowercase hex digits with the usual dashes. */
  uuid(): string {
    this.require(16);
    const hex = this.#buffer.toString('hex', this.#offset, this.#offset + 16);
    this.#offset += 16;
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /** An unsigned LEB128 varint of at most 5 bytes (32 bits), as used by flexible lengths and tags. */
  uvarint(): number {
    // The first four bytes carry 28 bits, which integer operations handle exactly; staying in
    // small-integer arithmetic keeps V8 from turning the hot decode loops into float code.
    let result = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      if (this.#offset >= this.#end) throw new DecodeError('truncated', 'varint ends early', this.#offset);
      const byte = this.#buffer[this.#offset++]!;
      result |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
    }
    if (this.#offset >= this.#end) throw new DecodeError('truncated', 'varint ends early', this.#offset);
    const last = this.#buffer[this.#offset++]!;
    if (last > 0x0f) {
      throw new DecodeError('invalid-varint', 'unsigned varint exceeds 32 bits or 5 bytes', this.#offset - 1);
    }
    return result + last * 0x10000000;
  }

  /** A zigzag-encoded signed 32-bit varint, as used inside records. */
  varint(): number {
    const raw = this.uvarint();
    // Zigzag: even values are non-negative, odd values are negative.
    return (raw >>> 1) ^ -(raw & 1);
  }

  /** A zigzag-encoded signed 64-bit varint (up to 10 bytes). */
  varlong(): bigint {
    let result = 0n;
    let shift = 0n;
    for (let index = 0; index < 10; index++) {
      if (this.#offset >= this.#end) {
        throw new DecodeError('truncated', 'varlong ends early', this.#offset);
      }
      const byte = this.#buffer[this.#offset++]!;
      if (index === 9 && byte > 0x01) {
        throw new DecodeError('invalid-varint', 'varlong exceeds 64 bits', this.#offset - 1);
      }
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return (result >> 1n) ^ -(result & 1n);
      shift += 7n;
    }
    throw new DecodeError('invalid-varint', 'varlong longer than 10 bytes', this.#offset);
  }

  /**
   * A zigzag varlong returned as a number. Record timestamp and offset deltas fit easily in 53 bits;
   * a value that does not is rejected rather than silently rounded.
   */
  varlongNumber(): number {
    const start = this.#offset;
    // Fast path: up to 7 bytes hold 49 bits, which a double represents exactly.
    let raw = 0;
    let multiplier = 1;
    for (let index = 0; index < 7; index++) {
      if (this.#offset >= this.#end) {
        throw new DecodeError('truncated', 'varlong ends early', this.#offset);
      }
      const byte = this.#buffer[this.#offset++]!;
      raw += (byte & 0x7f) * multiplier;
      if ((byte & 0x80) === 0) return raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
      multiplier *= 128;
    }
    this.#offset = start;
    const value = this.varlong();
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw new DecodeError('invalid-varint', `varlong ${value} does not fit a safe integer`, start);
    }
    return Number(value);
  }

  /** Raw bytes as a view into the input. */
  raw(byteCount: number): Buffer {
    if (byteCount < 0) throw new DecodeError('invalid-length', `negative length ${byteCount}`, this.#offset);
    this.require(byteCount);
    const view = this.#buffer.subarray(this.#offset, this.#offset + byteCount);
    this.#offset += byteCount;
    return view;
  }

  #utf8(byteCount: number): string {
    this.require(byteCount);
    const text =
      byteCount < 48
        ? this.#buffer.toString('utf8', this.#offset, this.#offset + byteCount)
        : textDecoder.decode(this.#buffer.subarray(this.#offset, this.#offset + byteCount));
    this.#offset += byteCount;
    return text;
  }

  /** STRING: int16 length then UTF-8. A null (-1) is rejected. */
  string(): string {
    const at = this.#offset;
    const length = this.int16();
    if (length < 0)
      throw new DecodeError('invalid-length', `string length ${length} where null is not allowed`, at);
    return this.#utf8(length);
  }

  /** NULLABLE_STRING: int16 length, -1 for null. */
  nullableString(): string | null {
    const at = this.#offset;
    const length = this.int16();
    if (length === -1) return null;
    if (length < 0) throw new DecodeError('invalid-length', `string length ${length}`, at);
    return this.#utf8(length);
  }

  /** COMPACT_STRING: uvarint (length + 1). A null (0) is rejected. */
  compactString(): string {
    const at = this.#offset;
    const lengthPlusOne = this.uvarint();
    if (lengthPlusOne === 0)
      throw new DecodeError('invalid-length', 'compact string is null where not allowed', at);
    return this.#utf8(lengthPlusOne - 1);
  }

  /** COMPACT_NULLABLE_STRING: uvarint (length + 1), 0 for null. */
  compactNullableString(): string | null {
    const lengthPlusOne = this.uvarint();
    if (lengthPlusOne === 0) return null;
    return this.#utf8(lengthPlusOne - 1);
  }

  /** BYTES: int32 length then the bytes. A null (-1) is rejected. */
  bytes(): Buffer {
    const at = this.#offset;
    const length = this.int32();
    if (length < 0)
      throw new DecodeError('invalid-length', `bytes length ${length} where null is not allowed`, at);
    return this.raw(length);
  }

  /** NULLABLE_BYTES: int32 length, -1 for null. */
  nullableBytes(): Buffer | null {
    const at = this.#offset;
    const length = this.int32();
    if (length === -1) return null;
    if (length < 0) throw new DecodeError('invalid-length', `bytes length ${length}`, at);
    return this.raw(length);
  }

  /** COMPACT_BYTES: uvarint (length + 1). A null (0) is rejected. */
  compactBytes(): Buffer {
    const at = this.#offset;
    const lengthPlusOne = this.uvarint();
    if (lengthPlusOne === 0)
      throw new DecodeError('invalid-length', 'compact bytes are null where not allowed', at);
    return this.raw(lengthPlusOne - 1);
  }

  /** COMPACT_NULLABLE_BYTES: uvarint (length + 1), 0 for null. */
  compactNullableBytes(): Buffer | null {
    const lengthPlusOne = this.uvarint();
    if (lengthPlusOne === 0) return null;
    return this.raw(lengthPlusOne - 1);
  }

  /**
   * An int32 array count, -1 for null. A count larger than the bytes left is a lie (every element
   * takes at least one byte) and is rejected before anything is allocated for it.
   */
  arrayLength(): number | null {
    const at = this.#offset;
    const count = this.int32();
    if (count === -1) return null;
    this.#checkCount(count, at);
    return count;
  }

  /** A compact array count: uvarint (count + 1), 0 for null. */
  compactArrayLength(): number | null {
    const at = this.#offset;
    const countPlusOne = this.uvarint();
    if (countPlusOne === 0) return null;
    this.#checkCount(countPlusOne - 1, at);
    return countPlusOne - 1;
  }

  #checkCount(count: number, at: number): void {
    if (count < 0) throw new DecodeError('invalid-length', `array count ${count}`, at);
    if (count > this.#end - this.#offset) {
      throw new DecodeError(
        'invalid-length',
        `array count ${count} exceeds the ${this.remaining} bytes left`,
        at,
      );
    }
  }

  /**
   * A tagged-field section: uvarint count, then per field a uvarint tag, a uvarint size and the
   * bytes. Tags must be strictly increasing. Each field's bytes are passed to `onField`; fields the
   * caller does not know are skipped, as KIP-482 requires.
   */
  taggedFields(onField?: (tag: number, data: Reader) => void): void {
    const count = this.uvarint();
    let previousTag = -1;
    for (let index = 0; index < count; index++) {
      const at = this.#offset;
      const tag = this.uvarint();
      if (tag <= previousTag)
        throw new DecodeError('invalid-value', `tag ${tag} after tag ${previousTag}`, at);
      previousTag = tag;
      const size = this.uvarint();
      this.require(size);
      const fieldEnd = this.#offset + size;
      if (onField) {
        const fieldReader = new Reader(this.#buffer, this.#offset, fieldEnd);
        onField(tag, fieldReader);
      }
      this.#offset = fieldEnd;
    }
  }
}
