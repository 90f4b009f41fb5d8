import { describe, expect, it } from 'vitest';
import { KeyOffsetMap } from './key-offset-map';
import { batchRetention, type CleanedBatch, type CleanedRecord } from './record-retention';

const data: CleanedBatch = {
  isControl: false,
  isAborted: false,
  isLastOfLiveProducer: false,
  transactionHasRecords: false,
};

function record(offset: number, key: string | null, isTombstone = false): CleanedRecord {
  return { offset, key: key === null ? null : Buffer.from(key), isTombstone };
}

/** The map after reading offsets 0..9: a at 7, b at 3, c (a tombstone) at 9. */
function mapOf(): KeyOffsetMap {
  const map = new KeyOffsetMap(4096);
  map.put(Buffer.from('a'), 0);
  map.put(Buffer.from('b'), 3);
  map.put(Buffer.from('a'), 7);
  map.put(Buffer.from('c'), 9);
  return map;
}

describe('batchRetention', () => {
  it('keeps the latest record of each key and drops older ones, keeping records past the map', () => {
    const records = [record(0, 'a'), record(3, 'b'), record(7, 'a'), record(12, 'a')];
    expect(batchRetention(data, records, { map: mapOf(), retainDeletes: true })).toEqual({
      keptOffsets: [3, 7, 12],
      keepBatch: true,
    });
  });

  it('keeps a tombstone while deletes are retained, and drops it after', () => {
    const records = [record(9, 'c', true)];
    expect(batchRetention(data, records, { map: mapOf(), retainDeletes: true }).keptOffsets).toEqual([9]);
    expect(batchRetention(data, records, { map: mapOf(), retainDeletes: false })).toEqual({
      keptOffsets: [],
      keepBatch: false,
    });
  });

  it('drops records without a key', () => {
    expect(
      batchRetention(data, [record(1, null)], { map: mapOf(), retainDeletes: true }).keptOffsets,
    ).toEqual([]);
  });

  it('drops an aborted transaction whole, but keeps a live producer’s last batch header', () => {
    const records = [record(3, 'b')];
    expect(
      batchRetention({ ...data, isAborted: true }, records, { map: mapOf(), retainDeletes: true }),
    ).toEqual({
      keptOffsets: [],
      keepBatch: false,
    });
    const anchor = batchRetention({ ...data, isAborted: true, isLastOfLiveProducer: true }, records, {
      map: mapOf(),
      retainDeletes: true,
    });
    expect(anchor).toEqual({ keptOffsets: [], keepBatch: true });
    // Superseded records of a live producer's last batch go, its header stays.
    expect(
      batchRetention({ ...data, isLastOfLiveProducer: true }, [record(0, 'a')], {
        map: mapOf(),
        retainDeletes: true,
      }),
    ).toEqual({ keptOffsets: [], keepBatch: true });
  });

  it('keeps a marker while its transaction has records or deletes are retained', () => {
    const marker = { ...data, isControl: true };
    const records = [record(5, null)];
    expect(
      batchRetention({ ...marker, transactionHasRecords: true }, records, {
        map: mapOf(),
        retainDeletes: false,
      }),
    ).toEqual({ keptOffsets: [5], keepBatch: true });
    expect(batchRetention(marker, records, { map: mapOf(), retainDeletes: true }).keptOffsets).toEqual([5]);
    expect(batchRetention(marker, records, { map: mapOf(), retainDeletes: false })).toEqual({
      keptOffsets: [],
      keepBatch: false,
    });
  });
});
