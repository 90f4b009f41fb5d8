import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Reader } from './reader';
import { Writer } from './writer';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function hexOf(write: (writer: Writer) => void): string {
  const writer = new Writer();
  write(writer);
  return writer.finish().toString('hex');
}

interface ByteVector {
  readonly name: string;
  readonly write: (writer: Writer) => void;
  readonly hex: string;
  readonly read: (reader: Reader) => unknown;
  readonly value: unknown;
}

// Known encodings, checked in both directions. Values were worked out by hand from the Kafka
// protocol guide's definitions (big-endian integers, LEB128 varints, zigzag for signed varints).
const vectors: ByteVector[] = [
  { name: 'int8 -1', write: (w) => w.int8(-1), hex: 'ff', read: (r) => r.int8(), value: -1 },
  { name: 'uint8 255', write: (w) => w.uint8(255), hex: 'ff', read: (r) => r.uint8(), value: 255 },
  { name: 'int16 0x1234', write: (w) => w.int16(0x1234), hex: '1234', read: (r) => r.int16(), value: 0x1234 },
  { name: 'int16 -2', write: (w) => w.int16(-2), hex: 'fffe', read: (r) => r.int16(), value: -2 },
  { name: 'uint16 65535', write: (w) => w.uint16(65535), hex: 'ffff', read: (r) => r.uint16(), value: 65535 },
  {
    name: 'int32 0x01020304',
    write: (w) => w.int32(0x01020304),
    hex: '01020304',
    read: (r) => r.int32(),
    value: 0x01020304,
  },
  { name: 'int32 -1', write: (w) => w.int32(-1), hex: 'ffffffff', read: (r) => r.int32(), value: -1 },
  {
    name: 'uint32 0xfffffffe',
    write: (w) => w.uint32(0xfffffffe),
    hex: 'fffffffe',
    read: (r) => r.uint32(),
    value: 0xfffffffe,
  },
  {
    name: 'int64 -2',
    write: (w) => w.int64(-2n),
    hex: 'fffffffffffffffe',
    read: (r) => r.int64(),
    value: -2n,
  },
  {
    name: 'int64 max',
    write: (w) => w.int64(INT64_MAX),
    hex: '7fffffffffffffff',
    read: (r) => r.int64(),
    value: INT64_MAX,
  },
  {
    name: 'int64 min',
    write: (w) => w.int64(INT64_MIN),
    hex: '8000000000000000',
    read: (r) => r.int64(),
    value: INT64_MIN,
  },
  {
    name: 'float64 1.5',
    write: (w) => w.float64(1.5),
    hex: '3ff8000000000000',
    read: (r) => r.float64(),
    value: 1.5,
  },
  { name: 'bool true', write: (w) => w.bool(true), hex: '01', read: (r) => r.bool(), value: true },
  { name: 'bool false', write: (w) => w.bool(false), hex: '00', read: (r) => r.bool(), value: false },
  { name: 'uvarint 0', write: (w) => w.uvarint(0), hex: '00', read: (r) => r.uvarint(), value: 0 },
  { name: 'uvarint 127', write: (w) => w.uvarint(127), hex: '7f', read: (r) => r.uvarint(), value: 127 },
  { name: 'uvarint 128', write: (w) => w.uvarint(128), hex: '8001', read: (r) => r.uvarint(), value: 128 },
  { name: 'uvarint 300', write: (w) => w.uvarint(300), hex: 'ac02', read: (r) => r.uvarint(), value: 300 },
  {
    name: 'uvarint 2^32-1',
    write: (w) => w.uvarint(0xffffffff),
    hex: 'ffffffff0f',
    read: (r) => r.uvarint(),
    value: 0xffffffff,
  },
  { name: 'varint 0', write: (w) => w.varint(0), hex: '00', read: (r) => r.varint(), value: 0 },
  { name: 'varint -1', write: (w) => w.varint(-1), hex: '01', read: (r) => r.varint(), value: -1 },
  { name: 'varint 1', write: (w) => w.varint(1), hex: '02', read: (r) => r.varint(), value: 1 },
  { name: 'varint -2', write: (w) => w.varint(-2), hex: '03', read: (r) => r.varint(), value: -2 },
  { name: 'varint -64', write: (w) => w.varint(-64), hex: '7f', read: (r) => r.varint(), value: -64 },
  { name: 'varint 64', write: (w) => w.varint(64), hex: '8001', read: (r) => r.varint(), value: 64 },
  {
    name: 'varint int32 max',
    write: (w) => w.varint(0x7fffffff),
    hex: 'feffffff0f',
    read: (r) => r.varint(),
    value: 0x7fffffff,
  },
  {
    name: 'varint int32 min',
    write: (w) => w.varint(-0x80000000),
    hex: 'ffffffff0f',
    read: (r) => r.varint(),
    value: -0x80000000,
  },
  { name: 'varlong -1', write: (w) => w.varlong(-1n), hex: '01', read: (r) => r.varlong(), value: -1n },
  { name: 'varlong 1', write: (w) => w.varlong(1n), hex: '02', read: (r) => r.varlong(), value: 1n },
  {
    name: 'varlong int64 max',
    write: (w) => w.varlong(INT64_MAX),
    hex: 'feffffffffffffffff01',
    read: (r) => r.varlong(),
    value: INT64_MAX,
  },
  {
    name: 'varlong int64 min',
    write: (w) => w.varlong(INT64_MIN),
    hex: 'ffffffffffffffffff01',
    read: (r) => r.varlong(),
    value: INT64_MIN,
  },
  {
    name: 'varlongNumber -1',
    write: (w) => w.varlongNumber(-1),
    hex: '01',
    read: (r) => r.varlongNumber(),
    value: -1,
  },
  {
    name: 'varlongNumber max safe',
    write: (w) => w.varlongNumber(Number.MAX_SAFE_INTEGER),
    hex: 'feffffffffffff1f',
    read: (r) => r.varlongNumber(),
    value: Number.MAX_SAFE_INTEGER,
  },
  {
    name: 'varlongNumber min safe',
    write: (w) => w.varlongNumber(Number.MIN_SAFE_INTEGER),
    hex: 'fdffffffffffff1f',
    read: (r) => r.varlongNumber(),
    value: Number.MIN_SAFE_INTEGER,
  },
  { name: 'string empty', write: (w) => w.string(''), hex: '0000', read: (r) => r.string(), value: '' },
  {
    name: 'string héllo',
    write: (w) => w.string('héllo'),
    hex: '000668c3a96c6c6f',
    read: (r) => r.string(),
    value: 'héllo',
  },
  {
    name: 'nullable string null',
    write: (w) => w.nullableString(null),
    hex: 'ffff',
    read: (r) => r.nullableString(),
    value: null,
  },
  {
    name: 'compact string empty',
    write: (w) => w.compactString(''),
    hex: '01',
    read: (r) => r.compactString(),
    value: '',
  },
  {
    name: 'compact string a',
    write: (w) => w.compactString('a'),
    hex: '0261',
    read: (r) => r.compactString(),
    value: 'a',
  },
  {
    name: 'compact nullable string null',
    write: (w) => w.compactNullableString(null),
    hex: '00',
    read: (r) => r.compactNullableString(),
    value: null,
  },
  {
    name: 'bytes 01 02',
    write: (w) => w.bytes(Uint8Array.of(1, 2)),
    hex: '000000020102',
    read: (r) => r.bytes(),
    value: Buffer.of(1, 2),
  },
  {
    name: 'nullable bytes null',
    write: (w) => w.nullableBytes(null),
    hex: 'ffffffff',
    read: (r) => r.nullableBytes(),
    value: null,
  },
  {
    name: 'compact bytes empty',
    write: (w) => w.compactBytes(new Uint8Array(0)),
    hex: '01',
    read: (r) => r.compactBytes(),
    value: Buffer.alloc(0),
  },
  {
    name: 'compact nullable bytes null',
    write: (w) => w.compactNullableBytes(null),
    hex: '00',
    read: (r) => r.compactNullableBytes(),
    value: null,
  },
  {
    name: 'array length null',
    write: (w) => w.arrayLength(null),
    hex: 'ffffffff',
    read: (r) => r.arrayLength(),
    value: null,
  },
  {
    name: 'compact array length null',
    write: (w) => w.compactArrayLength(null),
    hex: '00',
    read: (r) => r.compactArrayLength(),
    value: null,
  },
  {
    name: 'compact array length 0',
    write: (w) => w.compactArrayLength(0),
    hex: '01',
    read: (r) => r.compactArrayLength(),
    value: 0,
  },
  {
    name: 'empty tagged fields',
    write: (w) => w.emptyTaggedFields(),
    hex: '00',
    read: (r) => r.taggedFields(),
    value: undefined,
  },
  {
    name: 'uuid',
    write: (w) => w.uuid('00112233-4455-6677-8899-AABBCCDDEEFF'),
    hex: '00112233445566778899aabbccddeeff',
    read: (r) => r.uuid(),
    value: '00112233-4455-6677-8899-aabbccddeeff',
  },
];

