import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManager, temporaryDirectory } from '../../../test/log-fixtures';

/**
 * The cleaner's threads rest log.cleaner.backoff.ms between rounds when nothing is due; stopping
 * the broker must end every thread's rest at once, not wait out the backoff of all but one. The
 * backoff here is far longer than the test's timeout, so a thread left resting fails the test.
 */
describe('LogCleaner', () => {
  let directory: { path: string; cleanup: () => Promise<void> };

  beforeEach(async () => {
    directory = await temporaryDirectory();
  });
  afterEach(async () => {
    await directory.cleanup();
  });

  it('stops every resting thread at once', async () => {
    const manager = createManager(directory.path, {
      config: { compact: true, deleteByRetention: false },
      cleaner: { enable: true, threads: 3, dedupeBufferBytes: 3 * 1024 * 1024, backoffMs: 10 * 60_000 },
    });
    await manager.start();
    await manager.createLog('table', 0);
    // The lone partition has no closed segment: nothing is due, and every thread rests.
    expect((await manager.cleaner.cleanNow())?.kind).toBe('not-due');
    await expect(manager.shutdown()).resolves.toBeUndefined();
  });
});
