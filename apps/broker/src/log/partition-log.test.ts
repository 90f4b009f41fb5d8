import { ErrorCode, WeirError } from '@weir/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createManager,
  FaultPlan,
  ManualClock,
  makeBatch,
  RecordingLogger,
  temporaryDirectory,
} from '../../test/log-fixtures';
import { batchesOf } from '../../test/log-reads';
import type { LogManager } from './log-manager';

describe('PartitionLog', () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  let manager: LogManager;

  beforeEach(async () => {
    directory = await temporaryDirectory();
  });
  afterEach(async () => {
    await manager?.shutdown().catch(() => undefined);
    await directory.cleanup();
  });

  it('assigns contiguous offsets and reads back every batch across segment rolls', async () => {
    manager = createManager(directory.path, { config: { segmentBytes: 600, indexIntervalBytes: 100 } });
    await manager.start();
    const log = await manager.createLog('orders', 0);
    const appended = [];
    for (let index = 0; index < 40; index++) {
      const count = 1 + (index % 3);
      appended.push(await log.append(makeBatch({ count, label: `b${index}` }), { origin: 'client' }));
    }
    let expectedBase = 0;
    for (const [index, result] of appended.entries()) {
      expect(result.baseOffset).toBe(expectedBase);
      expect(result.lastOffset).toBe(expectedBase + (index % 3));
      expectedBase = result.lastOffset + 1;
    }
    expect(log.logEndOffset).toBe(expectedBase);
    expect(log.segments.length).toBeGreaterThan(3);
    // A read from every offset starts with the batch that contains it.
    for (let offset = 0; offset < log.logEndOffset; offset++) {
      const read = await log.read(offset, { maxBytes: 1, maxOffset: log.logEndOffset });
      const [first] = batchesOf(read.records);
      expect(first!.baseOffset).toBeLessThanOrEqual(offset);
      expect(first!.lastOffset).toBeGreaterThanOrEqual(offset);
    }
    const containing = appended.findIndex((result) => result.lastOffset >= 10);
    expect(
      batchesOf((await log.read(10, { maxBytes: 1, maxOffset: log.logEndOffset })).records)[0]!.values[0],
    ).toBe(`b${containing}-0`);
  });

  it('returns whole batches within maxBytes, at least one, and nothing past the bound asked for', async () => {
    manager = createManager(directory.path);
    await manager.start();
    const log = await manager.createLog('orders', 0);
    for (let index = 0; index < 5; index++) {
      await log.append(makeBatch({ count: 2, valueBytes: 200 }), { origin: 'client' });
    }
    const oneBatchBytes = (await log.read(0, { maxBytes: 1, maxOffset: log.logEndOffset })).records.length;
    expect(batchesOf((await log.read(0, { maxBytes: 1, maxOffset: log.logEndOffset })).records)).toHaveLength(
      1,
    );
    expect(
      batchesOf((await log.read(0, { maxBytes: oneBatchBytes * 3, maxOffset: log.logEndOffset })).records),
    ).toHaveLength(3);
    expect(
      batchesOf(
        (await log.read(0, { maxBytes: oneBatchBytes * 3 - 1, maxOffset: log.logEndOffset })).records,
      ),
    ).toHaveLength(2);
    expect(batchesOf((await log.read(0, { maxBytes: 1 << 20, maxOffset: 4 })).records)).toHaveLength(2);
    expect(
      (await log.read(0, { maxBytes: 1, minOneBatch: false, maxOffset: log.logEndOffset })).records.length,
    ).toBe(0);
    expect((await log.read(10, { maxBytes: 100, maxOffset: log.logEndOffset })).records.length).toBe(0);
    await expect(log.read(11, { maxBytes: 100, maxOffset: log.logEndOffset })).rejects.toMatchObject({
      code: ErrorCode.OFFSET_OUT_OF_RANGE,
    });
  });

  it('finds the first record at or after a timestamp, exactly', async () => {
    manager = createManager(directory.path, { config: { segmentBytes: 400, indexIntervalBytes: 50 } });
    await manager.start();
    const log = await manager.createLog('events', 0);
    // Offsets 0..29, timestamps 1000, 1010, ... in batches of 3.
    for (let batch = 0; batch < 10; batch++) {
      const timestampsMs = [0, 1, 2].map((index) => 1000 + (batch * 3 + index) * 10);
      await log.append(makeBatch({ count: 3, timestampsMs }), { origin: 'client' });
    }
    expect(log.segments.length).toBeGreaterThan(1);
    for (let offset = 0; offset < 30; offset++) {
      expect(await log.offsetForTimestamp(1000 + offset * 10, log.logEndOffset)).toEqual({
        offset,
        timestampMs: 1000 + offset * 10,
      });
      expect(await log.offsetForTimestamp(1000 + offset * 10 - 5, log.logEndOffset)).toEqual({
        offset,
        timestampMs: 1000 + offset * 10,
      });
    }
    expect(await log.offsetForTimestamp(0, log.logEndOffset)).toEqual({ offset: 0, timestampMs: 1000 });
    expect(await log.offsetForTimestamp(5000, log.logEndOffset)).toBeUndefined();
  });

  it('deletes old segments by retention.ms and retention.bytes, advancing the log start', async () => {
    const clock = new ManualClock();
    manager = createManager(directory.path, {
      clock,
      config: { segmentBytes: 300, retentionMs: 200_000, fileDeleteDelayMs: 0 },
    });
    await manager.start();
    const log = await manager.createLog('metrics', 0);
    for (let index = 0; index < 12; index++) {
      await log.append(makeBatch({ valueBytes: 100, timestampMs: clock.nowMs() }), { origin: 'client' });
      clock.advance(10_000);
    }
    const segmentsBefore = log.segments.length;
    expect(segmentsBefore).toBeGreaterThan(3);
    expect(await log.applyRetention()).toBe(0);
    clock.advance(150_000);
    const deletedByTime = await log.applyRetention();
    expect(deletedByTime).toBeGreaterThan(0);
    expect(log.logStartOffset).toBe(log.segments[0]!.baseOffset);
    await expect(log.read(0, { maxBytes: 100, maxOffset: log.logEndOffset })).rejects.toMatchObject({
      code: ErrorCode.OFFSET_OUT_OF_RANGE,
    });

    const bySize = createManager(directory.path, { clock, config: { retentionBytes: 1, retentionMs: -1 } });
    await manager.shutdown();
    manager = bySize;
    await manager.start();
    const reopened = manager.getLog('metrics', 0)!;
    const endBefore = reopened.logEndOffset;
    expect(await manager.runRetention()).toBeGreaterThan(0);
    expect(reopened.segments).toHaveLength(1);
    expect(reopened.logEndOffset).toBe(endBefore);
    expect(reopened.logStartOffset).toBe(reopened.segments[0]!.baseOffset);
  });

  it('serves DeleteRecords: moves the log start, refuses offsets past the high watermark', async () => {
    manager = createManager(directory.path, { config: { segmentBytes: 300, retentionMs: -1 } });
    await manager.start();
    const log = await manager.createLog('orders', 0);
    for (let index = 0; index < 10; index++) {
      await log.append(makeBatch({ valueBytes: 100 }), { origin: 'client' });
    }
    expect(await log.deleteRecordsBefore(7)).toBe(7);
    await expect(log.read(6, { maxBytes: 100, maxOffset: log.logEndOffset })).rejects.toMatchObject({
      code: ErrorCode.OFFSET_OUT_OF_RANGE,
    });
    expect(
      batchesOf((await log.read(7, { maxBytes: 1, maxOffset: log.logEndOffset })).records)[0]!.baseOffset,
    ).toBe(7);
    expect(log.segments[0]!.baseOffset).toBeLessThanOrEqual(7);
    await expect(log.deleteRecordsBefore(11)).rejects.toMatchObject({ code: ErrorCode.OFFSET_OUT_OF_RANGE });
    await manager.shutdown();
    manager = createManager(directory.path, { config: { retentionMs: -1 } });
    await manager.start();
    expect(manager.getLog('orders', 0)!.logStartOffset).toBe(7);
  });

  it('rejects bad batches with the right code and keeps serving', async () => {
    manager = createManager(directory.path, { config: { maxMessageBytes: 500 } });
    await manager.start();
    const log = await manager.createLog('orders', 0);
    const corrupt = makeBatch({ count: 2 });
    corrupt.writeUInt8(corrupt.readUInt8(corrupt.length - 1) ^ 0xff, corrupt.length - 1);
    await expect(log.append(corrupt, { origin: 'client' })).rejects.toMatchObject({
      code: ErrorCode.CORRUPT_MESSAGE,
    });
    await expect(log.append(makeBatch({ valueBytes: 600 }), { origin: 'client' })).rejects.toMatchObject({
      code: ErrorCode.MESSAGE_TOO_LARGE,
    });
    await expect(log.append(makeBatch().subarray(0, 40), { origin: 'client' })).rejects.toBeInstanceOf(
      WeirError,
    );
    expect((await log.append(makeBatch(), { origin: 'client' })).baseOffset).toBe(0);
  });

  it('group-commits flushes: one fdatasync serves many concurrent appenders waiting for durability', async () => {
    const faults = new FaultPlan();
    manager = createManager(directory.path, { faults, config: { flushMs: 60_000 } });
    await manager.start();
    const log = await manager.createLog('orders', 0);
    const before = faults.count('datasync');
    const results = await Promise.all(
      Array.from({ length: 64 }, async (_, index) => {
        const result = await log.append(makeBatch({ label: `d${index}` }), { origin: 'client' });
        await log.waitUntilFlushed(result.lastOffset + 1);
        return result;
      }),
    );
    expect(new Set(results.map((result) => result.baseOffset)).size).toBe(64);
    expect(log.recoveryPoint).toBe(64);
    const syncs = faults.count('datasync') - before;
    expect(syncs).toBeGreaterThanOrEqual(1);
    expect(syncs).toBeLessThan(10);
  });

  it('deduplicates idempotent retries and survives a restart with the producer state', async () => {
    manager = createManager(directory.path);
    await manager.start();
    const log = await manager.createLog('orders', 0);
    const idempotent = (baseSequence: number, count = 2) =>
      makeBatch({ count, producerId: 42n, producerEpoch: 0, baseSequence });
    const first = await log.append(idempotent(0), { origin: 'client' });
    const second = await log.append(idempotent(2), { origin: 'client' });
    const retry = await log.append(idempotent(0), { origin: 'client' });
    expect(retry).toMatchObject({
      baseOffset: first.baseOffset,
      lastOffset: first.lastOffset,
      duplicate: true,
    });
    await expect(log.append(idempotent(10), { origin: 'client' })).rejects.toMatchObject({
      code: ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
    });
    await manager.shutdown();

    manager = createManager(directory.path);
    await manager.start();
    const reopened = manager.getLog('orders', 0)!;
    const retryAfterRestart = await reopened.append(idempotent(2), { origin: 'client' });
    expect(retryAfterRestart).toMatchObject({ baseOffset: second.baseOffset, duplicate: true });
    expect(reopened.logEndOffset).toBe(4);
    const stale = makeBatch({ producerId: 42n, producerEpoch: 1, baseSequence: 0 });
    await reopened.append(stale, { origin: 'client' });
    await expect(
      reopened.append(makeBatch({ producerId: 42n, producerEpoch: 0, baseSequence: 4 }), {
        origin: 'client',
      }),
    ).rejects.toMatchObject({ code: ErrorCode.INVALID_PRODUCER_EPOCH });
  });

  it('takes only the failing partition offline on an injected EIO', async () => {
    const faults = new FaultPlan();
    const logger = new RecordingLogger();
    manager = createManager(directory.path, { faults, logger });
    await manager.start();
    const healthy = await manager.createLog('healthy', 0);
    const failing = await manager.createLog('failing', 0);
    await failing.append(makeBatch(), { origin: 'client' });
    faults.failing = { operation: 'write', pathIncludes: 'failing-0', errno: 'EIO' };
    await expect(failing.append(makeBatch(), { origin: 'client' })).rejects.toMatchObject({
      code: ErrorCode.KAFKA_STORAGE_ERROR,
    });
    expect(failing.isOffline).toBe(true);
    await expect(failing.read(0, { maxBytes: 100, maxOffset: failing.logEndOffset })).rejects.toMatchObject({
      code: ErrorCode.KAFKA_STORAGE_ERROR,
    });
    expect(manager.offlinePartitions()).toEqual([
      expect.objectContaining({ topic: 'failing', partition: 0 }),
    ]);
    expect(logger.lines.some((line) => line.level === 'warn' && line.fields?.errno === 'EIO')).toBe(true);
    // ENOSPC on fdatasync fails the waits for durability of that partition only.
    faults.failing = { operation: 'datasync', pathIncludes: 'healthy-0', errno: 'ENOSPC' };
    const written = await healthy.append(makeBatch(), { origin: 'client' });
    await expect(healthy.waitUntilFlushed(written.lastOffset + 1)).rejects.toMatchObject({
      code: ErrorCode.KAFKA_STORAGE_ERROR,
    });
    faults.failing = undefined;
    const other = await manager.createLog('other', 0);
    const durable = await other.append(makeBatch(), { origin: 'client' });
    await other.waitUntilFlushed(durable.lastOffset + 1);
    expect(durable.baseOffset).toBe(0);
  });

  it('tells subscribers about every append and every flush', async () => {
    manager = createManager(directory.path);
    await manager.start();
    const log = await manager.createLog('orders', 0);
    const seen: number[] = [];
    const flushedTo: number[] = [];
    const unsubscribe = log.subscribe((change) => {
      if (change === 'appended') seen.push(log.logEndOffset);
      if (change === 'flushed') flushedTo.push(log.recoveryPoint);
    });
    await log.append(makeBatch({ count: 3 }), { origin: 'client' });
    await log.append(makeBatch(), { origin: 'client' });
    log.requestFlush();
    await log.waitUntilFlushed(4);
    unsubscribe();
    await log.append(makeBatch(), { origin: 'client' });
    expect(seen).toEqual([3, 4]);
    expect(flushedTo.at(-1)).toBe(4);
  });
  it('truncates to an offset at batch boundaries, rebuilding the producer state', async () => {
    manager = createManager(directory.path, { config: { segmentBytes: 300, retentionMs: -1 } });
    await manager.start();
    const log = await manager.createLog('follower', 0);
    for (let index = 0; index < 10; index++) {
      await log.append(
        makeBatch({ count: 2, valueBytes: 60, producerId: 9n, producerEpoch: 0, baseSequence: index * 2 }),
        { origin: 'client' },
      );
    }
    expect(log.segments.length).toBeGreaterThan(2);
    // Offset 11 lies inside the batch 10..11, which goes entirely: the log now ends at 10.
    await log.truncateTo(11);
    expect(log.logEndOffset).toBe(10);
    expect(
      batchesOf((await log.read(8, { maxBytes: 1 << 16, maxOffset: log.logEndOffset })).records).map(
        (batch) => batch.baseOffset,
      ),
    ).toEqual([8]);
    // The producer state forgot the truncated batches: sequence 10 is next again, 12 is a gap.
    await expect(
      log.append(makeBatch({ count: 2, producerId: 9n, producerEpoch: 0, baseSequence: 12 }), {
        origin: 'client',
      }),
    ).rejects.toMatchObject({ code: ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER });
    const next = await log.append(
      makeBatch({ count: 2, producerId: 9n, producerEpoch: 0, baseSequence: 10 }),
      { origin: 'client' },
    );
    expect(next).toMatchObject({ baseOffset: 10, duplicate: false });
    // One batch per segment here: the segment holding offset 3 is emptied and stays as the active one.
    await log.truncateTo(3);
    expect(log.logEndOffset).toBe(2);
    expect(log.segments.map((segment) => segment.baseOffset)).toEqual([0, 2]);
    expect(log.segments[1]!.sizeBytes).toBe(0);
  });
});
