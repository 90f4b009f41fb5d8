import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeTransactionMarkerBatch } from '@weir/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CrashableLogManager } from '../../test/crashable-log-manager';
import { createManager, makeBatch, RecordingLogger, temporaryDirectory } from '../../test/log-fixtures';
import { leaderEpochsOf } from '../../test/log-reads';
import { LEADER_EPOCH_CHECKPOINT_FILE } from './leader-epoch-checkpoint';
import type { PartitionLog } from './partition-log';

/*
 * A partition log's leader epochs on real files: every batch is stamped with the epoch it is
 * written under, each new epoch's first offset goes to `leader-epoch-checkpoint` before its batch,
 * and the file follows the log (restart, crash, truncation, a moved log start) or is rebuilt from
 * the stamped batches when it is missing or damaged.
 */

let directory: { path: string; cleanup(): Promise<void> };
let manager: CrashableLogManager;
let logger: RecordingLogger;

const checkpointPath = () => join(directory.path, 'orders-0', LEADER_EPOCH_CHECKPOINT_FILE);

beforeEach(async () => {
  directory = await temporaryDirectory('weir-log-epochs-');
  logger = new RecordingLogger();
  manager = createManager(directory.path, { logger });
  await manager.start();
});
afterEach(async () => {
  await manager.shutdown().catch(() => undefined);
  await directory.cleanup();
});

/** Appends one two-record batch at `leaderEpoch` (undefined: as an older Weir wrote, -1). */
function append(log: PartitionLog, leaderEpoch: number | undefined) {
  return log.append(makeBatch({ count: 2 }), {
    origin: 'client',
    ...(leaderEpoch === undefined ? {} : { leaderEpoch }),
  });
}

async function stamped(log: PartitionLog) {
  const { records } = await log.read(log.logStartOffset, { maxBytes: 1 << 20, maxOffset: log.logEndOffset });
  return leaderEpochsOf(records);
}

/** Writes epochs 0 (offsets 0..3), 2 (4..7, a marker at 6) and 5 (8..9). */
async function writeThreeEpochs(log: PartitionLog): Promise<void> {
  await append(log, 0);
  await append(log, 0);
  await append(log, 2);
  await log.append(
    encodeTransactionMarkerBatch({
      producerId: 9n,
      producerEpoch: 0,
      type: 'abort',
      coordinatorEpoch: 0,
      timestampMs: 1_700_000_000_000,
    }),
    { origin: 'coordinator', leaderEpoch: 2 },
  );
  await append(log, 2);
  await append(log, 5);
}

const THREE_EPOCHS = [
  { epoch: 0, startOffset: 0 },
  { epoch: 2, startOffset: 4 },
  { epoch: 5, startOffset: 9 },
];

