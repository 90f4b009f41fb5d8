/**
 * Big-endian building blocks for hand-assembled frames in known-answer tests, written with Buffer
 * directly so that they share nothing with the codec's Writer.
 */
export const i8 = (value: number) => Buffer.of(value & 0xff);
export const i16 = (value: number) => {
  const buffer = Buffer.alloc(2);
  buffer.writeInt16BE(value);
  return buffer;
};
export const i32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
};
export const i64 = (value: bigint) => {
  const buffer = Buffer.alloc(8);
  buffer.writeBigInt64BE(value);
  return buffer;
};
/** Unsigned LEB128 varint: 7 bits per byte, low group first, high bit = more bytes follow. */
export const uvarint = (value: number) => {
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  out.push(rest);
  return Buffer.from(out);
};
/** A non-compact STRING or NULLABLE_STRING: int16 length (-1 for null), then UTF-8. */
export const str = (value: string | null) =>
  value === null ? i16(-1) : Buffer.concat([i16(Buffer.byteLength(value)), Buffer.from(value, 'utf8')]);
/** A COMPACT_(NULLABLE_)STRING: uvarint of length + 1 (0 for null), then UTF-8. */
export const compactStr = (value: string | null) =>
  value === null
    ? uvarint(0)
    : Buffer.concat([uvarint(Buffer.byteLength(value) + 1), Buffer.from(value, 'utf8')]);
/** A non-compact ARRAY count. */
export const count = (value: number) => i32(value);
/** A COMPACT_ARRAY count: uvarint of count + 1. */
export const compactCount = (value: number) => uvarint(value + 1);
/** An empty tagged-field section. */
export const noTags = uvarint(0);
export const bytes = (...parts: Buffer[]) => Buffer.concat(parts);
/** A request frame body (no size prefix) with request header v1. */
export const requestV1 = (
  apiKey: number,
  version: number,
  correlationId: number,
  clientId: string,
  body: Buffer,
) => bytes(i16(apiKey), i16(version), i32(correlationId), str(clientId), body);
/** Request header v2: header v1 (client id still a non-compact string) plus a tag section. */
export const requestV2 = (
  apiKey: number,
  version: number,
  correlationId: number,
  clientId: string,
  body: Buffer,
) => bytes(i16(apiKey), i16(version), i32(correlationId), str(clientId), noTags, body);
/** Response header v0 and v1 (v1 adds a tag section). */
export const responseV0 = (correlationId: number, body: Buffer) => bytes(i32(correlationId), body);
export const responseV1 = (correlationId: number, body: Buffer) => bytes(i32(correlationId), noTags, body);
export const sized = (frame: Buffer) => bytes(i32(frame.length), frame);
/** A big-endian IEEE 754 double (FLOAT64). */
export const f64 = (value: number) => {
  const buffer = Buffer.alloc(8);
  buffer.writeDoubleBE(value);
  return buffer;
};
