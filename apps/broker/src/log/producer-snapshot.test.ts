import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  decodeProducerSnapshot,
  deleteSnapshotsBelow,
  encodeProducerSnapshot,
  listSnapshotOffsets,
  loadLatestSnapshot,
  PRODUCER_SNAPSHOT_VERSION,
  writeSnapshot,
} from './producer-snapshot';
import {
  type ProducerBatchMetadata,
  type ProducerEntry,
  ProducerStateManager,
  type ProducerStateSnapshot,
} from './producer-state';
import { createStorageIo, StorageError } from './storage';

const io = createStorageIo();
let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'weir-producer-snapshot-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** A batch shape before it is placed at absolute offsets: a gap after the previous one, a size. */
const batchShape = fc.record({
  gap: fc.integer({ min: 0, max: 1_000 }),
  recordCount: fc.integer({ min: 1, max: 500 }),
  firstSequence: fc.integer({ min: 0, max: 2147483647 }),
  lastSequence: fc.integer({ min: 0, max: 2147483647 }),
  timestampMs: fc.integer({ min: -1, max: 2 ** 45 }),
});

const entryShape = fc.record({
  producerId: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  producerEpoch: fc.integer({ min: -1, max: 32767 }),
  lastTimestampMs: fc.integer({ min: -1, max: 2 ** 45 }),
  coordinatorEpoch: fc.integer({ min: -1, max: 2147483647 }),
  startOffset: fc.integer({ min: 0, max: 2 ** 50 }),
  batches: fc.array(batchShape, { maxLength: 5 }),
  openTransaction: fc.boolean(),
});

/** Random valid states: unique producers, ascending batch offsets, all below the map end offset. */
const stateArbitrary: fc.Arbitrary<ProducerStateSnapshot> = fc
  .record({
    shapes: fc.uniqueArray(entryShape, { selector: (shape) => shape.producerId, maxLength: 12 }),
    tail: fc.integer({ min: 1, max: 1_000 }),
  })
  .map(({ shapes, tail }) => {
    let highestOffset = -1;
    const entries: ProducerEntry[] = shapes.map((shape) => {
      let nextOffset = shape.startOffset;
      const batches: ProducerBatchMetadata[] = shape.batches.map((batch) => {
        const firstOffset = nextOffset + batch.gap;
        const lastOffset = firstOffset + batch.recordCount - 1;
        nextOffset = lastOffset + 1;
        highestOffset = Math.max(highestOffset, lastOffset);
        return {
          firstSequence: batch.firstSequence,
          lastSequence: batch.lastSequence,
          firstOffset,
          lastOffset,
          timestampMs: batch.timestampMs,
        };
      });
      highestOffset = Math.max(highestOffset, shape.startOffset);
      return {
        producerId: shape.producerId,
        producerEpoch: shape.producerEpoch,
        batches,
        lastTimestampMs: shape.lastTimestampMs,
        coordinatorEpoch: shape.coordinatorEpoch,
        currentTransactionFirstOffset: shape.openTransaction ? shape.startOffset : -1,
      };
    });
    return { mapEndOffset: highestOffset + tail, entries };
  });

function stateOf(snapshot: ProducerStateSnapshot): ProducerStateManager {
  const state = new ProducerStateManager();
  state.loadSnapshot(snapshot);
  return state;
}

/** A state with one producer that has written `batchCount` one-record batches from offset 0. */
function stateWithBatches(batchCount: number): ProducerStateManager {
  const state = new ProducerStateManager();
  for (let sequence = 0; sequence < batchCount; sequence++) {
    state.recordBatch({
      producerId: 7,
      producerEpoch: 0,
      firstSequence: sequence,
      lastSequence: sequence,
      firstOffset: sequence,
      lastOffset: sequence,
      timestampMs: 100 + sequence,
      isTransactional: false,
    });
  }
  return state;
}

async function snapshotFiles(): Promise<string[]> {
  return (await readdir(directory)).sort();
}

function snapshotFile(offset: number): string {
  return join(directory, `${String(offset).padStart(20, '0')}.snapshot`);
}

