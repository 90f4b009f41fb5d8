import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../codec/decode-error';
import { Reader } from '../codec/reader';
import { RecordReader } from './record-reader';

/** Runs a read and returns its value or the kind of DecodeError it threw. */
function outcome<T>(read: () => T): T | string {
  try {
    return read();
  } catch (error) {
    if (error instanceof DecodeError) return error.kind;
    throw error;
  }
}

describe('RecordReader', () => {
  it('reads varints exactly as the general Reader does, for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 7 }), (bytes) => {
        const buffer = Buffer.from(bytes);
        const ours = new RecordReader(buffer, 0, buffer.length);
        const reference = new Reader(buffer);
        const value = outcome(() => ours.varint());
        expect(value).toEqual(outcome(() => reference.varint()));
        if (typeof value === 'number') expect(ours.position).toBe(reference.offset);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads varlongs exactly as the general Reader does, for any bytes', () => {
    const varlongBytes = fc.oneof(
      fc.uint8Array({ maxLength: 12 }),
      // Mostly continuation bytes, to reach the long encodings.
      fc
        .array(fc.integer({ min: 0x80, max: 0xff }), { maxLength: 10 })
        .chain((prefix) =>
          fc.integer({ min: 0, max: 0x7f }).map((last) => Uint8Array.from([...prefix, last])),
        ),
    );
    fc.assert(
      fc.property(varlongBytes, (bytes) => {
        const buffer = Buffer.from(bytes);
        const ours = outcome(() => new RecordReader(buffer, 0, buffer.length).varlongNumber());
        const reference = outcome(() => new Reader(buffer).varlongNumber());
        expect(ours).toEqual(reference);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps reads inside its window', () => {
    // A length of 2 (zigzag 4) with only one byte inside the window.
    const buffer = Buffer.from([4, 0x41, 0x42, 0x43]);
    const reader = new RecordReader(buffer, 0, 2);
    expect(outcome(() => reader.nullableBytes('x'))).toBe('truncated');
    expect(new RecordReader(buffer, 0, 3).nullableBytes('x')?.toString()).toBe('AB');
    const exact = new RecordReader(buffer, 0, 2);
    expect(exact.int8()).toBe(4);
    expect(exact.int8()).toBe(0x41);
    expect(outcome(() => exact.int8())).toBe('truncated');
  });
});
