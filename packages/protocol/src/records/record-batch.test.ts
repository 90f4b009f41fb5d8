import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseBytes, normaliseHeaders, recordsArbitrary } from '../../test/records/arbitraries';
import { COMPRESSION_TYPES, type CompressionType } from './batch-attributes';
import { BATCH_HEADER_BYTES, BatchLayout, CRC_START, readBatchHeader } from './batch-header';
import { compressBytes } from './compression/registry';
import { crc32c } from './crc32c';
import { encodeRecord } from './record';
import { decodeRecordBatch, encodeRecordBatch, type RecordInput } from './record-batch';

/** Rewrites the CRC after a deliberate edit, so a test reaches the check it is aimed at. */
function withFixedCrc(batch: Buffer): Buffer {
  batch.writeUInt32BE(crc32c(batch.subarray(CRC_START)), BatchLayout.crc);
  return batch;
}

/** Builds a batch around an arbitrary records section, with a correct CRC. */
function batchAround(section: Buffer, recordCount: number, compression: CompressionType = 'none'): Buffer {
  const template = encodeRecordBatch({ records: [{ value: null, timestampMs: 0 }], compression });
  const batch = Buffer.concat([template.subarray(0, BATCH_HEADER_BYTES), section]);
  batch.writeInt32BE(batch.length - 12, BatchLayout.batchLength);
  batch.writeInt32BE(recordCount, BatchLayout.recordCount);
  return withFixedCrc(batch);
}

function expectRecordsEqual(decoded: ReturnType<typeof decodeRecordBatch>, records: readonly RecordInput[]) {
  if (!decoded.ok) throw decoded.error;
  expect(decoded.value.records).toHaveLength(records.length);
  decoded.value.records.forEach((record, index) => {
    const input = records[index]!;
    expect(record.timestampMs).toBe(input.timestampMs);
    expect(normaliseBytes(record.key)).toEqual(normaliseBytes(input.key));
    expect(normaliseBytes(record.value)).toEqual(normaliseBytes(input.value));
    expect(normaliseHeaders(record.headers)).toEqual(normaliseHeaders(input.headers));
  });
}

describe('encodeRecordBatch / decodeRecordBatch', () => {
  for (const compression of COMPRESSION_TYPES) {
    it(`round-trips random records with ${compression}`, () => {
      fc.assert(
        fc.property(recordsArbitrary, fc.bigInt({ min: 0n, max: 2n ** 62n }), (records, baseOffset) => {
          const batch = encodeRecordBatch({ records, compression, baseOffset });
          const decoded = decodeRecordBatch(batch);
          expectRecordsEqual(decoded, records);
          if (!decoded.ok) return;
          expect(decoded.value.records.map((record) => record.offset)).toEqual(
            records.map((_, index) => baseOffset + BigInt(index)),
          );
          expect(decoded.value.attributes & 0x07).toBe(COMPRESSION_TYPES.indexOf(compression));
        }),
        { numRuns: compression === 'none' ? 200 : 60 },
      );
    });
  }

  it('sets baseTimestamp to the first record, maxTimestamp to the largest, and allows negative deltas', () => {
    const records: RecordInput[] = [
      { value: Buffer.from('b'), timestampMs: 2_000 },
      { value: Buffer.from('a'), timestampMs: 1_000 },
      { value: Buffer.from('c'), timestampMs: 3_000 },
      { value: Buffer.from('d'), timestampMs: 2_500 },
    ];
    const decoded = decodeRecordBatch(encodeRecordBatch({ records }));
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value.baseTimestampMs).toBe(2_000);
    expect(decoded.value.maxTimestampMs).toBe(3_000);
    expect(decoded.value.records.map((record) => record.timestampDelta)).toEqual([0, -1_000, 1_000, 500]);
    expect(decoded.value.lastOffsetDelta).toBe(3);
  });

  it('defaults to a non-idempotent producer batch: producer id, epoch and sequence -1, leader epoch -1', () => {
    const batch = encodeRecordBatch({ records: [{ value: Buffer.from('x'), timestampMs: 5 }] });
    const header = readBatchHeader(batch);
    if (!header.ok) throw header.error;
    expect(header.value).toMatchObject({
      baseOffset: 0n,
      partitionLeaderEpoch: -1,
      producerId: -1n,
      producerEpoch: -1,
      baseSequence: -1,
      attributes: 0,
      recordCount: 1,
    });
  });

  it('keeps offset-delta gaps and an explicit lastOffsetDelta, as compaction writes them', () => {
    const records: RecordInput[] = [
      { value: Buffer.from('a'), timestampMs: 10, offsetDelta: 0 },
      { value: Buffer.from('c'), timestampMs: 12, offsetDelta: 2 },
    ];
    const decoded = decodeRecordBatch(encodeRecordBatch({ records, baseOffset: 100n, lastOffsetDelta: 5 }));
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value.records.map((record) => record.offset)).toEqual([100n, 102n]);
    expect(decoded.value.lastOffsetDelta).toBe(5);
  });

  it('writes the delete horizon as the base timestamp and sets bit 6', () => {
    const decoded = decodeRecordBatch(
      encodeRecordBatch({ records: [{ value: null, timestampMs: 1_000 }], deleteHorizonMs: 5_000 }),
    );
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value.attributes & 0x40).toBe(0x40);
    expect(decoded.value.baseTimestampMs).toBe(5_000);
    expect(decoded.value.records[0]?.timestampMs).toBe(1_000);
  });

  it('returns record bytes as views into an uncompressed input', () => {
    const batch = encodeRecordBatch({
      records: [{ key: Buffer.from('k'), value: Buffer.from('v'), timestampMs: 1 }],
    });
    const decoded = decodeRecordBatch(batch);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value.records[0]?.value?.buffer).toBe(batch.buffer);
  });

  it('decodes a batch at an offset inside a larger buffer', () => {
    const batch = encodeRecordBatch({ records: [{ value: Buffer.from('x'), timestampMs: 1 }] });
    const decoded = decodeRecordBatch(Buffer.concat([Buffer.alloc(3), batch]), { offset: 3 });
    expect(decoded.ok && decoded.value.records[0]?.value?.toString()).toBe('x');
  });

  it('refuses to encode an empty batch or a non-integer timestamp', () => {
    expect(() => encodeRecordBatch({ records: [] })).toThrow(RangeError);
    expect(() => encodeRecordBatch({ records: [{ value: null, timestampMs: 1.5 }] })).toThrow(RangeError);
  });
});