describe('Writer known encodings', () => {
  it.each(vectors)('$name encodes to $hex and decodes back', ({ write, hex, read, value }) => {
    expect(hexOf(write)).toBe(hex);
    const reader = new Reader(Buffer.from(hex, 'hex'));
    expect(read(reader)).toEqual(value);
    expect(reader.remaining).toBe(0);
  });
});

describe('Writer range checks', () => {
  it.each([
    ['uvarint -1', (w: Writer) => w.uvarint(-1)],
    ['uvarint 2^32', (w: Writer) => w.uvarint(2 ** 32)],
    ['uvarint 1.5', (w: Writer) => w.uvarint(1.5)],
    ['varint 2^31', (w: Writer) => w.varint(2 ** 31)],
    ['varint -2^31-1', (w: Writer) => w.varint(-(2 ** 31) - 1)],
    ['varlong 2^63', (w: Writer) => w.varlong(2n ** 63n)],
    ['varlong -2^63-1', (w: Writer) => w.varlong(INT64_MIN - 1n)],
    ['varlongNumber 2^53', (w: Writer) => w.varlongNumber(2 ** 53)],
    ['varlongNumber 0.5', (w: Writer) => w.varlongNumber(0.5)],
    ['int8 128', (w: Writer) => w.int8(128)],
    ['int16 32768', (w: Writer) => w.int16(32768)],
    ['int32 2^31', (w: Writer) => w.int32(2 ** 31)],
    ['int64 2^63', (w: Writer) => w.int64(2n ** 63n)],
    ['string of 32768 bytes', (w: Writer) => w.string('x'.repeat(32768))],
    ['uuid with 31 digits', (w: Writer) => w.uuid('0'.repeat(31))],
    ['uuid with a non-hex digit', (w: Writer) => w.uuid(`${'0'.repeat(31)}g`)],
  ])('%s throws RangeError and writes nothing', (_name, write) => {
    const writer = new Writer();
    expect(() => write(writer)).toThrow(RangeError);
    expect(writer.length).toBe(0);
  });

  it('accepts a string of exactly 32767 bytes', () => {
    const writer = new Writer();
    writer.string('x'.repeat(32767));
    expect(writer.length).toBe(2 + 32767);
  });
});

