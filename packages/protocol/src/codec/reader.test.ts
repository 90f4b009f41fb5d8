import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecodeError, type DecodeErrorKind, tryDecode } from './decode-error';
import { Reader } from './reader';
import { Writer } from './writer';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** How to write and read back one primitive, and how to generate values for it. */
interface FieldCodec<T> {
  readonly name: string;
  readonly arbitrary: fc.Arbitrary<T>;
  readonly write: (writer: Writer, value: T) => void;
  readonly read: (reader: Reader) => T;
}

/** Erases a codec's value type so codecs of different types can share one list. */
function codec<T>(definition: FieldCodec<T>): FieldCodec<unknown> {
  return definition as unknown as FieldCodec<unknown>;
}

interface TaggedField {
  readonly tag: number;
  readonly data: Buffer;
}

function writeTaggedFields(writer: Writer, fields: readonly TaggedField[]): void {
  writer.uvarint(fields.length);
  for (const field of fields) writer.uvarint(field.tag).uvarint(field.data.length).raw(field.data);
}

function readTaggedFields(reader: Reader): TaggedField[] {
  const fields: TaggedField[] = [];
  reader.taggedFields((tag, data) => fields.push({ tag, data: data.raw(data.remaining) }));
  return fields;
}

const unicodeString = fc.string({ unit: 'binary', maxLength: 24 });
const byteString: fc.Arbitrary<Buffer> = fc.uint8Array({ maxLength: 48 }).map((bytes) => Buffer.from(bytes));
const int64 = fc.bigInt({ min: INT64_MIN, max: INT64_MAX });
const taggedFields = fc
  .uniqueArray(
    fc.record({ tag: fc.bigInt({ min: 0n, max: 2n ** 32n - 1n }).map(Number), data: byteString }),
    { selector: (field) => field.tag, maxLength: 5 },
  )
  .map((fields) => [...fields].sort((left, right) => left.tag - right.tag));

// Every codec writes at least one byte, so a cut anywhere in a sequence of them always leaves some
// field short. Array counts are tested separately: a cut after a count is a lie about what follows,
// which the reader reports as 'invalid-length', not 'truncated'.
const codecs: FieldCodec<unknown>[] = [
  codec({
    name: 'int8',
    arbitrary: fc.integer({ min: -128, max: 127 }),
    write: (w, v) => w.int8(v),
    read: (r) => r.int8(),
  }),
  codec({
    name: 'uint8',
    arbitrary: fc.integer({ min: 0, max: 255 }),
    write: (w, v) => w.uint8(v),
    read: (r) => r.uint8(),
  }),
  codec({
    name: 'int16',
    arbitrary: fc.integer({ min: -0x8000, max: 0x7fff }),
    write: (w, v) => w.int16(v),
    read: (r) => r.int16(),
  }),
  codec({
    name: 'uint16',
    arbitrary: fc.integer({ min: 0, max: 0xffff }),
    write: (w, v) => w.uint16(v),
    read: (r) => r.uint16(),
  }),
  codec({
    name: 'int32',
    arbitrary: fc.integer({ min: -0x80000000, max: 0x7fffffff }),
    write: (w, v) => w.int32(v),
    read: (r) => r.int32(),
  }),
  codec({
    name: 'uint32',
    arbitrary: fc.bigInt({ min: 0n, max: 0xffffffffn }).map(Number),
    write: (w, v) => w.uint32(v),
    read: (r) => r.uint32(),
  }),
  codec({ name: 'int64', arbitrary: int64, write: (w, v) => w.int64(v), read: (r) => r.int64() }),
  codec({ name: 'float64', arbitrary: fc.double(), write: (w, v) => w.float64(v), read: (r) => r.float64() }),
  codec({ name: 'bool', arbitrary: fc.boolean(), write: (w, v) => w.bool(v), read: (r) => r.bool() }),
  codec({ name: 'uuid', arbitrary: fc.uuid(), write: (w, v) => w.uuid(v), read: (r) => r.uuid() }),
  codec({
    name: 'uvarint',
    arbitrary: fc.bigInt({ min: 0n, max: 0xffffffffn }).map(Number),
    write: (w, v) => w.uvarint(v),
    read: (r) => r.uvarint(),
  }),
  codec({
    name: 'varint',
    arbitrary: fc.integer({ min: -0x80000000, max: 0x7fffffff }),
    write: (w, v) => w.varint(v),
    read: (r) => r.varint(),
  }),
  codec({ name: 'varlong', arbitrary: int64, write: (w, v) => w.varlong(v), read: (r) => r.varlong() }),
  codec({
    name: 'varlongNumber',
    arbitrary: fc.maxSafeInteger(),
    write: (w, v) => w.varlongNumber(v),
    read: (r) => r.varlongNumber(),
  }),
  codec({ name: 'string', arbitrary: unicodeString, write: (w, v) => w.string(v), read: (r) => r.string() }),
  codec({
    name: 'nullableString',
    arbitrary: fc.option(unicodeString, { nil: null }),
    write: (w, v) => w.nullableString(v),
    read: (r) => r.nullableString(),
  }),
  codec({
    name: 'compactString',
    arbitrary: unicodeString,
    write: (w, v) => w.compactString(v),
    read: (r) => r.compactString(),
  }),
  codec({
    name: 'compactNullableString',
    arbitrary: fc.option(unicodeString, { nil: null }),
    write: (w, v) => w.compactNullableString(v),
    read: (r) => r.compactNullableString(),
  }),
  codec({ name: 'bytes', arbitrary: byteString, write: (w, v) => w.bytes(v), read: (r) => r.bytes() }),
  codec({
    name: 'nullableBytes',
    arbitrary: fc.option(byteString, { nil: null }),
    write: (w, v) => w.nullableBytes(v),
    read: (r) => r.nullableBytes(),
  }),
  codec({
    name: 'compactBytes',
    arbitrary: byteString,
    write: (w, v) => w.compactBytes(v),
    read: (r) => r.compactBytes(),
  }),
  codec({
    name: 'compactNullableBytes',
    arbitrary: fc.option(byteString, { nil: null }),
    write: (w, v) => w.compactNullableBytes(v),
    read: (r) => r.compactNullableBytes(),
  }),
  codec({ name: 'taggedFields', arbitrary: taggedFields, write: writeTaggedFields, read: readTaggedFields }),
];

