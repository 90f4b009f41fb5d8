import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createManager,
  FaultPlan,
  ManualClock,
  makeBatch,
  temporaryDirectory,
} from '../../test/log-fixtures';
import type { LogManager } from './log-manager';

describe('LogManager', () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  let manager: LogManager | undefined;

  beforeEach(async () => {
    directory = await temporaryDirectory();
  });
  afterEach(async () => {
    await manager?.shutdown().catch(() => undefined);
    manager = undefined;
    await directory.cleanup();
  });

  it('bounds open segment files across many partitions and reopens them on demand', async () => {
    manager = createManager(directory.path, { maxOpenFiles: 16, config: { segmentBytes: 300 } });
    await manager.start();
    for (let partition = 0; partition < 60; partition++) {
      const log = await manager.createLog('wide', partition);
      for (let index = 0; index < 4; index++) {
        await log.append(makeBatch({ valueBytes: 100, label: `p${partition}` }), { origin: 'client' });
      }
      expect(manager.openFileCount).toBeLessThanOrEqual(16);
    }
    for (let partition = 0; partition < 60; partition++) {
      const { records } = await manager
        .getLog('wide', partition)!
        .read(0, { maxBytes: 1 << 16, maxOffset: manager.getLog('wide', partition)!.logEndOffset });
      expect(records.includes(Buffer.from(`p${partition}-0`))).toBe(true);
      expect(manager.openFileCount).toBeLessThanOrEqual(16);
    }
    await manager.shutdown();
    manager = createManager(directory.path, { maxOpenFiles: 16 });
    const report = await manager.start();
    expect(report.openedCount).toBe(60);
    expect(report.cleanShutdown).toBe(true);
  });

  it('flushes after flush.messages messages without waiting for flush.ms', async () => {
    const faults = new FaultPlan();
    manager = createManager(directory.path, { faults, config: { flushMessages: 3, flushMs: 3_600_000 } });
    await manager.start();
    const log = await manager.createLog('orders', 0);
    await log.append(makeBatch(), { origin: 'client' });
    await log.append(makeBatch(), { origin: 'client' });
    expect(log.recoveryPoint).toBe(0);
    await log.append(makeBatch(), { origin: 'client' });
    await expect.poll(() => log.recoveryPoint).toBe(3);
  });

  it('flushes unflushed data after flush.ms', async () => {
    manager = createManager(directory.path, { config: { flushMs: 20 } });
    await manager.start();
    const log = await manager.createLog('orders', 0);
    await log.append(makeBatch({ count: 5 }), { origin: 'client' });
    await expect.poll(() => log.recoveryPoint).toBe(5);
  });

  it('rolls a segment once segment.ms has passed since its first append', async () => {
    const clock = new ManualClock();
    manager = createManager(directory.path, { clock, config: { segmentMs: 60_000 } });
    await manager.start();
    const log = await manager.createLog('orders', 0);
    await log.append(makeBatch(), { origin: 'client' });
    clock.advance(30_000);
    await log.append(makeBatch(), { origin: 'client' });
    expect(log.segments).toHaveLength(1);
    clock.advance(31_000);
    await log.append(makeBatch(), { origin: 'client' });
    expect(log.segments.map((segment) => segment.baseOffset)).toEqual([0, 2]);
    clock.advance(61_000);
    await log.rollIfExpired();
    expect(log.segments.map((segment) => segment.baseOffset)).toEqual([0, 2, 3]);
    const snapshots = (await readdir(join(directory.path, 'orders-0'))).filter((name) =>
      name.endsWith('.snapshot'),
    );
    expect(snapshots.length).toBeGreaterThan(0);
  });

  it('deletes a partition log and forgets it across restarts', async () => {
    manager = createManager(directory.path);
    await manager.start();
    const log = await manager.createLog('doomed', 0);
    await log.append(makeBatch(), { origin: 'client' });
    await manager.deleteLog('doomed', 0);
    expect(manager.getLog('doomed', 0)).toBeUndefined();
    expect(await readdir(directory.path)).not.toContain('doomed-0');
    await manager.shutdown();
    manager = createManager(directory.path);
    const report = await manager.start();
    expect(report.openedCount).toBe(0);
  });
  it('shuts down while appends are still being written, losing none of them', async () => {
    manager = createManager(directory.path);
    await manager.start();
    const log = await manager.createLog('busy', 0);
    const pending = Array.from({ length: 200 }, (_, index) =>
      log.append(makeBatch({ valueBytes: 2000, label: `b${index}` }), { origin: 'client' }),
    );
    await manager.shutdown();
    manager = undefined;
    const results = await Promise.all(pending);
    expect(results.at(-1)!.lastOffset).toBe(199);
    manager = createManager(directory.path);
    const report = await manager.start();
    expect(report.cleanShutdown).toBe(true);
    expect(manager.getLog('busy', 0)!.logEndOffset).toBe(200);
  });

  it('waits in shutdown for a checkpoint write its timer had under way', async () => {
    const faults = new FaultPlan();
    manager = createManager(directory.path, { faults, checkpointIntervalMs: 10 });
    await manager.start();
    const log = await manager.createLog('orders', 0);
    const timerWrite = faults.holdNextAtomicWrite('recovery-point-offset-checkpoint');
    try {
      const written = await log.append(makeBatch(), { origin: 'client' });
      await log.waitUntilFlushed(written.lastOffset + 1);
      await timerWrite.reached;
      let stopped = false;
      const stopping = manager.shutdown().then(() => {
        stopped = true;
      });
      // Nothing announces that shutdown is waiting, so it gets far longer than it needs to finish
      // without waiting (a few milliseconds); it must still be waiting for the held write then.
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(stopped).toBe(false);
      timerWrite.release();
      await stopping;
      expect(timerWrite.finished).toBe(true);
    } finally {
      timerWrite.release();
    }
    manager = undefined;
  });
});
