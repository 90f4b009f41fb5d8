import { DecodeError, type DecodeResult, tryDecode } from '../codec/decode-error';
import { asBuffer } from './buffer-view';
import { RecordReader } from './record-reader';
import {
  unsignedVarintSizeBytes,
  writeUnsignedVarint,
  writeZigzagVarint,
  zigzag,
  zigzagVarintSizeBytes,
} from './zigzag-varint';

/**
 * One record header. Kafka headers are an ordered list, not a map: the same key may appear more
 * than once and the order is kept. A decoded value is a view into the bytes it was decoded from.
 */
export interface RecordHeader {
  key: string;
  value: Buffer | null;
}

/** A header to encode; any `Uint8Array` works as the value. */
export interface RecordHeaderInput {
  readonly key: string;
  readonly value: Uint8Array | null;
}

/**
 * The fields of one record as they sit inside a batch: timestamp and offset are deltas from the
 * batch's base timestamp and base offset.
 *
 * `key`, `value` and header values are views into the buffer the record was decoded from (for a
 * compressed batch, the decompressed buffer that the decoded batch owns). They are not copies:
 * code that keeps them after that buffer is reused must copy them (`Buffer.from(view)`).
 */
export interface RecordFields {
  /** Record-level attributes: unused by Kafka since v2 and always 0, kept for a faithful round trip. */
  attributes: number;
  /** Milliseconds from the batch's base timestamp; negative when records are out of time order. */
  timestampDelta: number;
  offsetDelta: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: RecordHeader[];
}

/** The input of {@link encodeRecord}. */
export interface RecordFieldsInput {
  attributes?: number;
  timestampDelta: number;
  offsetDelta: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers?: readonly RecordHeaderInput[];
}

const NO_HEADERS: readonly RecordHeaderInput[] = [];

/**
 * A record's size without its leading length varint. Throws RangeError for deltas that do not fit
 * their wire types (a caller bug, not a decode error).
 */
export function recordBodySizeBytes(
  timestampDelta: number,
  offsetDelta: number,
  key: Uint8Array | null,
  value: Uint8Array | null,
  headers: readonly RecordHeaderInput[],
): number {
  if (!Number.isSafeInteger(timestampDelta)) {
    throw new RangeError(`timestamp delta ${timestampDelta} is not a safe integer`);
  }
  if ((offsetDelta | 0) !== offsetDelta) throw new RangeError(`offset delta ${offsetDelta} is not an int32`);
  // One byte of attributes, then the two deltas.
  let size = 1 + zigzagVarintSizeBytes(timestampDelta) + zigzagVarintSizeBytes(offsetDelta);
  size += key === null ? 1 : unsignedVarintSizeBytes(key.length * 2) + key.length;
  size += value === null ? 1 : unsignedVarintSizeBytes(value.length * 2) + value.length;
  size += unsignedVarintSizeBytes(headers.length * 2);
  for (let index = 0; index < headers.length; index++) {
    const header = headers[index]!;
    const keyBytes = Buffer.byteLength(header.key, 'utf8');
    size += unsignedVarintSizeBytes(keyBytes * 2) + keyBytes;
    const headerValue = header.value;
    size += headerValue === null ? 1 : unsignedVarintSizeBytes(headerValue.length * 2) + headerValue.length;
  }
  return size;
}

/** The full encoded size of a record: its length varint plus its body. */
export function recordSizeBytes(bodySizeBytes: number): number {
  return unsignedVarintSizeBytes(bodySizeBytes * 2) + bodySizeBytes;
}

function writeNullableBytes(buffer: Buffer, offset: number, bytes: Uint8Array | null): number {
  if (bytes === null) {
    // Zigzag(-1) is 1.
    buffer[offset] = 1;
    return offset + 1;
  }
  const at = writeUnsignedVarint(buffer, offset, bytes.length * 2);
  buffer.set(bytes, at);
  return at + bytes.length;
}

/**
 * Writes one record at `offset` into a buffer the caller has sized with
 * {@link recordBodySizeBytes} and {@link recordSizeBytes}; returns the offset after it. The
 * batch encoder calls this once per record with positional arguments so that no per-record
 * object is allocated.
 */
