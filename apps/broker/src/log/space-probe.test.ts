import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pollUntil } from '../../test/group-fixtures';
import { FaultPlan, RecordingLogger, temporaryDirectory } from '../../test/log-fixtures';
import { SPACE_PROBE_FILE, SpaceProbe, type SpaceWaiter } from './space-probe';
import { createStorageIo } from './storage';

/** A log waiting for space, as the probe sees one. */
class Waiter implements SpaceWaiter {
  resumed = 0;
  waiting = true;
  constructor(readonly failedWriteBytes: number) {}
  resumeWrites(): boolean {
    if (!this.waiting) return false;
    this.waiting = false;
    this.resumed += 1;
    return true;
  }
}

describe('SpaceProbe', () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  let probe: SpaceProbe | undefined;
  beforeEach(async () => {
    directory = await temporaryDirectory();
  });
  afterEach(async () => {
    await probe?.stop();
    await directory.cleanup();
  });

  function start(faults: FaultPlan, waiters: Waiter[], logger = new RecordingLogger()) {
    probe = new SpaceProbe({
      io: createStorageIo({ faults: faults.injector }),
      directory: directory.path,
      waiters: () => waiters.filter((waiter) => waiter.waiting),
      logger,
      initialBackoffMs: 1,
      maxBackoffMs: 4,
    });
    return probe;
  }

  it('keeps probing with backoff while the disk is full and resumes every waiting log once it is not', async () => {
    const faults = new FaultPlan();
    faults.failing = { operation: 'write', pathIncludes: SPACE_PROBE_FILE, errno: 'ENOSPC' };
    const waiters = [new Waiter(10), new Waiter(200_000)];
    start(faults, waiters).noteOutOfSpace();
    await pollUntil(() => faults.count('write') >= 5, 'five probes that found no space');
    expect(waiters.map((waiter) => waiter.resumed)).toEqual([0, 0]);
    faults.failing = undefined;
    await pollUntil(() => waiters.every((waiter) => !waiter.waiting), 'both logs to resume');
    expect(waiters.map((waiter) => waiter.resumed)).toEqual([1, 1]);
    // The probe file is gone again, whether the probe found space or not.
    await expect(createStorageIo().listDirectory(directory.path)).resolves.toEqual([]);
  });

  it('answers an operator probe at once, and a probe that fails for another reason is a warning', async () => {
    const faults = new FaultPlan();
    const logger = new RecordingLogger();
    const waiters = [new Waiter(0)];
    faults.failing = { operation: 'datasync', pathIncludes: SPACE_PROBE_FILE, errno: 'EIO' };
    const started = start(faults, waiters, logger);
    await expect(started.probeNow()).resolves.toBe(false);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({ level: 'warn', message: 'disk space probe failed' }),
    );
    faults.failing = undefined;
    await expect(started.probeNow()).resolves.toBe(true);
    expect(waiters[0]!.resumed).toBe(1);
  });
});
