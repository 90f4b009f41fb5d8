import { readdir, readFile, stat, truncate, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createManager,
  forgetFlushedPoints,
  makeBatch,
  RecordingLogger,
  temporaryDirectory,
} from '../../test/log-fixtures';
import { readWholeLog } from '../../test/log-reads';
import { FileHandleCache } from './file-handle-cache';
import { FlushedPointFile } from './flushed-point';
import type { LogManager } from './log-manager';
import type { PartitionLog } from './partition-log';
import { createStorageIo } from './storage';

async function appendBatches(log: PartitionLog, count: number, label = 'v'): Promise<void> {
  for (let index = 0; index < count; index++) {
    await log.append(makeBatch({ count: 2, valueBytes: 40, label: `${label}${index}` }), {
      origin: 'client',
    });
  }
}

/** Reads the whole log batch by batch and checks offsets are contiguous from the log start. */
async function readAll(log: PartitionLog): Promise<string[]> {
  return (await readWholeLog(log)).flatMap((batch) => batch.values);
}

async function segmentFiles(directory: string, suffix: string): Promise<string[]> {
  return (await readdir(directory))
    .filter((name) => name.endsWith(suffix))
    .sort()
    .map((name) => join(directory, name));
}

async function fileSizes(directory: string): Promise<Record<string, number>> {
  const sizes: Record<string, number> = {};
  for (const name of (await readdir(directory)).sort())
    sizes[name] = (await stat(join(directory, name))).size;
  return sizes;
}

