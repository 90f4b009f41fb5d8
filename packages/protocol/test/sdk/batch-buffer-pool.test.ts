import { describe, expect, it } from 'vitest';
import { BatchBufferPool } from '../../src/client/batch-buffer-pool';
import { type PendingRecord, ProducerBatch, SendTracker } from '../../src/client/producer-batch';
import { decodeRecordBatch } from '../../src/records/record-batch';

const POOLED_BYTES = 8 * 1024;

function pendingRecords(values: readonly string[]): PendingRecord[] {
  const tracker = new SendTracker(values.length);
  // The tests settle batches without waiting on the sends.
  tracker.promise.catch(() => {});
  return values.map((value, index) => ({
    key: null,
    value: Buffer.from(value),
    headers: [],
    partition: 0,
    timestampMs: 1_000 + index,
    sizeBytes: 30 + value.length,
    tracker,
    index,
  }));
}

/** A batch of `values` from `pool`, encoded and sent `attempts` times. */
function sentBatch(pool: BatchBufferPool, values: readonly string[], attempts = 1): ProducerBatch {
  const batch = new ProducerBatch('t', 0, 0, 1_000, POOLED_BYTES, pool);
  for (const record of pendingRecords(values)) batch.append(record);
  batch.encode('none', { producerId: 7n, producerEpoch: 0 }, 0);
  batch.attempts = attempts;
  return batch;
}

function decodedValues(bytes: Buffer): string[] {
  const decoded = decodeRecordBatch(bytes);
  if (!decoded.ok) throw new Error(`the batch does not decode: ${decoded.error.kind}`);
  return decoded.value.records.map((record) => record.value?.toString() ?? '');
}

describe('ProducerBatch with a BatchBufferPool', () => {
  it('gives an answered batch buffer to the next batch, which encodes only its own records', () => {
    const pool = new BatchBufferPool(POOLED_BYTES, 4);
    const first = sentBatch(pool, ['a-long-first-record-value', 'another-long-value']);
    const firstBuffer = first.bytes.buffer;
    const firstOffset = first.bytes.byteOffset;
    first.complete(0n, -1n);
    expect(pool.freeCount).toBe(1);

    const second = sentBatch(pool, ['b']);
    expect(pool.freeCount).toBe(0);
    expect(second.bytes.buffer).toBe(firstBuffer);
    expect(second.bytes.byteOffset).toBe(firstOffset);
    expect(decodedValues(second.bytes)).toEqual(['b']);
  });

  it('keeps the buffer of a batch that was sent more than once, or failed', () => {
    const pool = new BatchBufferPool(POOLED_BYTES, 4);
    sentBatch(pool, ['retried'], 2).complete(0n, -1n);
    sentBatch(pool, ['failed']).fail(new Error('refused'));
    expect(pool.freeCount).toBe(0);
  });

  it('pools only full-size buffers and at most maxBuffers of them', () => {
    const pool = new BatchBufferPool(POOLED_BYTES, 1);
    expect(pool.take(POOLED_BYTES / 4).length).toBe(POOLED_BYTES / 4);
    expect(pool.take(POOLED_BYTES * 2).length).toBe(POOLED_BYTES * 2);
    expect(pool.take(POOLED_BYTES * 0.75).length).toBe(POOLED_BYTES);
    pool.give(Buffer.allocUnsafe(POOLED_BYTES / 4));
    expect(pool.freeCount).toBe(0);
    pool.give(Buffer.allocUnsafe(POOLED_BYTES));
    pool.give(Buffer.allocUnsafe(POOLED_BYTES));
    expect(pool.freeCount).toBe(1);
  });

  it('gives back the records buffer of a compressed batch once it is compressed', () => {
    const pool = new BatchBufferPool(POOLED_BYTES, 4);
    const batch = new ProducerBatch('t', 0, 0, 1_000, POOLED_BYTES, pool);
    for (const record of pendingRecords(['x'.repeat(500), 'y'.repeat(500)])) batch.append(record);
    batch.encode('gzip', undefined, 0);
    expect(pool.freeCount).toBe(1);
    expect(decodedValues(batch.bytes)).toEqual(['x'.repeat(500), 'y'.repeat(500)]);
  });
});