describe('decodeRecordBatch failures', () => {
  const records: RecordInput[] = [
    { key: Buffer.from('k'), value: Buffer.from('value'), timestampMs: 1_000 },
    { key: null, value: Buffer.from('other'), timestampMs: 1_001 },
  ];

  it('reports a flipped byte as checksum-mismatch, and decodes it anyway when asked not to verify', () => {
    const batch = encodeRecordBatch({ records });
    // Turn "value" into "Value": the structure stays valid, only the CRC notices.
    batch[batch.indexOf('value')]! ^= 0x20;
    const checked = decodeRecordBatch(batch);
    expect(!checked.ok && checked.error.kind).toBe('checksum-mismatch');
    const unchecked = decodeRecordBatch(batch, { verifyCrc: false });
    expect(unchecked.ok && unchecked.value.records[0]?.value?.toString()).toBe('Value');
  });

  it('reports a cut batch as truncated', () => {
    const batch = encodeRecordBatch({ records });
    const decoded = decodeRecordBatch(batch.subarray(0, batch.length - 3));
    expect(!decoded.ok && decoded.error.kind).toBe('truncated');
  });

  it('reports a record count larger than the section can hold as invalid-length', () => {
    const batch = encodeRecordBatch({ records });
    batch.writeInt32BE(1000, BatchLayout.recordCount);
    const decoded = decodeRecordBatch(withFixedCrc(batch));
    expect(!decoded.ok && decoded.error.kind).toBe('invalid-length');
  });

  it('reports records left over after the count as trailing-bytes, and too few as truncated', () => {
    const section = Buffer.concat(
      records.map((record, index) =>
        encodeRecord({
          timestampDelta: record.timestampMs - 1_000,
          offsetDelta: index,
          key: record.key ?? null,
          value: record.value,
        }),
      ),
    );
    const tooFew = decodeRecordBatch(batchAround(section, 1));
    expect(!tooFew.ok && tooFew.error.kind).toBe('trailing-bytes');
    const tooMany = decodeRecordBatch(batchAround(section, 3));
    expect(!tooMany.ok && tooMany.error.kind).toBe('truncated');
  });

  it('reports an undefined codec id as invalid-value', () => {
    const batch = encodeRecordBatch({ records });
    batch.writeInt16BE(5, BatchLayout.attributes);
    const decoded = decodeRecordBatch(withFixedCrc(batch));
    expect(!decoded.ok && decoded.error.kind).toBe('invalid-value');
  });

  for (const compression of COMPRESSION_TYPES.filter((type) => type !== 'none')) {
    it(`reports a corrupt ${compression} payload with a valid CRC as decompression-failed`, () => {
      const payload = compressBytes(compression, Buffer.alloc(100, 0x61));
      const cut = decodeRecordBatch(batchAround(payload.subarray(0, payload.length - 2), 1, compression));
      expect(!cut.ok && cut.error.kind).toBe('decompression-failed');
      const garbage = decodeRecordBatch(batchAround(Buffer.from('not compressed at all'), 1, compression));
      expect(!garbage.ok && garbage.error.kind).toBe('decompression-failed');
    });

    it(`refuses a ${compression} batch that decompresses past the limit`, () => {
      const batch = encodeRecordBatch({
        records: [{ value: Buffer.alloc(100_000, 0x61), timestampMs: 0 }],
        compression,
      });
      expect(decodeRecordBatch(batch).ok).toBe(true);
      const limited = decodeRecordBatch(batch, { maxDecompressedBytes: 50_000 });
      expect(!limited.ok && limited.error.kind).toBe('decompression-failed');
    });
  }
});
