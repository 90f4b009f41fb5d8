import { BATCH_LOG_OVERHEAD_BYTES, decodeRecordBatch, encodeRecordBatch } from '@weir/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManager, temporaryDirectory } from '../../../test/log-fixtures';
import type { PartitionLog } from '../partition-log';
import { createStorageIo, type FaultInjector, type StorageOperation } from '../storage';
import { KeyOffsetMap } from './key-offset-map';
import { cleanPartition } from './partition-cleaner';

/**
 * The cleaner on real files: a compacted partition keeps the latest record of every key at its
 * own offset, reads across the holes it leaves go on to the next record, and a crash at any file
 * operation of a clean leaves, after the next start, a log that reads the same latest values with
 * no record changed or invented.
 */

const KEYS = 6;
const ROUNDS = 8;
const COMPACT = {
  compact: true,
  deleteByRetention: false,
  minCleanableDirtyRatio: 0,
  segmentBytes: 800,
  flushMs: 1,
} as const;

interface StoredRecord {
  offset: number;
  key: string;
  value: string | null;
}

function keyed(key: string, value: string | null): Buffer {
  return encodeRecordBatch({
    records: [
      { key: Buffer.from(key), value: value === null ? null : Buffer.from(value), timestampMs: Date.now() },
    ],
  });
}

/** Rounds of writes to every key, a tombstone for k1, and filler that closes every segment written. */
async function fill(log: PartitionLog): Promise<void> {
  for (let round = 0; round < ROUNDS; round++) {
    for (let key = 0; key < KEYS; key++) {
      await log.append(keyed(`k${key}`, `v${round}-${key}`), { origin: 'client' });
    }
  }
  await log.append(keyed('k1', null), { origin: 'client' });
  const segments = log.segments.length;
  while (log.segments.length === segments) await log.append(keyed('filler', 'f'), { origin: 'client' });
  await log.flush();
}

async function readAll(log: PartitionLog): Promise<StoredRecord[]> {
  const records: StoredRecord[] = [];
  let offset = log.logStartOffset;
  while (offset < log.logEndOffset) {
    const { records: bytes } = await log.read(offset, { maxBytes: 1 << 20, maxOffset: log.logEndOffset });
    const buffer = bytes as Buffer;
    let position = 0;
    let next = offset;
    while (position < buffer.length) {
      const size = BATCH_LOG_OVERHEAD_BYTES + buffer.readInt32BE(position + 8);
      const batch = decodeRecordBatch(buffer.subarray(position, position + size));
      if (!batch.ok) throw batch.error;
      for (const record of batch.value.records) {
        if (Number(record.offset) < offset) continue;
        records.push({
          offset: Number(record.offset),
          key: record.key!.toString(),
          value: record.value === null ? null : record.value.toString(),
        });
      }
      next = Number(batch.value.baseOffset) + batch.value.lastOffsetDelta + 1;
      position += size;
    }
    if (next <= offset) throw new Error(`no progress reading at ${offset}`);
    offset = next;
  }
  return records;
}

function latestPerKey(records: readonly StoredRecord[]): Map<string, StoredRecord> {
  const latest = new Map<string, StoredRecord>();
  for (const record of records) latest.set(record.key, record);
  return latest;
}

/** Every record of `after` is in `before` at the same offset, unchanged, and the latest values agree. */
function expectSameTable(after: readonly StoredRecord[], before: readonly StoredRecord[]): void {
  const byOffset = new Map(before.map((record) => [record.offset, record]));
  for (const record of after) expect(byOffset.get(record.offset)).toEqual(record);
  expect(latestPerKey(after)).toEqual(latestPerKey(before));
}

