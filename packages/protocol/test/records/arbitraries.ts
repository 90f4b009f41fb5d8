import fc from 'fast-check';
import type { RecordHeaderInput } from '../../src/records/record';
import type { RecordInput } from '../../src/records/record-batch';

/**
 * fast-check arbitraries shared by the records tests: records with random keys, values and
 * headers, including null keys and values, duplicate header keys and out-of-order timestamps.
 */

/** A millisecond timestamp around now, so batches mix negative and positive deltas. */
export const timestampMsArbitrary = fc.integer({ min: 1_600_000_000_000, max: 1_800_000_000_000 });

export const bytesArbitrary = fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes));

export const nullableBytesArbitrary = fc.option(bytesArbitrary, { nil: null, freq: 5 });

/** A small key alphabet so that duplicate header keys are common. */
const headerKeyArbitrary = fc.oneof(
  fc.constantFrom('trace-id', 'content-type', 'a', ''),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
);

export const headerArbitrary: fc.Arbitrary<RecordHeaderInput> = fc.record({
  key: headerKeyArbitrary,
  value: nullableBytesArbitrary,
});

export const headersArbitrary = fc.array(headerArbitrary, { maxLength: 6 });

export const recordInputArbitrary: fc.Arbitrary<RecordInput> = fc.record({
  key: nullableBytesArbitrary,
  value: nullableBytesArbitrary,
  headers: headersArbitrary,
  timestampMs: timestampMsArbitrary,
});

export const recordsArbitrary = fc.array(recordInputArbitrary, { minLength: 1, maxLength: 25 });

/** Header values normalised to plain arrays, for equality checks across Buffer and Uint8Array. */
export function normaliseHeaders(headers: readonly RecordHeaderInput[] | undefined) {
  return (headers ?? []).map((header) => ({
    key: header.key,
    value: header.value === null ? null : Array.from(header.value),
  }));
}

/** Bytes normalised to a plain array (or null), for equality checks. */
export function normaliseBytes(bytes: Uint8Array | null | undefined): number[] | null {
  return bytes === null || bytes === undefined ? null : Array.from(bytes);
}
