import { BatchLayout, iterateBatches } from '@weir/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../../test/fixtures/seeded-random';
import { createManager, makeBatch, temporaryDirectory } from '../../test/log-fixtures';
import type { LogManager } from './log-manager';
import type { PartitionLog } from './partition-log';
import { SegmentRegion, type StoredRecords } from './segment-region';

/** The bytes a region stands for, read the way a connection writes it: in small chunks. */
async function bytesOf(records: StoredRecords, chunkBytes = 777): Promise<Buffer> {
  if (!(records instanceof SegmentRegion)) return records;
  const chunks: Uint8Array[] = [];
  for (let fromByte = 0; fromByte < records.length; ) {
    const chunk = await records.read(fromByte, chunkBytes);
    expect(chunk.length).toBeGreaterThan(0);
    chunks.push(chunk);
    fromByte += chunk.length;
  }
  records.release();
  return Buffer.concat(chunks);
}

/** The records in whole batches, from their headers. */
function recordsIn(bytes: Buffer): number {
  let count = 0;
  for (const item of iterateBatches(bytes)) {
    if (item.kind === 'batch') count += item.bytes.readInt32BE(BatchLayout.recordCount);
  }
  return count;
}

describe('reads left on disk as segment regions', () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  let manager: LogManager;
  let log: PartitionLog;

  beforeEach(async () => {
    directory = await temporaryDirectory();
    manager = createManager(directory.path, { config: { segmentBytes: 64 * 1024, indexIntervalBytes: 512 } });
    await manager.start();
    log = await manager.createLog('orders', 0);
  });
  afterEach(async () => {
    await manager.shutdown().catch(() => undefined);
    await directory.cleanup();
  });

  it('return exactly the batches a read into memory returns, for any offset, size and bound', async () => {
    const random = seededRandom(20261201);
    for (let index = 0; index < 300; index++) {
      const count = 1 + Math.floor(random() * 5);
      await log.append(makeBatch({ count, label: `b${index}`, valueBytes: Math.floor(random() * 400) }), {
        origin: 'client',
      });
    }
    const end = log.logEndOffset;
    for (let trial = 0; trial < 300; trial++) {
      const fetchOffset = Math.floor(random() * end);
      const maxOffset = fetchOffset + 1 + Math.floor(random() * (end - fetchOffset));
      const maxBytes = Math.floor(random() * 20_000);
      const minOneBatch = random() < 0.8;
      const options = { maxBytes, maxOffset, minOneBatch, isolation: 'read_committed' as const };
      const inMemory = await log.read(fetchOffset, options);
      const deferred = await log.read(fetchOffset, { ...options, deferAboveBytes: 0 });
      const what = `offset ${fetchOffset}, maxOffset ${maxOffset}, maxBytes ${maxBytes}, minOneBatch ${minOneBatch}`;
      expect(deferred.records.length, what).toBe(inMemory.records.length);
      expect(deferred.abortedTransactions, what).toEqual(inMemory.abortedTransactions);
      if (deferred.records instanceof SegmentRegion) {
        expect(deferred.records.recordCount, what).toBe(recordsIn(inMemory.records));
      }
      expect((await bytesOf(deferred.records)).equals(inMemory.records), what).toBe(true);
    }
  });

  it('read into a buffer the caller passes, as views of it, the same bytes as fresh reads', async () => {
    for (let index = 0; index < 50; index++) {
      await log.append(makeBatch({ count: 3, label: `b${index}`, valueBytes: 200 }), { origin: 'client' });
    }
    const options = { maxBytes: 20_000, maxOffset: Number.MAX_SAFE_INTEGER, deferAboveBytes: 0 };
    const region = (await log.read(0, options)).records;
    if (!(region instanceof SegmentRegion)) throw new Error('expected the read to stay on disk');
    const expected = await bytesOf((await log.read(0, options)).records);
    const into = Buffer.alloc(1000);
    const chunks: Buffer[] = [];
    for (let fromByte = 0; fromByte < region.length; ) {
      const chunk = await region.read(fromByte, 1000, into);
      expect(chunk.buffer).toBe(into.buffer);
      chunks.push(Buffer.from(chunk));
      fromByte += chunk.length;
    }
    expect(Buffer.concat(chunks).equals(expected)).toBe(true);
    await expect(region.read(0, 1000, Buffer.alloc(999))).rejects.toThrow(/999-byte buffer/);
    region.release();
  });

  it('stay readable after retention deletes their segment, and close its file once released', async () => {
    for (let index = 0; index < 400; index++) {
      await log.append(makeBatch({ count: 2, label: `b${index}`, valueBytes: 300 }), { origin: 'client' });
    }
    const expected = await log.read(0, { maxBytes: 40_000, maxOffset: Number.MAX_SAFE_INTEGER });
    const region = (
      await log.read(0, { maxBytes: 40_000, maxOffset: Number.MAX_SAFE_INTEGER, deferAboveBytes: 0 })
    ).records;
    if (!(region instanceof SegmentRegion)) throw new Error('expected the read to stay on disk');
    await log.deleteRecordsBefore(log.logEndOffset - 1);
    await manager.runRetention();
    expect(log.logStartOffset).toBeGreaterThan(0);
    expect((await bytesOf(region)).equals(expected.records)).toBe(true);
    await expect(region.read(0, 1)).rejects.toThrow(/released/);
  });
});
