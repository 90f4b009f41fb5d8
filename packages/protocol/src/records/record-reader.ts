import { DecodeError } from '../codec/decode-error';

/**
 * A bounds-checked cursor specialised for the record section of a batch: zigzag varints, varlongs
 * returned as numbers, and byte views.
 *
 * The general `Reader` in `codec/reader.ts` decodes varints with floating-point arithmetic, so its
 * position can hold a non-Smi number, and V8 then boxes the field and slows every later read; in a
 * record loop that cost dominated decoding. This cursor keeps its position a small integer (all
 * arithmetic on it is int32) and decodes varints of up to 28 bits, which covers every length and
 * nearly every delta, with integer operations only. Checks and error kinds are the same as the
 * Reader's.
 */
export class RecordReader {
  readonly buffer: Buffer;
  readonly end: number;
  position: number;

  constructor(buffer: Buffer, start: number, end: number) {
    this.buffer = buffer;
    this.position = start | 0;
    this.end = end | 0;
  }

  get remaining(): number {
    return this.end - this.position;
  }

  int8(): number {
    const at = this.position;
    if (at >= this.end) throw new DecodeError('truncated', 'needed 1 byte, 0 left', at);
    this.position = at + 1;
    return (this.buffer[at]! << 24) >> 24;
  }

  /** A zigzag-encoded signed 32-bit varint. */
  varint(): number {
    const buffer = this.buffer;
    const end = this.end;
    let at = this.position;
    let raw = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (at >= end) throw new DecodeError('truncated', 'varint ends early', at);
      const byte = buffer[at++]!;
      if (shift === 28 && byte > 0x0f)
        throw new DecodeError('invalid-varint', 'varint exceeds 32 bits', at - 1);
      raw |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        this.position = at;
        // `raw` holds the 32 zigzag bits (possibly as a negative int32); undo zigzag in int32.
        return (raw >>> 1) ^ -(raw & 1);
      }
    }
    throw new DecodeError('invalid-varint', 'varint longer than 5 bytes', at);
  }

  /**
   * A zigzag-encoded varlong as a number. Values that are not safe integers are rejected rather
   * than rounded (record deltas never come close).
   */
  varlongNumber(): number {
    const buffer = this.buffer;
    const end = this.end;
    const start = this.position;
    let at = start;
    let raw = 0;
    // Up to four bytes (28 bits) in int32 arithmetic: the common case for timestamp deltas.
    for (let shift = 0; shift < 28; shift += 7) {
      if (at >= end) throw new DecodeError('truncated', 'varlong ends early', at);
      const byte = buffer[at++]!;
      raw |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        this.position = at;
        return (raw >>> 1) ^ -(raw & 1);
      }
    }
    // Longer values: exact BigInt arithmetic over at most 10 bytes.
    let wide = BigInt(raw);
    for (let shift = 28n; shift < 70n; shift += 7n) {
      if (at >= end) throw new DecodeError('truncated', 'varlong ends early', at);
      const byte = buffer[at++]!;
      if (shift === 63n && byte > 0x01)
        throw new DecodeError('invalid-varint', 'varlong exceeds 64 bits', at - 1);
      wide |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) {
        const value = (wide >> 1n) ^ -(wide & 1n);
        if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
          throw new DecodeError('invalid-varint', `varlong ${value} does not fit a safe integer`, start);
        }
        this.position = at;
        return Number(value);
      }
    }
    throw new DecodeError('invalid-varint', 'varlong longer than 10 bytes', at);
  }

  /** `byteCount` bytes as a view into the buffer. */
  raw(byteCount: number): Buffer {
    const at = this.position;
    if (byteCount < 0) throw new DecodeError('invalid-length', `negative length ${byteCount}`, at);
    if (byteCount > this.end - at) {
      throw new DecodeError('truncated', `needed ${byteCount} bytes, ${this.end - at} left`, at);
    }
    this.position = at + byteCount;
    return this.buffer.subarray(at, at + byteCount);
  }

  /** A zigzag varint length then that many bytes; -1 means null. */
  nullableBytes(what: string): Buffer | null {
    const at = this.position;
    const length = this.varint();
    if (length === -1) return null;
    if (length < 0) throw new DecodeError('invalid-length', `${what} length ${length}`, at);
    return this.raw(length);
  }
}