describe('PartitionLog leader epochs', () => {
  it('stamps every batch, markers included, and checkpoints each epoch before its first batch', async () => {
    const log = await manager.createLog('orders', 0);
    await writeThreeEpochs(log);
    expect(await stamped(log)).toEqual([
      { baseOffset: 0, leaderEpoch: 0 },
      { baseOffset: 2, leaderEpoch: 0 },
      { baseOffset: 4, leaderEpoch: 2 },
      { baseOffset: 6, leaderEpoch: 2 },
      { baseOffset: 7, leaderEpoch: 2 },
      { baseOffset: 9, leaderEpoch: 5 },
    ]);
    expect(log.leaderEpochs).toEqual(THREE_EPOCHS);
    expect(await readFile(checkpointPath(), 'utf8')).toBe('0\n3\n0 0\n2 4\n5 9\n');
    expect(log.endOffsetForEpoch(2)).toEqual({ epoch: 2, endOffset: 9 });
    expect(log.endOffsetForEpoch(5)).toEqual({ epoch: 5, endOffset: 11 });
    expect(log.epochForOffset(8)).toBe(2);
  });

  it('keeps the checkpoint across a clean restart and a crash', async () => {
    await writeThreeEpochs(await manager.createLog('orders', 0));
    await manager.shutdown();
    manager = createManager(directory.path, { logger });
    await manager.start();
    expect(manager.getLog('orders', 0)!.leaderEpochs).toEqual(THREE_EPOCHS);
    await append(manager.getLog('orders', 0)!, 6);
    await manager.crash();
    manager = createManager(directory.path, { logger });
    const report = await manager.start();
    expect(report.reports.get('orders 0')?.leaderEpochs).toBe('loaded');
    expect(manager.getLog('orders', 0)!.leaderEpochs).toEqual([
      ...THREE_EPOCHS,
      { epoch: 6, startOffset: 11 },
    ]);
  });

  it('rebuilds a deleted or damaged checkpoint from the stamped batches', async () => {
    await writeThreeEpochs(await manager.createLog('orders', 0));
    await manager.shutdown();
    await rm(checkpointPath());
    manager = createManager(directory.path, { logger });
    expect((await manager.start()).reports.get('orders 0')?.leaderEpochs).toBe('rebuilt-missing');
    expect(manager.getLog('orders', 0)!.leaderEpochs).toEqual(THREE_EPOCHS);
    expect(await readFile(checkpointPath(), 'utf8')).toBe('0\n3\n0 0\n2 4\n5 9\n');

    await manager.shutdown();
    await writeFile(checkpointPath(), '0\n3\n0 0\n2 4\n');
    manager = createManager(directory.path, { logger });
    await manager.start();
    expect(manager.getLog('orders', 0)!.leaderEpochs).toEqual(THREE_EPOCHS);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'the leader-epoch checkpoint was damaged; rebuilt it from the batches',
      }),
    );
  });

  it('finds no epochs in a log an older Weir wrote with -1, and starts one at the first stamped write', async () => {
    const log = await manager.createLog('orders', 0);
    await append(log, undefined);
    await append(log, undefined);
    expect(log.leaderEpochs).toEqual([]);
    await manager.shutdown();
    await rm(checkpointPath());
    manager = createManager(directory.path, { logger });
    await manager.start();
    const reopened = manager.getLog('orders', 0)!;
    expect(reopened.leaderEpochs).toEqual([]);
    expect(reopened.endOffsetForEpoch(0)).toEqual({ epoch: -1, endOffset: -1 });
    await append(reopened, 0);
    expect(reopened.leaderEpochs).toEqual([{ epoch: 0, startOffset: 4 }]);
    expect(await stamped(reopened)).toEqual([
      { baseOffset: 0, leaderEpoch: -1 },
      { baseOffset: 2, leaderEpoch: -1 },
      { baseOffset: 4, leaderEpoch: 0 },
    ]);
  });

  it('cuts an entry whose batch never reached the log (a crash between the two)', async () => {
    await writeThreeEpochs(await manager.createLog('orders', 0));
    await manager.shutdown();
    // As the checkpoint stands when an epoch 7 was recorded and the process died before its batch.
    await writeFile(checkpointPath(), '0\n4\n0 0\n2 4\n5 9\n7 11\n');
    manager = createManager(directory.path, { logger });
    await manager.start();
    expect(manager.getLog('orders', 0)!.leaderEpochs).toEqual(THREE_EPOCHS);
    expect(await readFile(checkpointPath(), 'utf8')).toBe('0\n3\n0 0\n2 4\n5 9\n');
  });

  it('drops the epochs of a truncated tail and folds those below a moved log start', async () => {
    const log = await manager.createLog('orders', 0);
    await writeThreeEpochs(log);
    await log.truncateTo(7);
    expect(log.leaderEpochs).toEqual(THREE_EPOCHS.slice(0, 2));
    expect(await readFile(checkpointPath(), 'utf8')).toBe('0\n2\n0 0\n2 4\n');
    expect(log.endOffsetForEpoch(2)).toEqual({ epoch: 2, endOffset: 7 });
    await log.truncateTo(4);
    expect(log.leaderEpochs).toEqual([{ epoch: 0, startOffset: 0 }]);
    await append(log, 3);
    await log.deleteRecordsBefore(5);
    expect(log.leaderEpochs).toEqual([{ epoch: 3, startOffset: 5 }]);
    expect(await readFile(checkpointPath(), 'utf8')).toBe('0\n1\n3 5\n');
  });
});
