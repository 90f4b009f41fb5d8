import { describe, expect, it, vi } from 'vitest';
import {
  type AppendedBatch,
  type CompletedTransaction,
  lastSequenceOf,
  MAX_SEQUENCE,
  NO_OPEN_TRANSACTION,
  NO_PRODUCER_EPOCH,
  nextSequence,
  ProducerStateManager,
} from './producer-state';

const OUT_OF_ORDER_SEQUENCE_NUMBER = 45;
const INVALID_PRODUCER_EPOCH = 47;
const PRODUCER_ID = 1000;

/**
 * Appends data batches of `recordCount` records each for one producer, at consecutive offsets
 * after the state's map end offset, as the log would after a successful check.
 */
function appendData(
  state: ProducerStateManager,
  options: {
    producerId?: number;
    producerEpoch?: number;
    firstSequence: number;
    recordCount?: number;
    timestampMs?: number;
    isTransactional?: boolean;
    firstOffset?: number;
  },
): AppendedBatch {
  const recordCount = options.recordCount ?? 1;
  const firstOffset = options.firstOffset ?? state.mapEndOffset;
  const batch: AppendedBatch = {
    producerId: options.producerId ?? PRODUCER_ID,
    producerEpoch: options.producerEpoch ?? 0,
    firstSequence: options.firstSequence,
    lastSequence: lastSequenceOf(options.firstSequence, recordCount - 1),
    firstOffset,
    lastOffset: firstOffset + recordCount - 1,
    timestampMs: options.timestampMs ?? 1_000,
    isTransactional: options.isTransactional ?? false,
  };
  state.recordBatch(batch);
  return batch;
}

function appendMarker(
  state: ProducerStateManager,
  options: {
    producerId?: number;
    producerEpoch?: number;
    type: 'commit' | 'abort';
    coordinatorEpoch?: number;
  },
): CompletedTransaction | undefined {
  const offset = state.mapEndOffset;
  return state.recordBatch({
    producerId: options.producerId ?? PRODUCER_ID,
    producerEpoch: options.producerEpoch ?? 0,
    firstSequence: -1,
    lastSequence: -1,
    firstOffset: offset,
    lastOffset: offset,
    timestampMs: 2_000,
    isTransactional: true,
    control: { type: options.type, coordinatorEpoch: options.coordinatorEpoch ?? 0 },
  });
}

describe('sequence helpers', () => {
  it('wraps the next sequence from int32 max to 0', () => {
    expect(nextSequence(0)).toBe(1);
    expect(nextSequence(MAX_SEQUENCE - 1)).toBe(MAX_SEQUENCE);
    expect(nextSequence(MAX_SEQUENCE)).toBe(0);
  });

  it('computes a last sequence that wraps past int32 max', () => {
    expect(lastSequenceOf(10, 4)).toBe(14);
    expect(lastSequenceOf(MAX_SEQUENCE, 0)).toBe(MAX_SEQUENCE);
    expect(lastSequenceOf(MAX_SEQUENCE, 1)).toBe(0);
    expect(lastSequenceOf(MAX_SEQUENCE - 1, 4)).toBe(2);
  });
});

