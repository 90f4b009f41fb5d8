import { decodeRecordBatch, encodeRecordBatch, readBatchHeader, verifyBatchCrc } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { cleanedBatch } from './cleaned-batch';

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

function decoded(bytes: Buffer) {
  const result = decodeRecordBatch(bytes);
  if (!result.ok) throw result.error;
  return result.value;
}

describe('cleanedBatch', () => {
  it('keeps the survivors at their own offsets, with the batch’s producer fields and last offset', () => {
    for (const compression of ['none', 'gzip'] as const) {
      const cleaned = cleanedBatch(batch(compression), new Set([102, 103]), false)!;
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

  it('returns a batch that keeps everything unchanged, and leaves out one that keeps nothing', () => {
    const whole = batch();
    expect(cleanedBatch(whole, new Set([100, 101, 102, 103, 104]), false)).toBe(whole);
    expect(cleanedBatch(whole, new Set(), false)).toBeUndefined();
  });

  it('keeps an empty header for a live producer’s last batch, so its sequence still deduplicates', () => {
    const empty = cleanedBatch(batch(), new Set(), true)!;
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
