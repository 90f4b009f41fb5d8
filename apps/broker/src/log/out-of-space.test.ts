import { readdir } from 'node:fs/promises';
import { ErrorCode } from '@weir/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createManager,
  FaultPlan,
  makeBatch,
  RecordingLogger,
  temporaryDirectory,
} from '../../test/log-fixtures';
import { readWholeLog } from '../../test/log-reads';
import type { LogManager } from './log-manager';

/** An idempotent batch of producer 9: five records, sequence numbers from `sequence * 5`. */
function idempotent(sequence: number): Buffer {
  return makeBatch({
    count: 5,
    label: `s${sequence}`,
    producerId: 9n,
    producerEpoch: 0,
    baseSequence: sequence * 5,
    timestampMs: Date.now(),
  });
}

const SEGMENT_5 = '00000000000000000005';

describe('a partition log out of disk space (injected ENOSPC)', () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  let manager: LogManager | undefined;
  beforeEach(async () => {
    directory = await temporaryDirectory();
  });
  afterEach(async () => {
    await manager?.shutdown().catch(() => undefined);
    await directory.cleanup();
  });

  /** A log whose segments hold one of these batches each, so the second batch rolls. */
  async function rollingLog(faults: FaultPlan, logger = new RecordingLogger()) {
    const batchBytes = idempotent(0).length;
    manager = createManager(directory.path, { faults, logger, config: { segmentBytes: batchBytes + 1 } });
    await manager.start();
    return manager.createLog('orders', 0);
  }

  it('rolls back a group that failed after a roll: the new segment goes, and no batch of it stays', async () => {
    const faults = new FaultPlan();
    const log = await rollingLog(faults);
    faults.failing = { operation: 'write', pathIncludes: `${SEGMENT_5}.log`, errno: 'ENOSPC' };
    // One group: the first batch fits the active segment, the second rolls and fails.
    const first = log.append(idempotent(0), { origin: 'client' });
    const second = log.append(idempotent(1), { origin: 'client' });
    await expect(first).rejects.toMatchObject({ code: ErrorCode.KAFKA_STORAGE_ERROR });
    await expect(second).rejects.toMatchObject({ code: ErrorCode.KAFKA_STORAGE_ERROR });
    expect(log.isOffline).toBe(false);
    expect(log.outOfSpaceError).toMatchObject({ errno: 'ENOSPC', operation: 'write' });
    expect(log.logEndOffset).toBe(0);
    expect(log.segments.map((segment) => [segment.baseOffset, segment.sizeBytes])).toEqual([[0, 0]]);
    expect((await readdir(log.context.directory)).filter((name) => name.startsWith(SEGMENT_5))).toEqual([]);
    await expect(log.append(idempotent(0), { origin: 'client' })).rejects.toThrow(/refuses writes/);

    faults.failing = undefined;
    await expect(manager!.probeDiskSpace()).resolves.toBe(true);
    // The producer state forgot the rolled-back batches: the retries are stored, once.
    expect(await log.append(idempotent(0), { origin: 'client' })).toMatchObject({
      baseOffset: 0,
      duplicate: false,
    });
    expect(await log.append(idempotent(1), { origin: 'client' })).toMatchObject({
      baseOffset: 5,
      duplicate: false,
    });
    expect(await log.append(idempotent(1), { origin: 'client' })).toMatchObject({
      baseOffset: 5,
      duplicate: true,
    });
    expect((await readWholeLog(log)).map((batch) => batch.baseOffset)).toEqual([0, 5]);
  });

  it('removes the files of a segment whose creation ran out of space', async () => {
    const faults = new FaultPlan();
    const log = await rollingLog(faults);
    await log.append(idempotent(0), { origin: 'client' });
    faults.failing = { operation: 'truncate', pathIncludes: `${SEGMENT_5}.index`, errno: 'ENOSPC' };
    await expect(log.append(idempotent(1), { origin: 'client' })).rejects.toMatchObject({
      code: ErrorCode.KAFKA_STORAGE_ERROR,
    });
    expect(log.outOfSpaceError).toBeDefined();
    expect((await readdir(log.context.directory)).filter((name) => name.startsWith(SEGMENT_5))).toEqual([]);
    expect(log.segments).toHaveLength(1);
    // Reads go on while writes are refused.
    expect((await readWholeLog(log)).flatMap((batch) => batch.values)).toEqual(
      [0, 1, 2, 3, 4].map((i) => `s0-${i}`),
    );
    faults.failing = undefined;
    await manager!.probeDiskSpace();
    expect(await log.append(idempotent(1), { origin: 'client' })).toMatchObject({
      baseOffset: 5,
      duplicate: false,
    });
    expect(log.segments.map((segment) => segment.baseOffset)).toEqual([0, 5]);
  });

  it('goes offline when the roll-back itself fails, and for any error that is not about space', async () => {
    const faults = new FaultPlan();
    const logger = new RecordingLogger();
    const log = await rollingLog(faults, logger);
    // Every operation on the segment fails, the truncation that would roll the write back included.
    faults.failing = { pathIncludes: '00000000000000000000.log', errno: 'ENOSPC' };
    await expect(log.append(idempotent(0), { origin: 'client' })).rejects.toMatchObject({
      code: ErrorCode.KAFKA_STORAGE_ERROR,
    });
    expect(log.isOffline).toBe(true);
    expect(manager!.offlinePartitions()).toEqual([
      expect.objectContaining({ topic: 'orders', partition: 0 }),
    ]);
    expect(manager!.writeDegradedPartitions()).toEqual([]);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({ message: 'rolling back a write that ran out of space failed' }),
    );
    faults.failing = undefined;
    // Offline is for good: finding space does not bring it back.
    await manager!.probeDiskSpace();
    expect(log.isOffline).toBe(true);

    const other = await manager!.createLog('other', 0);
    faults.failing = { operation: 'write', pathIncludes: 'other-0', errno: 'EIO' };
    await expect(other.append(idempotent(0), { origin: 'client' })).rejects.toThrow(/offline/);
    expect(other.isOffline).toBe(true);
    expect(other.outOfSpaceError).toBeUndefined();
  });
});
