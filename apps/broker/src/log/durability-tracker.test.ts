import { describe, expect, it } from 'vitest';
import { DurabilityTracker } from './durability-tracker';
import type { FlushedPoint } from './flushed-point';
import type { Segment } from './segment';
import { StorageError } from './storage';

/** A segment whose flushes finish only when the test says so. */
class FakeSegment {
  readonly pending: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  flushCalls = 0;

  flush(): Promise<void> {
    this.flushCalls++;
    return new Promise<void>((resolve, reject) => this.pending.push({ resolve, reject }));
  }

  finishFlush(): void {
    this.pending.shift()!.resolve();
  }

  failFlush(error: unknown): void {
    this.pending.shift()!.reject(error);
  }
}

function asSegment(fake: FakeSegment): Segment {
  return fake as unknown as Segment;
}

/** Lets every settled promise's callbacks run (no timers involved). */
async function settle(): Promise<void> {
  for (let round = 0; round < 10; round++) await Promise.resolve();
}

function tracker(written: { offset: number }, errors: StorageError[] = []) {
  return new DurabilityTracker(
    0,
    { flushMessages: Number.POSITIVE_INFINITY, flushMs: Number.POSITIVE_INFINITY },
    {
      writtenOffset: () => written.offset,
      onStorageError: (error) => errors.push(error),
      onFlushed: () => {},
    },
  );
}

describe('DurabilityTracker', () => {
  it('flushes every dirty segment at once and resolves only when all are durable', async () => {
    const written = { offset: 10 };
    const durability = tracker(written);
    const older = new FakeSegment();
    const active = new FakeSegment();
    durability.markDirty(asSegment(older));
    durability.markDirty(asSegment(active));
    let flushed = false;
    const waiting = durability.waitUntilFlushed(10).then(() => {
      flushed = true;
    });
    await settle();
    // Both fdatasyncs were started before either finished.
    expect([older.flushCalls, active.flushCalls]).toEqual([1, 1]);
    active.finishFlush();
    await settle();
    expect(flushed).toBe(false);
    expect(durability.flushedOffset).toBe(0);
    older.finishFlush();
    await waiting;
    expect(durability.flushedOffset).toBe(10);
  });

  it('covers a write made during a flush with one more flush, started as soon as that one ends', async () => {
    const written = { offset: 5 };
    const durability = tracker(written);
    const segment = new FakeSegment();
    durability.markDirty(asSegment(segment));
    const first = durability.waitUntilFlushed(5);
    await settle();
    written.offset = 8;
    durability.markDirty(asSegment(segment));
    let secondDone = false;
    const second = durability.waitUntilFlushed(8).then(() => {
      secondDone = true;
    });
    segment.finishFlush();
    await first;
    expect(durability.flushedOffset).toBe(5);
    expect(secondDone).toBe(false);
    await settle();
    expect(segment.flushCalls).toBe(2);
    segment.finishFlush();
    await second;
    expect(durability.flushedOffset).toBe(8);
    expect(segment.flushCalls).toBe(2);
  });

  it('reports a failed flush of one segment and advances nothing', async () => {
    const errors: StorageError[] = [];
    const durability = tracker({ offset: 3 }, errors);
    const older = new FakeSegment();
    const active = new FakeSegment();
    durability.markDirty(asSegment(older));
    durability.markDirty(asSegment(active));
    void durability.waitUntilFlushed(3).catch(() => undefined);
    await settle();
    const failure = new StorageError('datasync', 'older.log', 'EIO');
    older.failFlush(failure);
    await settle();
    expect(errors).toEqual([failure]);
    active.finishFlush();
    await settle();
    expect(durability.flushedOffset).toBe(0);
  });

  it('records the flushed point beside the fdatasync it covers and answers once both are done', async () => {
    const written = { offset: 4 };
    const recorded: { point: FlushedPoint; confirmedOffset: number; finish: () => void }[] = [];
    const durability = new DurabilityTracker(
      0,
      { flushMessages: Number.POSITIVE_INFINITY, flushMs: Number.POSITIVE_INFINITY },
      { writtenOffset: () => written.offset, onStorageError: () => {}, onFlushed: () => {} },
      {
        capture: () => ({ offset: written.offset, segmentBaseOffset: 0, positionBytes: written.offset * 10 }),
        record: (point, confirmedOffset) =>
          new Promise<void>((resolve) => recorded.push({ point, confirmedOffset, finish: resolve })),
      },
    );
    const segment = new FakeSegment();
    durability.markDirty(asSegment(segment));
    let firstDone = false;
    const first = durability.waitUntilFlushed(4).then(() => {
      firstDone = true;
    });
    await settle();
    // Both started at once; the point's confirmed offset is what was on disk before the round.
    expect(segment.flushCalls).toBe(1);
    expect(recorded.map(({ point, confirmedOffset }) => [point.offset, confirmedOffset])).toEqual([[4, 0]]);
    segment.finishFlush();
    await settle();
    expect(firstDone).toBe(false);
    recorded[0]!.finish();
    await first;
    expect(durability.flushedOffset).toBe(4);

    written.offset = 6;
    durability.markDirty(asSegment(segment));
    const second = durability.waitUntilFlushed(6);
    await settle();
    expect(recorded.map(({ point, confirmedOffset }) => [point.offset, confirmedOffset])).toEqual([
      [4, 0],
      [6, 4],
    ]);
    recorded[1]!.finish();
    await settle();
    // The point alone does not answer anyone: the data must be on disk too.
    expect(durability.flushedOffset).toBe(4);
    segment.finishFlush();
    await second;
    expect(durability.flushedOffset).toBe(6);
  });
});