describe('ProducerStateManager.check', () => {
  it('accepts any first sequence from an unknown producer', () => {
    const state = new ProducerStateManager();
    expect(state.check(PRODUCER_ID, 0, 0, 0)).toEqual({ kind: 'append' });
    expect(state.check(PRODUCER_ID, 3, 42, 50)).toEqual({ kind: 'append' });
  });

  it('always appends a non-idempotent batch', () => {
    const state = new ProducerStateManager();
    expect(state.check(-1, 0, 0, 0)).toEqual({ kind: 'append' });
  });

  it('appends the next sequence and refuses a gap or a reorder', () => {
    const state = new ProducerStateManager();
    appendData(state, { firstSequence: 0, recordCount: 3 });
    expect(state.check(PRODUCER_ID, 0, 3, 5)).toEqual({ kind: 'append' });
    expect(state.check(PRODUCER_ID, 0, 4, 5)).toMatchObject({
      kind: 'rejected',
      errorCode: OUT_OF_ORDER_SEQUENCE_NUMBER,
    });
    expect(state.check(PRODUCER_ID, 0, 2, 2)).toMatchObject({
      kind: 'rejected',
      errorCode: OUT_OF_ORDER_SEQUENCE_NUMBER,
    });
  });

  it('refuses a batch overlapping a recent one without matching it exactly', () => {
    const state = new ProducerStateManager();
    appendData(state, { firstSequence: 0, recordCount: 3 });
    expect(state.check(PRODUCER_ID, 0, 0, 1)).toMatchObject({ kind: 'rejected', errorCode: 45 });
    expect(state.check(PRODUCER_ID, 0, 1, 2)).toMatchObject({ kind: 'rejected', errorCode: 45 });
  });

  it('wraps the expected sequence from int32 max to 0', () => {
    const state = new ProducerStateManager();
    appendData(state, { firstSequence: MAX_SEQUENCE - 1, recordCount: 2 });
    expect(state.entry(PRODUCER_ID)?.batches[0]?.lastSequence).toBe(MAX_SEQUENCE);
    expect(state.check(PRODUCER_ID, 0, 0, 4)).toEqual({ kind: 'append' });
    expect(state.check(PRODUCER_ID, 0, MAX_SEQUENCE, MAX_SEQUENCE)).toMatchObject({ kind: 'rejected' });
    // A batch that itself crosses the wrap ends at a small sequence, and the next follows that.
    const crossing = new ProducerStateManager();
    appendData(crossing, { firstSequence: MAX_SEQUENCE - 1, recordCount: 4 });
    expect(crossing.entry(PRODUCER_ID)?.batches[0]?.lastSequence).toBe(1);
    expect(crossing.check(PRODUCER_ID, 0, 2, 2)).toEqual({ kind: 'append' });
    expect(crossing.check(PRODUCER_ID, 0, MAX_SEQUENCE - 1, 1)).toMatchObject({ kind: 'duplicate' });
  });

  it('answers a retry of each of the last five batches with its original offsets', () => {
    const state = new ProducerStateManager();
    state.advanceMapEndOffset(100);
    const batches: AppendedBatch[] = [];
    for (let index = 0; index < 6; index++) {
      batches.push(appendData(state, { firstSequence: index * 2, recordCount: 2, timestampMs: 10 + index }));
    }
    for (const batch of batches.slice(1)) {
      expect(state.check(PRODUCER_ID, 0, batch.firstSequence, batch.lastSequence)).toEqual({
        kind: 'duplicate',
        batch: {
          firstSequence: batch.firstSequence,
          lastSequence: batch.lastSequence,
          firstOffset: batch.firstOffset,
          lastOffset: batch.lastOffset,
          timestampMs: batch.timestampMs,
        },
      });
    }
    expect(batches[5]).toMatchObject({ firstOffset: 110, lastOffset: 111 });
    // The sixth-oldest batch has been forgotten, so its retry is out of order.
    expect(state.check(PRODUCER_ID, 0, 0, 1)).toMatchObject({ kind: 'rejected', errorCode: 45 });
    expect(state.entry(PRODUCER_ID)?.batches.map((batch) => batch.firstSequence)).toEqual([2, 4, 6, 8, 10]);
  });

  it('refuses an epoch older than the known one', () => {
    const state = new ProducerStateManager();
    appendData(state, { producerEpoch: 5, firstSequence: 0 });
    const result = state.check(PRODUCER_ID, 4, 1, 1);
    expect(result).toMatchObject({ kind: 'rejected', errorCode: INVALID_PRODUCER_EPOCH });
    // A retry of a known batch from an older epoch is fenced too, not a duplicate.
    expect(state.check(PRODUCER_ID, 4, 0, 0)).toMatchObject({ kind: 'rejected', errorCode: 47 });
  });

  it('accepts a newer epoch starting at sequence 0 and refuses it starting at 3', () => {
    const state = new ProducerStateManager();
    appendData(state, { producerEpoch: 1, firstSequence: 0, recordCount: 10 });
    expect(state.check(PRODUCER_ID, 2, 0, 0)).toEqual({ kind: 'append' });
    expect(state.check(PRODUCER_ID, 2, 3, 3)).toMatchObject({
      kind: 'rejected',
      errorCode: OUT_OF_ORDER_SEQUENCE_NUMBER,
    });
    // The old epoch's next sequence is no use in the new epoch either.
    expect(state.check(PRODUCER_ID, 2, 10, 10)).toMatchObject({ kind: 'rejected', errorCode: 45 });
  });

  it('resets the entry on a newer epoch so the old batches are neither duplicates nor sequence', () => {
    const state = new ProducerStateManager();
    appendData(state, { producerEpoch: 1, firstSequence: 0, recordCount: 4 });
    appendData(state, { producerEpoch: 2, firstSequence: 0, recordCount: 1 });
    expect(state.entry(PRODUCER_ID)).toMatchObject({ producerEpoch: 2, batches: [{ firstOffset: 4 }] });
    expect(state.check(PRODUCER_ID, 2, 1, 1)).toEqual({ kind: 'append' });
    expect(state.check(PRODUCER_ID, 2, 4, 4)).toMatchObject({ kind: 'rejected', errorCode: 45 });
  });

  it('accepts any first sequence of a newer epoch when the entry has no epoch yet', () => {
    const state = new ProducerStateManager();
    state.loadSnapshot({
      mapEndOffset: 10,
      entries: [
        {
          producerId: PRODUCER_ID,
          producerEpoch: NO_PRODUCER_EPOCH,
          batches: [],
          lastTimestampMs: 0,
          coordinatorEpoch: 0,
          currentTransactionFirstOffset: NO_OPEN_TRANSACTION,
        },
      ],
    });
    expect(state.check(PRODUCER_ID, 0, 3, 3)).toEqual({ kind: 'append' });
  });

  it('expects sequence 0 in an epoch that has no batch yet', () => {
    const state = new ProducerStateManager();
    appendMarker(state, { producerEpoch: 3, type: 'abort' });
    expect(state.check(PRODUCER_ID, 3, 0, 0)).toEqual({ kind: 'append' });
    expect(state.check(PRODUCER_ID, 3, 1, 1)).toMatchObject({ kind: 'rejected', errorCode: 45 });
  });

  it('refuses negative sequences from an idempotent producer', () => {
    const state = new ProducerStateManager();
    expect(state.check(PRODUCER_ID, 0, -1, -1)).toMatchObject({ kind: 'rejected', errorCode: 45 });
  });

  it('changes nothing by itself', () => {
    const state = new ProducerStateManager();
    appendData(state, { firstSequence: 0 });
    state.check(PRODUCER_ID, 0, 1, 1);
    state.check(PRODUCER_ID, 1, 0, 0);
    state.check(2000, 0, 0, 0);
    expect(state.snapshot()).toEqual({
      mapEndOffset: 1,
      entries: [
        {
          producerId: PRODUCER_ID,
          producerEpoch: 0,
          batches: [{ firstSequence: 0, lastSequence: 0, firstOffset: 0, lastOffset: 0, timestampMs: 1_000 }],
          lastTimestampMs: 1_000,
          coordinatorEpoch: -1,
          currentTransactionFirstOffset: -1,
        },
      ],
    });
  });

  it('keeps sequences per producer', () => {
    const state = new ProducerStateManager();
    appendData(state, { producerId: 1, firstSequence: 0, recordCount: 5 });
    appendData(state, { producerId: 2, firstSequence: 0, recordCount: 1 });
    expect(state.check(1, 0, 5, 5)).toEqual({ kind: 'append' });
    expect(state.check(2, 0, 1, 1)).toEqual({ kind: 'append' });
    expect(state.check(2, 0, 5, 5)).toMatchObject({ kind: 'rejected' });
  });
});