describe('cleanPartition', () => {
  let directory: { path: string; cleanup: () => Promise<void> };

  beforeEach(async () => {
    directory = await temporaryDirectory();
  });
  afterEach(async () => {
    await directory.cleanup();
  });

  it('keeps the latest record of each key at its own offset, and reads skip the holes', async () => {
    const manager = createManager(directory.path, { config: COMPACT });
    await manager.start();
    const log = await manager.createLog('table', 0);
    await fill(log);
    const before = await readAll(log);
    const endBefore = log.logEndOffset;

    const outcome = await manager.cleaner.cleanNow(log);
    expect(outcome?.kind).toBe('cleaned');
    const after = await readAll(log);
    expectSameTable(after, before);
    expect(log.logEndOffset).toBe(endBefore);
    // Below where the clean reached, each key is left once (the tombstone of k1 is kept: deletes
    // stay through the first clean and delete.retention.ms longer).
    const cleanedUpTo = outcome?.kind === 'cleaned' ? outcome.cleanedUpToOffset : 0;
    const cleaned = after.filter((record) => record.offset < cleanedUpTo);
    const keys = cleaned.map((record) => record.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(cleaned.find((record) => record.key === 'k1')?.value).toBeNull();
    expect(after.length).toBeLessThan(before.length);

    // A read from inside a removed range starts at the next record that is left.
    const removed = before.find((record) => !after.some((kept) => kept.offset === record.offset))!;
    const { records } = await log.read(removed.offset, { maxBytes: 1 << 16, maxOffset: log.logEndOffset });
    const first = decodeRecordBatch(records as Buffer);
    expect(first.ok && Number(first.value.records[0]!.offset)).toBe(
      after.find((record) => record.offset > removed.offset)!.offset,
    );

    // Groups are sized by what segments held before, so the small segments a clean leaves are
    // merged by the next one.
    await fill(log);
    const beforeSecond = await readAll(log);
    const second = await manager.cleaner.cleanNow(log);
    expect(second?.kind).toBe('cleaned');
    expect(log.segments.length).toBeLessThan(second?.kind === 'cleaned' ? second.segmentsBefore : 0);
    const afterSecond = await readAll(log);
    expectSameTable(afterSecond, beforeSecond);

    await manager.shutdown();
    const reopened = createManager(directory.path, { config: COMPACT });
    await reopened.start();
    expect(await readAll(reopened.getLog('table', 0)!)).toEqual(afterSecond);
    await reopened.shutdown();
  });

  it('a segment rolled while the clean reads the segment list is left for the next clean', async () => {
    const manager = createManager(directory.path, { config: COMPACT });
    await manager.start();
    const log = await manager.createLog('table', 0);
    await fill(log);
    const before = await readAll(log);
    const segmentsAtStart = log.segments.length;
    let rolled = false;
    const outcome = await cleanPartition(log, undefined, log.logEndOffset, {
      map: new KeyOffsetMap(64 * 1024),
      firstTimestamps: new WeakMap(),
      nowMs: () => Date.now(),
      afterChunk: async () => undefined,
      // The first file the clean opens is while it summarizes the closed segments: the log rolls
      // right then, as a producer's appends can make it.
      openForReading: async (path) => {
        if (!rolled) {
          rolled = true;
          while (log.segments.length === segmentsAtStart)
            await log.append(keyed('filler', 'f'), { origin: 'client' });
        }
        return createStorageIo().openFile(path, 'read');
      },
    });
    expect(rolled).toBe(true);
    expect(outcome.kind).toBe('cleaned');
    const after = await readAll(log);
    expectSameTable(
      after.filter((record) => record.offset < before.at(-1)!.offset + 1),
      before,
    );
    await manager.shutdown();
  });

  it('a crash at any file operation of a clean loses and invents nothing', async () => {
    const mutating: readonly StorageOperation[] = [
      'open',
      'write',
      'datasync',
      'truncate',
      'rename',
      'unlink',
      'mkdir',
      'rm',
    ];
    // First count the operations of one whole clean, then crash at each of them in turn.
    let counting = false;
    let count = 0;
    let crashAt = Number.POSITIVE_INFINITY;
    const faults: FaultInjector = (operation) => {
      if (!counting || !mutating.includes(operation)) return undefined;
      count++;
      return count >= crashAt ? 'EIO' : undefined;
    };
    const run = async (path: string) => {
      const manager = createManager(path, { config: COMPACT, faults: { injector: faults } });
      await manager.start();
      const log = await manager.createLog('table', 0);
      await fill(log);
      const before = await readAll(log);
      count = 0;
      counting = true;
      await manager.cleaner.cleanNow(log).catch(() => undefined);
      counting = false;
      await manager.crash();
      const reopened = createManager(path, { config: COMPACT });
      await reopened.start();
      const after = await readAll(reopened.getLog('table', 0)!);
      await reopened.shutdown();
      return { before, after };
    };
    const whole = await run(`${directory.path}/whole`);
    expectSameTable(whole.after, whole.before);
    const operations = count;
    expect(operations).toBeGreaterThan(10);
    for (crashAt = 1; crashAt <= operations; crashAt++) {
      const { before, after } = await run(`${directory.path}/crash-${crashAt}`);
      expectSameTable(after, before);
    }
  }, 120_000);
});
