import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  headersArbitrary,
  normaliseBytes,
  normaliseHeaders,
  nullableBytesArbitrary,
} from '../../test/records/arbitraries';
import { decodeRecord, encodeRecord, type RecordFieldsInput } from './record';

const fieldsArbitrary: fc.Arbitrary<RecordFieldsInput> = fc.record({
  timestampDelta: fc.oneof(
    fc.integer({ min: -100_000, max: 100_000 }),
    fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  ),
  offsetDelta: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  key: nullableBytesArbitrary,
  value: nullableBytesArbitrary,
  headers: headersArbitrary,
});

describe('record encode/decode', () => {
  it('encodes a minimal record to the bytes Kafka expects', () => {
    const bytes = encodeRecord({ timestampDelta: 0, offsetDelta: 0, key: null, value: Buffer.from('a') });
    // length 7 (zigzag 14), attributes, timestamp delta, offset delta, key -1, value length 1, 'a', 0 headers.
    expect(bytes.toString('hex')).toBe('0e000000010261' + '00');
  });

  it('encodes negative deltas with zigzag and headers as an ordered list', () => {
    const bytes = encodeRecord({
      timestampDelta: -1,
      offsetDelta: 3,
      key: Buffer.from('k'),
      value: null,
      headers: [
        { key: 'h', value: Buffer.from('1') },
        { key: 'h', value: null },
      ],
    });
    const body = '00' + '01' + '06' + '026b' + '01' + '04' + '0268' + '0231' + '0268' + '01';
    expect(bytes.toString('hex')).toBe(((body.length / 2) * 2).toString(16).padStart(2, '0') + body);
  });

  it('round-trips random records, keeping null keys and values, duplicate header keys and their order', () => {
    fc.assert(
      fc.property(fieldsArbitrary, (fields) => {
        const decoded = decodeRecord(encodeRecord(fields));
        if (!decoded.ok) throw decoded.error;
        const record = decoded.value;
        expect(record.timestampDelta).toBe(fields.timestampDelta);
        expect(record.offsetDelta).toBe(fields.offsetDelta);
        expect(record.attributes).toBe(0);
        expect(normaliseBytes(record.key)).toEqual(normaliseBytes(fields.key));
        expect(normaliseBytes(record.value)).toEqual(normaliseBytes(fields.value));
        expect(normaliseHeaders(record.headers)).toEqual(normaliseHeaders(fields.headers));
      }),
      { numRuns: 300 },
    );
  });

  it('returns key and value as views into the input, not copies', () => {
    const bytes = encodeRecord({
      timestampDelta: 0,
      offsetDelta: 0,
      key: Buffer.from('key'),
      value: Buffer.from('v'),
    });
    const decoded = decodeRecord(bytes);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value.key?.buffer).toBe(bytes.buffer);
    bytes[bytes.indexOf('key') + 0] = 0x4b;
    expect(decoded.value.key?.toString()).toBe('Key');
  });

  it('rejects every truncation with a decode error, never an exception', () => {
    fc.assert(
      fc.property(fieldsArbitrary, fc.nat(), (fields, cutSeed) => {
        const bytes = encodeRecord(fields);
        const cut = cutSeed % bytes.length;
        const decoded = decodeRecord(bytes.subarray(0, cut));
        expect(decoded.ok).toBe(false);
        if (!decoded.ok) expect(['truncated', 'invalid-length']).toContain(decoded.error.kind);
      }),
      { numRuns: 300 },
    );
  });

  it('rejects a length that disagrees with the fields, and bytes after the record', () => {
    const bytes = encodeRecord({ timestampDelta: 0, offsetDelta: 0, key: null, value: Buffer.from('abc') });
    const lying = Buffer.from(bytes);
    lying[0] = 2 * 8; // says 8 bytes, the fields take 9
    const lie = decodeRecord(Buffer.concat([lying, Buffer.from([0])]));
    expect(lie.ok).toBe(false);
    if (!lie.ok) expect(lie.error.kind).toBe('invalid-length');

    const trailing = decodeRecord(Buffer.concat([bytes, Buffer.from([0])]));
    expect(trailing.ok).toBe(false);
    if (!trailing.ok) expect(trailing.error.kind).toBe('trailing-bytes');
  });

  it('rejects a negative key length other than -1 and an impossible header count', () => {
    // length 7, attributes, deltas, key length -2 (zigzag 3), ...
    const badKey = decodeRecord(Buffer.from('0e0000000300000000', 'hex').subarray(0, 8));
    expect(badKey.ok).toBe(false);
    if (!badKey.ok) expect(badKey.error.kind).toBe('invalid-length');
    // length 6: attributes, deltas, null key, null value, header count 100 (zigzag 200 = c8 01).
    const badCount = decodeRecord(Buffer.from('0c0000000101c801', 'hex'));
    expect(badCount.ok).toBe(false);
    if (!badCount.ok) expect(badCount.error.kind).toBe('invalid-length');
  });

  it('rejects a varint longer than five bytes and a varlong beyond 64 bits', () => {
    const longVarint = decodeRecord(Buffer.from('ffffffffff01', 'hex'));
    expect(longVarint.ok).toBe(false);
    if (!longVarint.ok) expect(longVarint.error.kind).toBe('invalid-varint');
    // length 12, attributes, an 11-byte varlong.
    const longVarlong = decodeRecord(Buffer.from('1800ffffffffffffffffffff01', 'hex'));
    expect(longVarlong.ok).toBe(false);
    if (!longVarlong.ok) expect(longVarlong.error.kind).toBe('invalid-varint');
  });

  it('rejects a timestamp delta that is not a safe integer instead of rounding it', () => {
    // Zigzag varlong of 2^60: 10 bytes.
    const varlong = Buffer.from('80808080808080808040', 'hex');
    const body = Buffer.concat([Buffer.from([0]), varlong, Buffer.from([0, 1, 1, 0])]);
    const bytes = Buffer.concat([Buffer.from([body.length * 2]), body]);
    const decoded = decodeRecord(bytes);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.error.kind).toBe('invalid-varint');
  });

  it('throws RangeError when asked to encode deltas that do not fit the wire types', () => {
    expect(() => encodeRecord({ timestampDelta: 0.5, offsetDelta: 0, key: null, value: null })).toThrow(
      RangeError,
    );
    expect(() => encodeRecord({ timestampDelta: 0, offsetDelta: 2 ** 31, key: null, value: null })).toThrow(
      RangeError,
    );
  });
});
