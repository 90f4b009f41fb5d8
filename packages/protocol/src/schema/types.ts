import { DecodeError } from '../codec/decode-error';
import { type DeferredBytes, isDeferredBytes } from '../codec/deferred-bytes';
import type { Reader } from '../codec/reader';
import type { Writer } from '../codec/writer';

/**
 * How one wire type is written and read. `flexible` selects the compact (KIP-482) forms, which
 * change how strings, bytes and arrays carry their lengths and add tagged-field sections to
 * structs. `version` is passed down so nested structs can choose their fields.
 *
 * The nullable forms exist only on types Kafka allows to be null (strings, bytes, records, arrays
 * and structs); whether a particular field may be null at a particular version is the field's
 * business (see `field` in struct.ts).
 */
export interface WireType<T, In = T> {
  readonly typeName: string;
  write(writer: Writer, value: In, flexible: boolean, version: number): void;
  read(reader: Reader, flexible: boolean, version: number): T;
  writeNullable?(writer: Writer, value: In | null, flexible: boolean, version: number): void;
  readNullable?(reader: Reader, flexible: boolean, version: number): T | null;
  /** The value a field of this type takes at versions where it is absent. */
  defaultValue(): T;
}

/** The TypeScript type a wire type decodes to. */
export type ValueOf<W> = W extends WireType<infer T, infer _In> ? T : never;
/**
 * The TypeScript type a wire type encodes from: the decoded type, or wider where the encoder
 * accepts more (RECORDS also takes deferred bytes).
 */
export type InputOf<W> = W extends WireType<infer _T, infer In> ? In : never;

function scalar<T>(
  typeName: string,
  write: (writer: Writer, value: T) => void,
  read: (reader: Reader) => T,
  defaultValue: T,
): WireType<T> {
  return {
    typeName,
    write: (writer, value) => write(writer, value),
    read: (reader) => read(reader),
    defaultValue: () => defaultValue,
  };
}

export const int8 = scalar<number>(
  'int8',
  (w, v) => w.int8(v),
  (r) => r.int8(),
  0,
);
export const int16 = scalar<number>(
  'int16',
  (w, v) => w.int16(v),
  (r) => r.int16(),
  0,
);
export const uint16 = scalar<number>(
  'uint16',
  (w, v) => w.uint16(v),
  (r) => r.uint16(),
  0,
);
export const int32 = scalar<number>(
  'int32',
  (w, v) => w.int32(v),
  (r) => r.int32(),
  0,
);
export const uint32 = scalar<number>(
  'uint32',
  (w, v) => w.uint32(v),
  (r) => r.uint32(),
  0,
);
export const int64 = scalar<bigint>(
  'int64',
  (w, v) => w.int64(v),
  (r) => r.int64(),
  0n,
);
export const float64 = scalar<number>(
  'float64',
  (w, v) => w.float64(v),
  (r) => r.float64(),
  0,
);
export const bool = scalar<boolean>(
  'bool',
  (w, v) => w.bool(v),
  (r) => r.bool(),
  false,
);
/** Kafka's zero UUID: "no id" (a topic asked by name, an unset field). */
export const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

export const uuid = scalar<string>(
  'uuid',
  (w, v) => w.uuid(v),
  (r) => r.uuid(),
  ZERO_UUID,
);

export const string: WireType<string> = {
  typeName: 'string',
  write: (writer, value, flexible) => (flexible ? writer.compactString(value) : writer.string(value)),
  read: (reader, flexible) => (flexible ? reader.compactString() : reader.string()),
  writeNullable: (writer, value, flexible) =>
    flexible ? writer.compactNullableString(value) : writer.nullableString(value),
  readNullable: (reader, flexible) => (flexible ? reader.compactNullableString() : reader.nullableString()),
  defaultValue: () => '',
};

const EMPTY_BYTES = Buffer.alloc(0);

export const bytes: WireType<Buffer> = {
  typeName: 'bytes',
  write: (writer, value, flexible) => (flexible ? writer.compactBytes(value) : writer.bytes(value)),
  read: (reader, flexible) => (flexible ? reader.compactBytes() : reader.bytes()),
  writeNullable: (writer, value, flexible) =>
    flexible ? writer.compactNullableBytes(value) : writer.nullableBytes(value),
  readNullable: (reader, flexible) => (flexible ? reader.compactNullableBytes() : reader.nullableBytes()),
  defaultValue: () => EMPTY_BYTES,
};

/**
 * RECORDS: nullable bytes holding concatenated RecordBatch v2 batches, kept opaque here. The
 * broker stores them as they arrive and the records module decodes them; the message codec never
 * looks inside. An encoder may also be given deferred bytes (a stored record set read from its file
 * as the frame is written); decoding always yields a Buffer.
 */
export const records: WireType<Buffer, Uint8Array | DeferredBytes> = {
  typeName: 'records',
  write: (writer, value, flexible) => {
    if (isDeferredBytes(value)) writer.deferredBytes(value, flexible);
    else if (flexible) writer.compactBytes(value);
    else writer.bytes(value);
  },
  read: bytes.read,
  writeNullable: (writer, value, flexible, version) => {
    if (value === null) bytes.writeNullable!(writer, null, flexible, version);
    else records.write(writer, value, flexible, version);
  },
  readNullable: bytes.readNullable,
  defaultValue: bytes.defaultValue,
};

/**
 * An array of any wire type. The element count is checked against the bytes left before anything
 * is allocated, so a lying count cannot make the decoder allocate a huge array.
 */
export interface ArrayType<T, In = T> extends WireType<T[], In[]> {
  readonly element: WireType<T, In>;
}

export function array<T, In = T>(element: WireType<T, In>): ArrayType<T, In> {
  const writeItems = (writer: Writer, value: In[], flexible: boolean, version: number) => {
    for (const item of value) element.write(writer, item, flexible, version);
  };
  const readItems = (reader: Reader, count: number, flexible: boolean, version: number): T[] => {
    const items = new Array<T>(count);
    for (let index = 0; index < count; index++) items[index] = element.read(reader, flexible, version);
    return items;
  };
  const readCount = (reader: Reader, flexible: boolean): number | null =>
    flexible ? reader.compactArrayLength() : reader.arrayLength();
  return {
    typeName: `${element.typeName}[]`,
    element,
    write(writer, value, flexible, version) {
      if (flexible) writer.compactArrayLength(value.length);
      else writer.arrayLength(value.length);
      writeItems(writer, value, flexible, version);
    },
    read(reader, flexible, version) {
      const at = reader.offset;
      const count = readCount(reader, flexible);
      if (count === null) throw new DecodeError('invalid-length', 'array is null where not allowed', at);
      return readItems(reader, count, flexible, version);
    },
    writeNullable(writer, value, flexible, version) {
      if (value === null) {
        if (flexible) writer.compactArrayLength(null);
        else writer.arrayLength(null);
        return;
      }
      this.write(writer, value, flexible, version);
    },
    readNullable(reader, flexible, version) {
      const count = readCount(reader, flexible);
      return count === null ? null : readItems(reader, count, flexible, version);
    },
    defaultValue: () => [],
  };
}