export function writeRecord(
  buffer: Buffer,
  offset: number,
  bodySizeBytes: number,
  attributes: number,
  timestampDelta: number,
  offsetDelta: number,
  key: Uint8Array | null,
  value: Uint8Array | null,
  headers: readonly RecordHeaderInput[],
): number {
  let at = writeUnsignedVarint(buffer, offset, bodySizeBytes * 2);
  buffer[at++] = attributes & 0xff;
  at = writeZigzagVarint(buffer, at, timestampDelta);
  at = writeZigzagVarint(buffer, at, offsetDelta);
  at = writeNullableBytes(buffer, at, key);
  at = writeNullableBytes(buffer, at, value);
  at = writeUnsignedVarint(buffer, at, zigzag(headers.length));
  for (let index = 0; index < headers.length; index++) {
    const header = headers[index]!;
    const keyBytes = Buffer.byteLength(header.key, 'utf8');
    at = writeUnsignedVarint(buffer, at, keyBytes * 2);
    at += buffer.write(header.key, at, keyBytes, 'utf8');
    at = writeNullableBytes(buffer, at, header.value);
  }
  return at;
}

/** Encodes one record (length varint included) into a new buffer. */
export function encodeRecord(record: RecordFieldsInput): Buffer {
  const headers = record.headers ?? NO_HEADERS;
  const bodySizeBytes = recordBodySizeBytes(
    record.timestampDelta,
    record.offsetDelta,
    record.key,
    record.value,
    headers,
  );
  const buffer = Buffer.allocUnsafe(recordSizeBytes(bodySizeBytes));
  writeRecord(
    buffer,
    0,
    bodySizeBytes,
    record.attributes ?? 0,
    record.timestampDelta,
    record.offsetDelta,
    record.key,
    record.value,
    headers,
  );
  return buffer;
}

/**
 * Reads one record at the reader's position and leaves the reader after it. Throws
 * {@link DecodeError}; batch decoders call this inside `tryDecode`. The record's own length is
 * checked against the bytes its fields actually took, so a record cannot silently borrow bytes from
 * the next one.
 */
export function readRecord(reader: RecordReader): RecordFields {
  const start = reader.position;
  const bodySizeBytes = reader.varint();
  if (bodySizeBytes < 0 || bodySizeBytes > reader.remaining) {
    throw new DecodeError(
      'invalid-length',
      `record length ${bodySizeBytes} with ${reader.remaining} bytes left`,
      start,
    );
  }
  const bodyStart = reader.position;
  const end = bodyStart + bodySizeBytes;
  const attributes = reader.int8();
  const timestampDelta = reader.varlongNumber();
  const offsetDelta = reader.varint();
  const key = reader.nullableBytes('record key');
  const value = reader.nullableBytes('record value');
  const countAt = reader.position;
  const headerCount = reader.varint();
  // Every header takes at least two bytes, so a larger count is a lie; reject it before allocating.
  if (headerCount < 0 || headerCount * 2 > end - reader.position) {
    throw new DecodeError('invalid-length', `header count ${headerCount}`, countAt);
  }
  const headers: RecordHeader[] = headerCount === 0 ? [] : new Array(headerCount);
  for (let index = 0; index < headerCount; index++) {
    const keyAt = reader.position;
    const keyLength = reader.varint();
    if (keyLength < 0) throw new DecodeError('invalid-length', `header key length ${keyLength}`, keyAt);
    const headerKey = reader.raw(keyLength).toString('utf8');
    headers[index] = { key: headerKey, value: reader.nullableBytes('header value') };
  }
  if (reader.position !== end) {
    throw new DecodeError(
      'invalid-length',
      `record length says ${bodySizeBytes} bytes but its fields took ${reader.position - bodyStart}`,
      start,
    );
  }
  return { attributes, timestampDelta, offsetDelta, key, value, headers };
}

/** Decodes a buffer holding exactly one record (length varint included). */
export function decodeRecord(bytes: Uint8Array): DecodeResult<RecordFields> {
  return tryDecode(() => {
    const view = asBuffer(bytes);
    const reader = new RecordReader(view, 0, view.length);
    const record = readRecord(reader);
    if (reader.remaining !== 0) {
      throw new DecodeError(
        'trailing-bytes',
        `${reader.remaining} bytes left after the record`,
        reader.position,
      );
    }
    return record;
  });
}