describe('ProducerStateManager.recordBatch', () => {
  it('ignores non-idempotent batches but still advances the map end offset', () => {
    const state = new ProducerStateManager();
    appendData(state, { producerId: -1, firstSequence: 0, recordCount: 3 });
    expect(state.producerCount).toBe(0);
    expect(state.mapEndOffset).toBe(3);
  });

  it('does not move sequences on a transaction marker', () => {
    const state = new ProducerStateManager();
    appendData(state, { firstSequence: 0, recordCount: 2, isTransactional: true });
    const before = state.entry(PRODUCER_ID)?.batches;
    appendMarker(state, { type: 'commit', coordinatorEpoch: 7 });
    expect(state.entry(PRODUCER_ID)?.batches).toEqual(before);
    expect(state.entry(PRODUCER_ID)?.coordinatorEpoch).toBe(7);
    expect(state.check(PRODUCER_ID, 0, 2, 2)).toEqual({ kind: 'append' });
    expect(state.check(PRODUCER_ID, 0, 3, 3)).toMatchObject({ kind: 'rejected', errorCode: 45 });
    expect(state.mapEndOffset).toBe(3);
  });

  it('resets sequences when a marker carries a newer epoch', () => {
    const state = new ProducerStateManager();
    appendData(state, { producerEpoch: 0, firstSequence: 0, recordCount: 2, isTransactional: true });
    appendMarker(state, { producerEpoch: 1, type: 'abort' });
    expect(state.entry(PRODUCER_ID)).toMatchObject({ producerEpoch: 1, batches: [] });
    expect(state.check(PRODUCER_ID, 1, 0, 0)).toEqual({ kind: 'append' });
  });

  it('reports a transaction closed by a marker, with the marker as its last offset', () => {
    const completed: CompletedTransaction[] = [];
    const state = new ProducerStateManager({ onTransactionCompleted: (txn) => completed.push(txn) });
    state.advanceMapEndOffset(50);
    appendData(state, { firstSequence: 0, recordCount: 3, isTransactional: true });
    appendData(state, { firstSequence: 3, recordCount: 2, isTransactional: true });
    expect(state.entry(PRODUCER_ID)?.currentTransactionFirstOffset).toBe(50);
    const result = appendMarker(state, { type: 'abort' });
    const expected = { producerId: PRODUCER_ID, firstOffset: 50, lastOffset: 55, aborted: true };
    expect(result).toEqual(expected);
    expect(completed).toEqual([expected]);
    expect(state.entry(PRODUCER_ID)?.currentTransactionFirstOffset).toBe(NO_OPEN_TRANSACTION);

    appendData(state, { firstSequence: 5, isTransactional: true });
    expect(appendMarker(state, { type: 'commit' })).toEqual({
      producerId: PRODUCER_ID,
      firstOffset: 56,
      lastOffset: 57,
      aborted: false,
    });
  });

  it('reports nothing for a marker when no transaction is open', () => {
    const callback = vi.fn();
    const state = new ProducerStateManager({ onTransactionCompleted: callback });
    expect(appendMarker(state, { type: 'commit' })).toBeUndefined();
    appendData(state, { firstSequence: 0 });
    expect(appendMarker(state, { type: 'abort' })).toBeUndefined();
    expect(callback).not.toHaveBeenCalled();
    expect(state.entry(PRODUCER_ID)?.batches).toHaveLength(1);
  });

  it('throws when offsets go backwards', () => {
    const state = new ProducerStateManager();
    appendData(state, { firstSequence: 0, recordCount: 5 });
    expect(() => appendData(state, { firstSequence: 5, firstOffset: 4 })).toThrow(RangeError);
    expect(() => appendData(state, { producerId: -1, firstSequence: 0, firstOffset: 0 })).toThrow(RangeError);
    expect(() =>
      state.recordBatch({
        producerId: PRODUCER_ID,
        producerEpoch: 0,
        firstSequence: 5,
        lastSequence: 5,
        firstOffset: 10,
        lastOffset: 9,
        timestampMs: 0,
        isTransactional: false,
      }),
    ).toThrow(RangeError);
    expect(state.mapEndOffset).toBe(5);
  });

  it('throws on an older epoch or an older coordinator epoch', () => {
    const state = new ProducerStateManager();
    appendData(state, { producerEpoch: 3, firstSequence: 0 });
    expect(() => appendData(state, { producerEpoch: 2, firstSequence: 1 })).toThrow(/older/);
    expect(() => appendMarker(state, { producerEpoch: 2, type: 'abort' })).toThrow(/older/);
    appendMarker(state, { producerEpoch: 3, type: 'commit', coordinatorEpoch: 4 });
    expect(() => appendMarker(state, { producerEpoch: 3, type: 'commit', coordinatorEpoch: 3 })).toThrow(
      /older/,
    );
  });

  it('throws on data batch sequences outside int32', () => {
    const state = new ProducerStateManager();
    expect(() =>
      state.recordBatch({
        producerId: PRODUCER_ID,
        producerEpoch: 0,
        firstSequence: MAX_SEQUENCE,
        lastSequence: MAX_SEQUENCE + 1,
        firstOffset: 0,
        lastOffset: 1,
        timestampMs: 0,
        isTransactional: false,
      }),
    ).toThrow(RangeError);
    expect(state.producerCount).toBe(0);
  });

  it('refuses to move the map end offset backwards', () => {
    const state = new ProducerStateManager();
    state.advanceMapEndOffset(10);
    state.advanceMapEndOffset(10);
    expect(() => state.advanceMapEndOffset(9)).toThrow(RangeError);
    expect(state.mapEndOffset).toBe(10);
  });
});