describe('Writer buffer management', () => {
  it('grows past its initial capacity without losing earlier bytes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -0x80000000, max: 0x7fffffff }), { maxLength: 500 }),
        (values) => {
          const writer = new Writer(16);
          for (const value of values) writer.int32(value);
          const reader = new Reader(writer.finish());
          expect(values.map(() => reader.int32())).toEqual(values);
          expect(reader.remaining).toBe(0);
        },
      ),
    );
  });

  it('patches a reserved int32 in place', () => {
    const writer = new Writer();
    const at = writer.reserveInt32();
    writer.string('body');
    writer.patchInt32(at, writer.length - 4);
    expect(writer.finish().toString('hex')).toBe('000000060004626f6479');
    const patched = new Writer();
    patched.patchUInt32(patched.reserveInt32(), 0xfffffffe);
    expect(patched.finish().toString('hex')).toBe('fffffffe');
  });

  it('finish returns only the bytes written', () => {
    const writer = new Writer(64);
    writer.int8(7);
    expect(writer.finish()).toEqual(Buffer.of(7));
  });
});

describe('Writer.varlongNumber', () => {
  it('writes the same bytes as varlong for every safe integer', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (value) => {
        expect(hexOf((w) => w.varlongNumber(value))).toBe(hexOf((w) => w.varlong(BigInt(value))));
      }),
    );
  });

  it('writes the same bytes as varlong near the 2^52 boundary where doubles lose odd numbers', () => {
    for (let delta = -3; delta <= 3; delta++) {
      for (const base of [2 ** 52, -(2 ** 52), 2 ** 53 - 4, -(2 ** 53) + 4]) {
        const value = base + delta;
        if (!Number.isSafeInteger(value)) continue;
        expect(hexOf((w) => w.varlongNumber(value))).toBe(hexOf((w) => w.varlong(BigInt(value))));
      }
    }
  });
});
