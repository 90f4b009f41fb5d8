import { describe, expect, it } from 'vitest';
import { decodeFetchedRecords } from '../../src/client/fetched-records';
import { ErrorCode } from '../../src/errors/error-codes';
import { encodeTransactionMarkerBatch } from '../../src/records/control-record';
import { encodeRecordBatch } from '../../src/records/record-batch';

/** A batch of `count` records whose values are their offsets, starting at `baseOffset`. */
function batch(baseOffset: bigint, count: number, compression: 'none' | 'zstd' = 'none'): Buffer {
  return encodeRecordBatch({
    baseOffset,
    compression,
    records: Array.from({ length: count }, (_, index) => ({
      key: null,
      value: Buffer.from(String(baseOffset + BigInt(index))),
      timestampMs: 1000 + index,
    })),
  });
}

const values = (result: ReturnType<typeof decodeFetchedRecords>) =>
  result.records.map((record) => record.value?.toString());

describe('decodeFetchedRecords', () => {
  it('drops records below the fetch offset and skips batches wholly below it', () => {
    const bytes = Buffer.concat([batch(0n, 5), batch(5n, 5, 'zstd'), batch(10n, 5)]);
    const result = decodeFetchedRecords('t', 0, 7n, bytes);
    expect(values(result)).toEqual(['7', '8', '9', '10', '11', '12', '13', '14']);
    expect(result.nextOffset).toBe(15n);
    expect(result.error).toBeUndefined();
  });

  it('ignores a partial trailing batch and resumes at its start', () => {
    const whole = batch(0n, 3);
    const cut = batch(3n, 3).subarray(0, 30);
    const result = decodeFetchedRecords('t', 0, 0n, Buffer.concat([whole, cut]));
    expect(values(result)).toEqual(['0', '1', '2']);
    expect(result.nextOffset).toBe(3n);
    expect(result.error).toBeUndefined();
  });

  it('skips control batches but moves past them', () => {
    const marker = encodeTransactionMarkerBatch({
      type: 'commit',
      producerId: 1n,
      producerEpoch: 0,
      coordinatorEpoch: 0,
      timestampMs: 1,
      baseOffset: 2n,
    });
    const result = decodeFetchedRecords('t', 0, 0n, Buffer.concat([batch(0n, 2), marker, batch(3n, 1)]));
    expect(values(result)).toEqual(['0', '1', '3']);
    expect(result.nextOffset).toBe(4n);
  });

  it('stops at a corrupt batch with CORRUPT_MESSAGE naming the partition and offset', () => {
    const bad = batch(2n, 2);
    bad[bad.length - 1]! ^= 0xff;
    const result = decodeFetchedRecords('orders', 3, 0n, Buffer.concat([batch(0n, 2), bad]));
    expect(values(result)).toEqual(['0', '1']);
    expect(result.nextOffset).toBe(2n);
    expect(result.error?.code).toBe(ErrorCode.CORRUPT_MESSAGE);
    expect(result.error?.message).toContain('orders-3 at offset 2');
  });

  it('reports a lone partial batch instead of fetching it forever', () => {
    const result = decodeFetchedRecords('t', 0, 0n, batch(0n, 3).subarray(0, 40));
    expect(result.records).toEqual([]);
    expect(result.error?.code).toBe(ErrorCode.RECORD_LIST_TOO_LARGE);
  });

  it('returns nothing for empty or null records', () => {
    expect(decodeFetchedRecords('t', 0, 4n, null)).toEqual({ records: [], nextOffset: 4n, error: undefined });
    expect(decodeFetchedRecords('t', 0, 4n, Buffer.alloc(0)).records).toEqual([]);
  });
});
