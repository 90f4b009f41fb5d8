import { decodeRecordBatch, encodeRecordBatch, readBatchHeader, verifyBatchCrc } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { BatchRecords } from './batch-records';
import { cleanedBatch, emptiedBatch } from './cleaned-batch';

/** An idempotent producer's batch of five keyed records at offsets 100..104. */
function batch(compression: 'none' | 'gzip' = 'none'): Buffer {
  return encodeRecordBatch({
    compression,
    baseOffset: 100n,
    partitionLeaderEpoch: 3,
    producerId: 7n,
    producerEpoch: 1,
    baseSequence: 40,
    records: ['a', 'b', 'a', 'c', 'b'].map((key, index) => ({
      key: Buffer.from(key),
      value: Buffer.from(`${key}${index}`),
      timestampMs: 1000 + index,
      headers: [{ key: 'h', value: Buffer.from(String(index)) }],
    })),
  });
}

function headerOf(bytes: Buffer) {
  const result = readBatchHeader(bytes);
  if (!result.ok) throw result.error;
  return result.value;
}

/** The batch cleaned down to the records at `kept` (offsets). */
function cleanedTo(bytes: Buffer, kept: number[]): Buffer {
  const records = new BatchRecords();
  records.load(bytes, headerOf(bytes));
  const keep = new Uint8Array(records.count);
  for (let index = 0; index < records.count; index++) {
    keep[index] = kept.includes(100 + records.offsetDelta[index]!) ? 1 : 0;
  }
  return cleanedBatch(bytes, headerOf(bytes), records, keep, kept.length);
}

function decoded(bytes: Buffer) {
  const result = decodeRecordBatch(bytes);
  if (!result.ok) throw result.error;
  return result.value;
}

describe('cleanedBatch', () => {
  it('keeps the survivors at their own offsets, with the batch’s producer fields and last offset', () => {
    for (const compression of ['none', 'gzip'] as const) {
      const cleaned = cleanedTo(batch(compression), [102, 103]);
      expect(verifyBatchCrc(cleaned).ok).toBe(true);
      const result = decoded(cleaned);
      expect(result.records.map((record) => [Number(record.offset), record.value?.toString()])).toEqual([
        [102, 'a2'],
        [103, 'c3'],
      ]);
      expect(result.records[0]!.headers.map((header) => header.value?.toString())).toEqual(['2']);
      expect(result).toMatchObject({
        baseOffset: 100n,
        lastOffsetDelta: 4,
        partitionLeaderEpoch: 3,
        producerId: 7n,
        producerEpoch: 1,
        baseSequence: 40,
        maxTimestampMs: 1003,
      });
    }
  });

  it('reads where each record, key and null value lies, compressed or not', () => {
    for (const compression of ['none', 'gzip'] as const) {
      const bytes = encodeRecordBatch({
        compression,
        records: [
          { key: Buffer.from('k1'), value: Buffer.from('v'), timestampMs: 5 },
          { key: null, value: null, timestampMs: 9 },
        ],
      });
      const records = new BatchRecords();
      records.load(bytes, headerOf(bytes));
      expect(records.count).toBe(2);
      expect(records.data.toString('utf8', records.keyStart[0]!, records.keyStart[0]! + 2)).toBe('k1');
      expect([...records.keyLength.subarray(0, 2)]).toEqual([2, -1]);
      expect([...records.valueIsNull.subarray(0, 2)]).toEqual([0, 1]);
      expect([...records.timestampDelta.subarray(0, 2)]).toEqual([0, 4]);
    }
  });

  it('refuses a stored batch whose records do not parse', () => {
    const bytes = batch();
    // The first record's length varint, made to claim more bytes than the batch holds.
    bytes[61] = 0x7e;
    expect(() => new BatchRecords().load(bytes, headerOf(bytes))).toThrow('damaged');
  });

  it('keeps an empty header for a live producer’s last batch, so its sequence still deduplicates', () => {
    const empty = emptiedBatch(batch(), headerOf(batch()));
    expect(empty).toHaveLength(61);
    expect(verifyBatchCrc(empty).ok).toBe(true);
    const header = readBatchHeader(empty);
    if (!header.ok) throw header.error;
    expect(header.value).toMatchObject({
      baseOffset: 100n,
      lastOffsetDelta: 4,
      producerId: 7n,
      baseSequence: 40,
      recordCount: 0,
      maxTimestampMs: 1004,
    });
  });
});