describe('ProducerStateManager.firstUnstableOffset', () => {
  it('is the smallest first offset of an open transaction', () => {
    const state = new ProducerStateManager();
    expect(state.firstUnstableOffset()).toBeUndefined();
    appendData(state, { producerId: 1, firstSequence: 0 });
    expect(state.firstUnstableOffset()).toBeUndefined();
    appendData(state, { producerId: 2, firstSequence: 0, isTransactional: true });
    appendData(state, { producerId: 3, firstSequence: 0, isTransactional: true });
    appendData(state, { producerId: 2, firstSequence: 1, isTransactional: true });
    expect(state.firstUnstableOffset()).toBe(1);
    appendMarker(state, { producerId: 2, type: 'commit' });
    expect(state.firstUnstableOffset()).toBe(2);
    appendMarker(state, { producerId: 3, type: 'abort' });
    expect(state.firstUnstableOffset()).toBeUndefined();
  });
});

describe('ProducerStateManager.removeExpiredProducers', () => {
  it('removes idle producers whose last batch is at least the expiration old', () => {
    const state = new ProducerStateManager();
    appendData(state, { producerId: 1, firstSequence: 0, timestampMs: 1_000 });
    appendData(state, { producerId: 2, firstSequence: 0, timestampMs: 1_001 });
    appendData(state, { producerId: 3, firstSequence: 0, timestampMs: 0, isTransactional: true });
    expect(state.removeExpiredProducers(1_999, 1_000)).toEqual([]);
    expect(state.removeExpiredProducers(2_000, 1_000)).toEqual([1]);
    expect(state.entry(1)).toBeUndefined();
    expect(state.entry(2)).toBeDefined();
    // Producer 3 is far older but its transaction is open, so it stays until a marker closes it.
    expect(state.removeExpiredProducers(1_000_000, 1_000)).toEqual([2]);
    expect(state.entry(3)).toBeDefined();
    appendMarker(state, { producerId: 3, type: 'commit' });
    expect(state.removeExpiredProducers(1_000_000, 1_000)).toEqual([3]);
    expect(state.producerCount).toBe(0);
    // An expired producer is unknown again, so any sequence is accepted.
    expect(state.check(1, 0, 77, 77)).toEqual({ kind: 'append' });
  });
});