interface Field {
  readonly codec: FieldCodec<unknown>;
  readonly value: unknown;
}

const field: fc.Arbitrary<Field> = fc.oneof(
  ...codecs.map((fieldCodec) => fieldCodec.arbitrary.map((value) => ({ codec: fieldCodec, value }))),
);

function encode(fields: readonly Field[]): Buffer {
  const writer = new Writer(16);
  for (const { codec: fieldCodec, value } of fields) fieldCodec.write(writer, value);
  return Buffer.from(writer.finish());
}

function decode(fields: readonly Field[], bytes: Uint8Array): unknown[] {
  const reader = new Reader(bytes);
  const values = fields.map(({ codec: fieldCodec }) => fieldCodec.read(reader));
  reader.expectEnd('fields');
  return values;
}

/** Runs `read` and returns the DecodeError it throws; any other outcome fails the test. */
function decodeFailure(read: () => unknown): DecodeError {
  try {
    read();
  } catch (error) {
    if (error instanceof DecodeError) return error;
    throw new Error(`expected a DecodeError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a DecodeError, but decoding succeeded');
}

function expectFailure(hex: string, read: (reader: Reader) => unknown, kind: DecodeErrorKind): DecodeError {
  const error = decodeFailure(() => read(new Reader(Buffer.from(hex, 'hex'))));
  expect(error.kind).toBe(kind);
  return error;
}

describe('Writer → Reader round trips', () => {
  it.each(codecs)('$name round-trips random values', ({ arbitrary, write, read }) => {
    fc.assert(
      fc.property(arbitrary, (value) => {
        const writer = new Writer(16);
        write(writer, value);
        const reader = new Reader(writer.finish());
        expect(read(reader)).toEqual(value);
        expect(reader.remaining).toBe(0);
      }),
    );
  });

  it('round-trips random sequences of mixed fields', () => {
    fc.assert(
      fc.property(fc.array(field, { maxLength: 20 }), (fields) => {
        expect(decode(fields, encode(fields))).toEqual(fields.map((f) => f.value));
      }),
    );
  });

  it('reads a plain Uint8Array and a window inside a larger buffer', () => {
    const bytes = Uint8Array.of(0xaa, 0x00, 0x02, 0x68, 0x69, 0xbb);
    const reader = new Reader(bytes.subarray(1, 5));
    expect(reader.string()).toBe('hi');
    const windowed = new Reader(bytes, 1, 5);
    expect(windowed.string()).toBe('hi');
    expect(windowed.offset).toBe(5);
    expect(decodeFailure(() => new Reader(bytes, 2, 7)).kind).toBe('invalid-length');
  });

  it('round-trips int32 and compact array counts followed by their elements', () => {
    fc.assert(
      fc.property(
        fc.option(fc.array(fc.integer({ min: -128, max: 127 }), { maxLength: 300 }), { nil: null }),
        fc.boolean(),
        (elements, compact) => {
          const writer = new Writer();
          const count = elements === null ? null : elements.length;
          if (compact) writer.compactArrayLength(count);
          else writer.arrayLength(count);
          for (const element of elements ?? []) writer.int8(element);
          const reader = new Reader(writer.finish());
          const readCount = compact ? reader.compactArrayLength() : reader.arrayLength();
          expect(readCount).toBe(count);
          const readElements =
            readCount === null ? null : Array.from({ length: readCount }, () => reader.int8());
          expect(readElements).toEqual(elements);
          expect(reader.remaining).toBe(0);
        },
      ),
    );
  });
});

describe('truncated input', () => {
  it('fails every proper prefix of a valid encoding with kind truncated', () => {
    fc.assert(
      fc.property(fc.array(field, { minLength: 1, maxLength: 12 }), (fields) => {
        const bytes = encode(fields);
        for (let length = 0; length < bytes.length; length++) {
          const error = decodeFailure(() => decode(fields, bytes.subarray(0, length)));
          expect(error.kind, `prefix of ${length}/${bytes.length} bytes`).toBe('truncated');
        }
      }),
    );
  });

  it('fails every prefix of an array count with kind truncated', () => {
    expectFailure('000000', (r) => r.arrayLength(), 'truncated');
    expectFailure('', (r) => r.arrayLength(), 'truncated');
    expectFailure('80', (r) => r.compactArrayLength(), 'truncated');
    expectFailure('', (r) => r.compactArrayLength(), 'truncated');
  });

  it('turns truncation into a failed result through tryDecode', () => {
    const result = tryDecode(() => new Reader(Buffer.from('0005616263', 'hex')).string());
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.kind).toBe('truncated');
  });
});

describe('lying lengths', () => {
  it('rejects an int32 array count of 1e9 with 3 bytes left, at the count', () => {
    const bytes = Buffer.from('3b9aca00010203', 'hex');
    const error = expectFailure(bytes.toString('hex'), (r) => r.arrayLength(), 'invalid-length');
    expect(error.offset).toBe(0);
  });

  it('rejects a compact array count larger than the bytes left', () => {
    const writer = new Writer()
      .int8(0x55)
      .compactArrayLength(1_000_000_000)
      .raw(Uint8Array.of(1, 2, 3));
    const reader = new Reader(writer.finish());
    reader.int8();
    const error = decodeFailure(() => reader.compactArrayLength());
    expect(error.kind).toBe('invalid-length');
    expect(error.offset).toBe(1);
  });

  it('rejects negative lengths and counts other than the null marker', () => {
    expectFailure('fffffffe', (r) => r.arrayLength(), 'invalid-length');
    expectFailure('80000000', (r) => r.arrayLength(), 'invalid-length');
    expectFailure('fffe', (r) => r.nullableString(), 'invalid-length');
    expectFailure('ffff', (r) => r.string(), 'invalid-length');
    expectFailure('fffffffe', (r) => r.nullableBytes(), 'invalid-length');
    expectFailure('ffffffff', (r) => r.bytes(), 'invalid-length');
    expectFailure('00', (r) => r.compactString(), 'invalid-length');
    expectFailure('00', (r) => r.compactBytes(), 'invalid-length');
    expect(decodeFailure(() => new Reader(Buffer.alloc(4)).raw(-1)).kind).toBe('invalid-length');
  });

  it('treats string and bytes lengths beyond the input as truncation, without reading past it', () => {
    expectFailure('7fff6869', (r) => r.string(), 'truncated');
    expectFailure('3b9aca00010203', (r) => r.bytes(), 'truncated');
    expectFailure('ffffffff0f00', (r) => r.compactNullableBytes(), 'truncated');
  });

  it('rejects a tagged field whose size runs past the input', () => {
    expectFailure('010005aabb', (r) => r.taggedFields(), 'truncated');
  });
});

describe('over-long and out-of-range varints', () => {
  it('rejects an unsigned varint above 32 bits or longer than 5 bytes', () => {
    expectFailure('8080808010', (r) => r.uvarint(), 'invalid-varint');
    expectFailure('ffffffff1f', (r) => r.uvarint(), 'invalid-varint');
    expectFailure('808080808000', (r) => r.uvarint(), 'invalid-varint');
    expectFailure('8080808080', (r) => r.varint(), 'invalid-varint');
    expectFailure('8080808080808080', (r) => r.compactString(), 'invalid-varint');
    expectFailure('8080808080', (r) => r.compactArrayLength(), 'invalid-varint');
  });

  it('rejects a varlong above 64 bits or longer than 10 bytes', () => {
    expectFailure('ffffffffffffffffff02', (r) => r.varlong(), 'invalid-varint');
    expectFailure('8080808080808080808000', (r) => r.varlong(), 'invalid-varint');
    expectFailure('8080808080808080808000', (r) => r.varlongNumber(), 'invalid-varint');
  });

  it('rejects a varlong that does not fit a safe integer when read as a number', () => {
    const tooLarge = new Writer()
      .varlong(2n ** 53n)
      .finish()
      .toString('hex');
    const tooSmall = new Writer()
      .varlong(-(2n ** 53n))
      .finish()
      .toString('hex');
    expectFailure(tooLarge, (r) => r.varlongNumber(), 'invalid-varint');
    expectFailure(tooSmall, (r) => r.varlongNumber(), 'invalid-varint');
  });

  it('accepts the longest valid encodings', () => {
    expect(new Reader(Buffer.from('ffffffff0f', 'hex')).uvarint()).toBe(0xffffffff);
    expect(new Reader(Buffer.from('ffffffffffffffffff01', 'hex')).varlong()).toBe(INT64_MIN);
  });
});

describe('tagged fields', () => {
  it('skips every field when no callback is given and leaves the reader after the section', () => {
    fc.assert(
      fc.property(taggedFields, fc.integer({ min: -0x80000000, max: 0x7fffffff }), (fields, trailer) => {
        const writer = new Writer();
        writeTaggedFields(writer, fields);
        writer.int32(trailer);
        const reader = new Reader(writer.finish());
        reader.taggedFields();
        expect(reader.int32()).toBe(trailer);
      }),
    );
  });

  it('lets a callback read known tags and ignore unknown ones', () => {
    const writer = new Writer();
    writeTaggedFields(writer, [
      { tag: 0, data: Buffer.from(new Writer().int32(42).finish()) },
      { tag: 7, data: Buffer.from('unknown') },
      { tag: 300, data: Buffer.from(new Writer().compactString('x').finish()) },
    ]);
    writer.int8(-1);
    const reader = new Reader(writer.finish());
    const seen: Record<number, unknown> = {};
    reader.taggedFields((tag, data) => {
      if (tag === 0) seen[tag] = data.int32();
      if (tag === 300) seen[tag] = data.compactString();
    });
    expect(seen).toEqual({ 0: 42, 300: 'x' });
    expect(reader.int8()).toBe(-1);
  });

  it('keeps a field callback inside its own bytes', () => {
    const writer = new Writer();
    writeTaggedFields(writer, [{ tag: 1, data: Buffer.of(0, 0) }]);
    writer.int32(123);
    const reader = new Reader(writer.finish());
    const error = decodeFailure(() => reader.taggedFields((_tag, data) => data.int32()));
    expect(error.kind).toBe('truncated');
  });

  it.each([
    ['a repeated tag', [3, 3]],
    ['a decreasing tag', [5, 2]],
    ['a decreasing tag after several', [0, 1, 9, 4]],
  ])('rejects %s', (_name, tags) => {
    const writer = new Writer().uvarint(tags.length);
    for (const tag of tags) writer.uvarint(tag).uvarint(1).uint8(0);
    const error = decodeFailure(() => new Reader(writer.finish()).taggedFields());
    expect(error.kind).toBe('invalid-value');
  });
});