describe('encodeProducerSnapshot / decodeProducerSnapshot', () => {
  it('round-trips any valid state', () => {
    fc.assert(
      fc.property(stateArbitrary, (snapshot) => {
        const bytes = encodeProducerSnapshot(snapshot.entries);
        expect(decodeProducerSnapshot(bytes, snapshot.mapEndOffset)).toEqual({
          ok: true,
          entries: snapshot.entries,
        });
      }),
      { numRuns: 300 },
    );
  });

  it('lays out the header as documented', () => {
    const bytes = encodeProducerSnapshot(stateWithBatches(2).snapshot().entries);
    expect(bytes.readInt16BE(0)).toBe(PRODUCER_SNAPSHOT_VERSION);
    expect(bytes.readInt32BE(6)).toBe(1);
    expect(bytes.readBigInt64BE(10)).toBe(7n);
    expect(bytes.length).toBe(10 + 31 + 2 * 32);
  });

  it('rejects a snapshot with any one byte flipped', () => {
    fc.assert(
      fc.property(stateArbitrary, fc.nat(), fc.integer({ min: 1, max: 255 }), (snapshot, position, mask) => {
        const bytes = encodeProducerSnapshot(snapshot.entries);
        const index = position % bytes.length;
        bytes[index] = bytes[index]! ^ mask;
        expect(decodeProducerSnapshot(bytes, snapshot.mapEndOffset).ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('rejects cut-off, padded and unknown-version snapshots with a reason', () => {
    const bytes = encodeProducerSnapshot(stateWithBatches(3).snapshot().entries);
    expect(decodeProducerSnapshot(bytes.subarray(0, 5), 3)).toEqual({
      ok: false,
      reason: '5 bytes is too short',
    });
    expect(decodeProducerSnapshot(bytes.subarray(0, bytes.length - 1), 3)).toMatchObject({ ok: false });
    const padded = Buffer.concat([bytes, Buffer.alloc(1)]);
    expect(decodeProducerSnapshot(padded, 3)).toEqual({ ok: false, reason: 'checksum mismatch' });
    const newer = Buffer.from(bytes);
    newer.writeInt16BE(PRODUCER_SNAPSHOT_VERSION + 1, 0);
    expect(decodeProducerSnapshot(newer, 3)).toEqual({ ok: false, reason: 'unknown version 2' });
  });

  it('rejects a well-checksummed snapshot whose values do not fit its offset', () => {
    const bytes = encodeProducerSnapshot(stateWithBatches(3).snapshot().entries);
    // The last batch is at offset 2, so the state cannot be a snapshot taken at offset 2.
    expect(decodeProducerSnapshot(bytes, 3)).toMatchObject({ ok: true });
    expect(decodeProducerSnapshot(bytes, 2)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/offsets 2..2/),
    });
  });
});

describe('writeSnapshot / loadLatestSnapshot', () => {
  it('round-trips any state through a file', async () => {
    await fc.assert(
      fc.asyncProperty(stateArbitrary, async (snapshot) => {
        const offset = await writeSnapshot(io, directory, stateOf(snapshot));
        expect(offset).toBe(snapshot.mapEndOffset);
        const loaded = new ProducerStateManager();
        const result = await loadLatestSnapshot(io, directory, snapshot.mapEndOffset, loaded);
        expect(result).toEqual({
          loadedOffset: snapshot.mapEndOffset,
          corrupt: [],
          deletedAboveMaxOffset: [],
        });
        expect(loaded.snapshot()).toEqual(stateOf(snapshot).snapshot());
        await io.unlink(snapshotFile(offset));
      }),
      { numRuns: 40 },
    );
  });

  it('names the file by the 20-digit map end offset and leaves no temporary file', async () => {
    await writeSnapshot(io, directory, stateWithBatches(3));
    expect(await snapshotFiles()).toEqual(['00000000000000000003.snapshot']);
  });

  it('skips and deletes a corrupt snapshot and loads the previous one', async () => {
    await writeSnapshot(io, directory, stateWithBatches(2));
    await writeSnapshot(io, directory, stateWithBatches(4));
    const newest = await readFile(snapshotFile(4));
    newest[20] = newest[20]! ^ 0x01;
    await writeFile(snapshotFile(4), newest);

    const state = new ProducerStateManager();
    const result = await loadLatestSnapshot(io, directory, 100, state);
    expect(result).toEqual({
      loadedOffset: 2,
      corrupt: [{ offset: 4, reason: 'checksum mismatch' }],
      deletedAboveMaxOffset: [],
    });
    expect(state.snapshot()).toEqual(stateWithBatches(2).snapshot());
    expect(await snapshotFiles()).toEqual(['00000000000000000002.snapshot']);
  });

  it('deletes snapshots above the maximum offset and loads one exactly at it', async () => {
    for (const count of [1, 2, 3, 5]) await writeSnapshot(io, directory, stateWithBatches(count));
    const state = new ProducerStateManager();
    const result = await loadLatestSnapshot(io, directory, 2, state);
    expect(result).toEqual({ loadedOffset: 2, corrupt: [], deletedAboveMaxOffset: [3, 5] });
    expect(state.mapEndOffset).toBe(2);
    expect(state.entry(7)?.batches.map((batch) => batch.lastOffset)).toEqual([0, 1]);
    expect(await snapshotFiles()).toEqual(['00000000000000000001.snapshot', '00000000000000000002.snapshot']);
  });

  it('clears the state when no snapshot is usable', async () => {
    await writeFile(snapshotFile(3), Buffer.from('not a snapshot'));
    const state = stateWithBatches(5);
    const result = await loadLatestSnapshot(io, directory, 10, state);
    expect(result).toEqual({
      loadedOffset: undefined,
      // The text's first two bytes, "no", read as version 0x6e6f.
      corrupt: [{ offset: 3, reason: 'unknown version 28271' }],
      deletedAboveMaxOffset: [],
    });
    expect(state.snapshot()).toEqual({ mapEndOffset: 0, entries: [] });
    expect(await snapshotFiles()).toEqual([]);
  });

  it('loads nothing from a directory that does not exist', async () => {
    const state = new ProducerStateManager();
    const result = await loadLatestSnapshot(io, join(directory, 'missing'), 10, state);
    expect(result.loadedOffset).toBeUndefined();
  });

  it('lets a read failure other than a missing file escape as a StorageError', async () => {
    await writeSnapshot(io, directory, stateWithBatches(1));
    const failing = createStorageIo({ faults: (operation) => (operation === 'read' ? 'EIO' : undefined) });
    const load = loadLatestSnapshot(failing, directory, 10, new ProducerStateManager());
    await expect(load).rejects.toBeInstanceOf(StorageError);
    await expect(load).rejects.toMatchObject({ errno: 'EIO' });
    expect(await snapshotFiles()).toEqual(['00000000000000000001.snapshot']);
  });
});

describe('listSnapshotOffsets / deleteSnapshotsBelow', () => {
  it('lists only snapshot files, in offset order', async () => {
    for (const name of [
      '00000000000000000020.snapshot',
      '00000000000000000003.snapshot',
      '00000000000000000003.log',
      '00000000000000000009.snapshot.tmp',
      '9.snapshot',
    ]) {
      await writeFile(join(directory, name), '');
    }
    expect(await listSnapshotOffsets(io, directory)).toEqual([3, 20]);
    expect(await listSnapshotOffsets(io, join(directory, 'missing'))).toEqual([]);
  });

  it('deletes snapshots below an offset but keeps the newest of them', async () => {
    for (const count of [1, 2, 3, 5]) await writeSnapshot(io, directory, stateWithBatches(count));
    expect(await deleteSnapshotsBelow(io, directory, 1)).toEqual([]);
    expect(await deleteSnapshotsBelow(io, directory, 2)).toEqual([]);
    expect(await deleteSnapshotsBelow(io, directory, 4)).toEqual([1, 2]);
    expect(await listSnapshotOffsets(io, directory)).toEqual([3, 5]);
    expect(await deleteSnapshotsBelow(io, directory, 100)).toEqual([3]);
    expect(await listSnapshotOffsets(io, directory)).toEqual([5]);
  });
});