describe('opening a partition log', () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  let manager: LogManager | undefined;
  const partitionDirectory = () => join(directory.path, 'orders-0');
  const config = { segmentBytes: 500, indexIntervalBytes: 64, retentionMs: -1 };

  beforeEach(async () => {
    directory = await temporaryDirectory();
  });
  afterEach(async () => {
    await manager?.shutdown().catch(() => undefined);
    manager = undefined;
    await directory.cleanup();
  });

  /** Opens a fresh manager, as a restarted broker would. */
  async function restart(logger = new RecordingLogger()) {
    manager = createManager(directory.path, { config, logger });
    const report = await manager.start();
    return { report, log: manager.getLog('orders', 0), logger };
  }

  /** Crashes the current manager after a flush: the disk keeps what a SIGKILL would leave. */
  async function crash(log: PartitionLog) {
    await log.flush();
    await (manager as ReturnType<typeof createManager>).crash();
    manager = undefined;
  }

  it('scans nothing after a clean shutdown and keeps every record', async () => {
    manager = createManager(directory.path, { config });
    await manager.start();
    const log = await manager.createLog('orders', 0);
    await appendBatches(log, 30);
    const before = await readAll(log);
    await manager.shutdown();

    const { report, log: reopened } = await restart();
    expect(report.cleanShutdown).toBe(true);
    expect(report.reports.get('orders 0')).toMatchObject({
      recoveredSegmentCount: 0,
      replayedProducerBatches: 0,
    });
    expect(await readAll(reopened!)).toEqual(before);
    await appendBatches(reopened!, 1, 'after');
    expect((await readAll(reopened!)).slice(-2)).toEqual([
      'after0-0'.padEnd(40, '.'),
      'after0-1'.padEnd(40, '.'),
    ]);
  });

  it('recovers from the recovery point after a crash', async () => {
    manager = createManager(directory.path, { config });
    await manager.start();
    const log = await manager.createLog('orders', 0);
    await appendBatches(log, 30);
    const before = await readAll(log);
    await crash(log);

    const { report, log: reopened } = await restart();
    expect(report.cleanShutdown).toBe(false);
    expect(report.reports.get('orders 0')!.recoveredSegmentCount).toBeGreaterThan(0);
    expect(await readAll(reopened!)).toEqual(before);
  });

  it('cuts a torn tail above the flushed point at the last whole batch and says where', async () => {
    manager = createManager(directory.path, { config: { ...config, flushMs: Number.POSITIVE_INFINITY } });
    await manager.start();
    const log = await manager.createLog('orders', 0);
    await appendBatches(log, 9);
    await log.flush();
    // The tenth batch is written but never flushed, so it was never acknowledged as durable.
    await appendBatches(log, 1, 'unflushed');
    await (manager as ReturnType<typeof createManager>).crash();
    manager = undefined;
    const lastLog = (await segmentFiles(partitionDirectory(), '.log')).at(-1);
    const sizeBytes = (await stat(lastLog!)).size;
    await truncate(lastLog!, sizeBytes - 7);

    const { log: reopened, logger } = await restart();
    expect(reopened!.logEndOffset).toBe(18);
    expect(await readAll(reopened!)).toHaveLength(18);
    const warning = logger.lines.find((line) => line.message.includes('torn or corrupt'));
    expect(warning?.fields).toMatchObject({ topic: 'orders', partition: 0, offset: 18, flushedOffset: 18 });
    expect(warning?.fields?.positionBytes).toEqual(expect.any(Number));
    expect(warning?.fields?.truncatedBytes).toBeGreaterThan(0);
  });

  it('cuts a corrupt batch above the flushed point as a torn tail', async () => {
    const oneSegment = { ...config, segmentBytes: 1 << 20, flushMs: Number.POSITIVE_INFINITY };
    manager = createManager(directory.path, { config: oneSegment });
    await manager.start();
    const log = await manager.createLog('orders', 0);
    await appendBatches(log, 10);
    await log.flush();
    await appendBatches(log, 3, 'unflushed');
    await (manager as ReturnType<typeof createManager>).crash();
    manager = undefined;
    const [logFile] = await segmentFiles(partitionDirectory(), '.log');
    const bytes = await readFile(logFile!);
    const batchBytes = bytes.length / 13;
    // A record byte of the twelfth batch (offsets 22..23), above the flushed point 20.
    bytes[11 * batchBytes + 70] = bytes[11 * batchBytes + 70]! ^ 0xff;
    await writeFile(logFile!, bytes);

    manager = createManager(directory.path, { config: oneSegment });
    const report = await manager.start();
    expect(report.offline).toEqual([]);
    const reopened = manager.getLog('orders', 0)!;
    expect(reopened.logEndOffset).toBe(22);
    expect((await stat(logFile!)).size).toBe(11 * batchBytes);
  });

  /**
   * Thirteen batches of two records on disk, and a flushed point written as a last round writes it,
   * beside that round's fdatasync: it claims offsets up to 26 with only 20 confirmed.
   */
  async function lastRoundUnconfirmed(): Promise<{ logFile: string; bytes: Buffer; batchBytes: number }> {
    const oneSegment = { ...config, segmentBytes: 1 << 20 };
    manager = createManager(directory.path, { config: oneSegment });
    await manager.start();
    const log = await manager.createLog('orders', 0);
    await appendBatches(log, 13);
    await log.flush();
    await (manager as ReturnType<typeof createManager>).crash();
    manager = undefined;
    const io = createStorageIo();
    const handles = new FileHandleCache(io, 2);
    const pointFile = new FlushedPointFile(handles, io, partitionDirectory(), { sequence: 1000 }, true);
    const [logFile] = await segmentFiles(partitionDirectory(), '.log');
    const bytes = await readFile(logFile!);
    await pointFile.write({
      point: { offset: 26, segmentBaseOffset: 0, positionBytes: bytes.length },
      confirmedOffset: 20,
    });
    await pointFile.close();
    return { logFile: logFile!, bytes, batchBytes: bytes.length / 13 };
  }

  it('cuts a last round whose fdatasync never finished, when it reads as zeros', async () => {
    const { logFile, bytes, batchBytes } = await lastRoundUnconfirmed();
    // Blocks the round never got onto the disk read as zeros, from the twelfth batch on.
    bytes.fill(0, 11 * batchBytes);
    await writeFile(logFile, bytes);

    const { report, log: reopened } = await restart();
    expect(report.offline).toEqual([]);
    expect(reopened!.logEndOffset).toBe(22);
  });

  it('keeps a partition offline when written bytes of the last round fail their CRC', async () => {
    const { logFile, bytes, batchBytes } = await lastRoundUnconfirmed();
    bytes[11 * batchBytes + 70] = bytes[11 * batchBytes + 70]! ^ 0xff;
    await writeFile(logFile, bytes);

    const { report, log: reopened } = await restart();
    expect(reopened).toBeUndefined();
    expect(report.offline[0]!.reason).toContain('flushed data is damaged at offset 22');
    expect((await stat(logFile)).size).toBe(bytes.length);
  });

  it('takes a partition offline, cutting nothing, when a batch below the flushed point is damaged', async () => {
    // The checkpoint is never written while the log runs, as between two of its rounds: only the
    // flushed-point file knows how far the data was acknowledged as durable.
    const neverCheckpoint = { config, checkpointIntervalMs: 3_600_000 };
    manager = createManager(directory.path, neverCheckpoint);
    await manager.start();
    const log = await manager.createLog('orders', 0);
    const neighbour = await manager.createLog('payments', 0);
    await appendBatches(log, 30);
    await appendBatches(neighbour, 3);
    await log.flush();
    await neighbour.flush();
    await (manager as ReturnType<typeof createManager>).crash();
    manager = undefined;
    const logs = await segmentFiles(partitionDirectory(), '.log');
    expect(logs.length).toBeGreaterThan(2);
    const damaged = logs[1]!;
    const bytes = await readFile(damaged);
    bytes[70] = bytes[70]! ^ 0xff;
    await writeFile(damaged, bytes);
    const sizesBefore = await fileSizes(partitionDirectory());

    const { report, log: reopened, logger } = await restart();
    expect(reopened).toBeUndefined();
    expect(report.offline).toEqual([expect.objectContaining({ topic: 'orders', partition: 0 })]);
    const reason = report.offline[0]!.reason;
    const firstDamaged = Number(damaged.split('/').at(-1)!.slice(0, 20));
    expect(reason).toContain(`flushed data is damaged at offset ${firstDamaged} (byte 0 of ${damaged})`);
    expect(reason).toContain(`offsets ${firstDamaged}..59 were acknowledged as durable`);
    expect(reason).toContain('weir log check orders 0');
    expect(reason).toContain('weir log repair orders 0');
    expect(logger.lines.find((line) => line.level === 'error')?.fields?.reason).toBe(reason);
    // Nothing was cut: every file has the size it had.
    expect(await fileSizes(partitionDirectory())).toEqual(sizesBefore);
    expect(await readAll(manager!.getLog('payments', 0)!)).toHaveLength(6);
  });

  it('keeps the invariants when a segment is cut at any byte', async () => {
    await fc.assert(
      fc.asyncProperty(fc.double({ min: 0, max: 1, noNaN: true }), async (fraction) => {
        await directory.cleanup();
        directory = await temporaryDirectory();
        manager = createManager(directory.path, { config: { ...config, segmentBytes: 1 << 20 } });
        await manager.start();
        const log = await manager.createLog('orders', 0);
        await appendBatches(log, 12);
        const before = await readAll(log);
        await crash(log);
        const [logFile] = await segmentFiles(partitionDirectory(), '.log');
        const sizeBytes = (await stat(logFile!)).size;
        const cutAt = Math.floor(fraction * sizeBytes);
        await truncate(logFile!, cutAt);
        // Nothing is known to be flushed, so any cut is an unflushed tail.
        await forgetFlushedPoints(directory.path);

        const { log: reopened } = await restart();
        const after = await readAll(reopened!);
        expect(after).toEqual(before.slice(0, after.length));
        expect(after.length % 2).toBe(0);
        expect(reopened!.logEndOffset).toBe(after.length);
        expect((await stat(logFile!)).size).toBeLessThanOrEqual(cutAt);
        await manager!.shutdown();
        manager = undefined;
      }),
      { numRuns: 25 },
    );
  });

  it('rebuilds a corrupt offset index', async () => {
    manager = createManager(directory.path, { config });
    await manager.start();
    const log = await manager.createLog('orders', 0);
    await appendBatches(log, 30);
    const before = await readAll(log);
    await manager.shutdown();
    const indexes = await segmentFiles(partitionDirectory(), '.index');
    const firstIndex = indexes[0]!;
    const original = await readFile(firstIndex);
    expect(original.length).toBeGreaterThan(8);
    // Entries going backwards fail the sanity check.
    await writeFile(firstIndex, Buffer.concat([original.subarray(8), original.subarray(0, 8)]));
    await writeFile(indexes[1]!, Buffer.from([1, 2, 3]));

    const { log: reopened } = await restart();
    expect(await readAll(reopened!)).toEqual(before);
    for (let offset = 0; offset < reopened!.logEndOffset; offset++) {
      const { records } = await reopened!.read(offset, { maxBytes: 1, maxOffset: reopened!.logEndOffset });
      const base = Number(records.readBigInt64BE(0));
      expect(base).toBeLessThanOrEqual(offset);
      expect(base + records.readInt32BE(23)).toBeGreaterThanOrEqual(offset);
    }
    expect((await readFile(firstIndex)).equals(original)).toBe(true);
  });

  it('takes a partition offline when flushed data is corrupt, and opens the others', async () => {
    manager = createManager(directory.path, { config });
    await manager.start();
    const log = await manager.createLog('orders', 0);
    const neighbour = await manager.createLog('payments', 0);
    await appendBatches(log, 10);
    await appendBatches(neighbour, 3);
    await manager.shutdown();
    // Force recovery (as after a crash) from the checkpointed recovery point, the log end.
    await unlink(join(directory.path, '.weir-clean-shutdown'));
    const lastLog = (await segmentFiles(partitionDirectory(), '.log')).at(-1);
    const bytes = await readFile(lastLog!);
    bytes[70] = bytes[70]! ^ 0xff;
    await writeFile(lastLog!, bytes);

    const { report, log: reopened } = await restart();
    expect(reopened).toBeUndefined();
    expect(report.offline).toEqual([expect.objectContaining({ topic: 'orders', partition: 0 })]);
    expect(report.offline[0]!.reason).toMatch(/flushed data is damaged at offset \d+/);
    expect(await readAll(manager!.getLog('payments', 0)!)).toHaveLength(6);
    // The damaged bytes are still there for an operator: nothing was truncated.
    expect((await readFile(lastLog!)).length).toBe(bytes.length);
  });
});
