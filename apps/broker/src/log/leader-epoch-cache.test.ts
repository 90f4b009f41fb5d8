import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../test/log-fixtures';
import { LeaderEpochCache } from './leader-epoch-cache';
import { readLeaderEpochCheckpoint } from './leader-epoch-checkpoint';
import { createStorageIo } from './storage';

/*
 * The leader-epoch cache's rules (Kafka's LeaderEpochFileCache, KIP-101 and KIP-279) and its
 * checkpoint file, on a real file.
 */

const io = createStorageIo();
let directory: { path: string; cleanup(): Promise<void> };
let path: string;

beforeEach(async () => {
  directory = await temporaryDirectory('weir-epochs-');
  path = join(directory.path, 'leader-epoch-checkpoint');
});
afterEach(async () => {
  await directory.cleanup();
});

/** Epochs 1 at 0, 3 at 10, 4 at 25; the log ends at 40. */
function threeEpochs(): LeaderEpochCache {
  const cache = new LeaderEpochCache(io, path, []);
  expect(cache.assign(1, 0)).toBe('appended');
  expect(cache.assign(1, 5)).toBe('unchanged');
  expect(cache.assign(3, 10)).toBe('appended');
  expect(cache.assign(4, 25)).toBe('appended');
  return cache;
}

describe('LeaderEpochCache', () => {
  it('answers the end of each epoch by Kafka rule', () => {
    const cache = threeEpochs();
    const endOf = (epoch: number) => cache.endOffsetFor(epoch, 40);
    // The newest epoch ends at the log end.
    expect(endOf(4)).toEqual({ epoch: 4, endOffset: 40 });
    // An older one ends where the next larger one starts.
    expect(endOf(3)).toEqual({ epoch: 3, endOffset: 25 });
    expect(endOf(1)).toEqual({ epoch: 1, endOffset: 10 });
    // One that never wrote answers with the largest epoch below it and the next one's start.
    expect(endOf(2)).toEqual({ epoch: 1, endOffset: 10 });
    // Below every known epoch: the first known epoch's start (KIP-279), with the epoch asked.
    expect(endOf(0)).toEqual({ epoch: 0, endOffset: 0 });
    // No epoch, and one above the newest, are undefined.
    expect(endOf(-1)).toEqual({ epoch: -1, endOffset: -1 });
    expect(endOf(5)).toEqual({ epoch: -1, endOffset: -1 });
    expect(new LeaderEpochCache(io, path, []).endOffsetFor(0, 40)).toEqual({ epoch: -1, endOffset: -1 });
  });

  it('ignores batches without an epoch and refuses to go back to an older one', () => {
    const cache = threeEpochs();
    expect(cache.assign(-1, 41)).toBe('unchanged');
    expect(cache.assign(2, 41)).toBe('stale');
    expect(cache.entries).toEqual([
      { epoch: 1, startOffset: 0 },
      { epoch: 3, startOffset: 10 },
      { epoch: 4, startOffset: 25 },
    ]);
  });

  it('names the epoch that wrote an offset', () => {
    const cache = threeEpochs();
    expect([0, 9, 10, 24, 25, 39].map((offset) => cache.epochForOffset(offset))).toEqual([1, 1, 3, 3, 4, 4]);
    expect(new LeaderEpochCache(io, path, [{ epoch: 2, startOffset: 7 }]).epochForOffset(3)).toBe(-1);
  });

  it('drops the epochs of a cut tail and folds those below a new log start into it', () => {
    const cache = threeEpochs();
    expect(cache.truncateFromEnd(40)).toBe(false);
    expect(cache.truncateFromEnd(25)).toBe(true);
    expect(cache.entries).toEqual([
      { epoch: 1, startOffset: 0 },
      { epoch: 3, startOffset: 10 },
    ]);
    // The next leader's epoch starts where the cut left the log.
    expect(cache.assign(5, 25)).toBe('appended');
    expect(cache.truncateFromStart(0)).toBe(false);
    expect(cache.truncateFromStart(12)).toBe(true);
    expect(cache.entries).toEqual([
      { epoch: 3, startOffset: 12 },
      { epoch: 5, startOffset: 25 },
    ]);
    expect(cache.truncateFromStart(25)).toBe(true);
    expect(cache.entries).toEqual([{ epoch: 5, startOffset: 25 }]);
  });

  it('persists in Kafka format, each write replacing the file, and reads it back', async () => {
    const cache = threeEpochs();
    const first = cache.persist();
    cache.truncateFromEnd(10);
    const second = cache.persist();
    await Promise.all([first, second]);
    expect(await readFile(path, 'utf8')).toBe('0\n1\n1 0\n');
    cache.assign(7, 12);
    await cache.persist();
    expect(await readFile(path, 'utf8')).toBe('0\n2\n1 0\n7 12\n');
    expect(await readLeaderEpochCheckpoint(io, path)).toEqual({
      kind: 'found',
      entries: [
        { epoch: 1, startOffset: 0 },
        { epoch: 7, startOffset: 12 },
      ],
    });
  });

  it.each([
    ['another version', '1\n0\n'],
    ['a count that lies', '0\n3\n1 0\n'],
    ['a field that is not a number', '0\n1\n1 zero\n'],
    ['a negative offset', '0\n1\n1 -4\n'],
    ['an extra field', '0\n1\n1 0 9\n'],
    ['epochs that do not rise', '0\n2\n3 0\n3 5\n'],
    ['offsets that fall', '0\n2\n1 9\n2 5\n'],
    ['an empty file', ''],
  ])('calls a checkpoint with %s damaged', async (_label, text) => {
    await writeFile(path, text);
    expect(await readLeaderEpochCheckpoint(io, path)).toMatchObject({ kind: 'damaged' });
  });

  it('calls a missing checkpoint missing', async () => {
    expect(await readLeaderEpochCheckpoint(io, path)).toEqual({ kind: 'missing' });
  });
});