describe('ProducerStateManager.clear and loadSnapshot', () => {
  it('clears to an empty state at the given offset', () => {
    const state = new ProducerStateManager();
    appendData(state, { firstSequence: 0, recordCount: 5 });
    state.clear(3);
    expect(state.snapshot()).toEqual({ mapEndOffset: 3, entries: [] });
    state.clear();
    expect(state.mapEndOffset).toBe(0);
  });

  it('refuses an entry that cannot describe the log below the map end offset', () => {
    const state = new ProducerStateManager();
    appendData(state, { firstSequence: 0 });
    const entry = {
      producerId: 5,
      producerEpoch: 0,
      batches: [{ firstSequence: 0, lastSequence: 0, firstOffset: 10, lastOffset: 10, timestampMs: 0 }],
      lastTimestampMs: 0,
      coordinatorEpoch: -1,
      currentTransactionFirstOffset: -1,
    };
    expect(() => state.loadSnapshot({ mapEndOffset: 10, entries: [entry] })).toThrow(/offsets 10..10/);
    expect(() => state.loadSnapshot({ mapEndOffset: 11, entries: [entry, entry] })).toThrow(/twice/);
    // A refused snapshot leaves the previous state in place.
    expect(state.entry(PRODUCER_ID)).toBeDefined();
    state.loadSnapshot({ mapEndOffset: 11, entries: [entry] });
    expect(state.snapshot()).toEqual({ mapEndOffset: 11, entries: [entry] });
  });

  it('hands out copies that do not alias the state', () => {
    const state = new ProducerStateManager();
    appendData(state, { firstSequence: 0 });
    const batches = state.entry(PRODUCER_ID)?.batches as unknown[];
    batches.length = 0;
    expect(state.entry(PRODUCER_ID)?.batches).toHaveLength(1);
  });
});
