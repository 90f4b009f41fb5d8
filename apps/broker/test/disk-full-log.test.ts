import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCode } from '@weir/protocol';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { LogManager } from '../src/log/log-manager';
import type { PartitionLog } from '../src/log/partition-log';
import { pollUntil } from './group-fixtures';
import { createManager, makeBatch } from './log-fixtures';
import { readWholeLog } from './log-reads';
import { mountSmallFilesystem } from './small-filesystem';

const filesystem = await mountSmallFilesystem(4 * 1024 * 1024);
const describeOnSmallFilesystem = 'mounted' in filesystem ? describe : describe.skip;
const skipNote = 'skipReason' in filesystem ? ` (skipped: ${filesystem.skipReason})` : '';

/** An idempotent batch of producer 7 with recognisable values. */
function idempotentBatch(sequence: number): Buffer {
  return makeBatch({
    count: 4,
    valueBytes: 2_000,
    label: `s${sequence}`,
    producerId: 7n,
    producerEpoch: 0,
    baseSequence: sequence * 4,
    // Now, so that retention (7 days by default) keeps every segment.
    timestampMs: Date.now(),
  });
}

/** The bytes the segment files of a log hold on disk, to compare with what the log knows. */
async function logFileBytes(directory: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(directory)) {
    if (name.endsWith('.log')) total += (await stat(join(directory, name))).size;
  }
  return total;
}

describeOnSmallFilesystem(`a partition log on a full file system${skipNote}`, () => {
  const small = 'mounted' in filesystem ? filesystem.mounted : undefined;
  let manager: LogManager | undefined;

  afterEach(async () => {
    await manager?.shutdown().catch(() => undefined);
    manager = undefined;
    await small?.free();
  });
  afterAll(async () => {
    await small?.unmount();
  });

  it('serves what it acknowledged, rolls a failed write back, and writes again once space is freed', async () => {
    const dataDirectory = join(small!.path, `logs-${Date.now()}`);
    manager = createManager(dataDirectory, { config: { segmentBytes: 48 * 1024, flushMs: 5 } });
    await manager.start();
    const log: PartitionLog = await manager.createLog('orders', 0);
    await small!.fillLeaving(600 * 1024);

    const acknowledged: string[] = [];
    let sequence = 0;
    let refusal: unknown;
    while (refusal === undefined) {
      try {
        const written = await log.append(idempotentBatch(sequence), { origin: 'client' });
        await log.waitUntilFlushed(written.lastOffset + 1);
        for (let index = 0; index < 4; index++) acknowledged.push(`s${sequence}-${index}`);
        sequence++;
      } catch (error) {
        refusal = error;
      }
    }
    expect(refusal).toMatchObject({ code: ErrorCode.KAFKA_STORAGE_ERROR });
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(log.isOffline).toBe(false);
    expect(log.outOfSpaceError?.errno).toBe('ENOSPC');
    expect(manager.offlinePartitions()).toEqual([]);
    expect(manager.writeDegradedPartitions()).toEqual([
      expect.objectContaining({ topic: 'orders', partition: 0, reason: expect.stringContaining('ENOSPC') }),
    ]);

    // Nothing of the failed write is left on disk: the files end where the last whole batch does.
    const directory = log.context.directory;
    expect(await logFileBytes(directory)).toBe(log.sizeBytes);
    // Reads of acknowledged records keep working; writes are refused without touching the disk.
    expect((await readWholeLog(log)).flatMap((batch) => batch.values)).toEqual(
      acknowledged.map((value) => value.padEnd(2_000, '.')),
    );
    await expect(log.append(idempotentBatch(sequence), { origin: 'client' })).rejects.toMatchObject({
      code: ErrorCode.KAFKA_STORAGE_ERROR,
    });
    // DeleteRecords needs no new space.
    expect(await log.deleteRecordsBefore(4)).toBe(4);

    await small!.free();
    await pollUntil(() => log.outOfSpaceError === undefined, 'the log to accept writes again');
    const endBefore = log.logEndOffset;
    // The producer's retry of the batch that failed is stored once, at the old log end.
    const retried = await log.append(idempotentBatch(sequence), { origin: 'client' });
    expect(retried).toMatchObject({ baseOffset: endBefore, duplicate: false });
    const again = await log.append(idempotentBatch(sequence), { origin: 'client' });
    expect(again).toMatchObject({ baseOffset: endBefore, duplicate: true });
    const next = await log.append(idempotentBatch(sequence + 1), { origin: 'client' });
    expect(next.baseOffset).toBe(endBefore + 4);
    await log.waitUntilFlushed(next.lastOffset + 1);
    const expected = [
      ...acknowledged.slice(4),
      ...[sequence, sequence + 1].flatMap((s) => [0, 1, 2, 3].map((i) => `s${s}-${i}`)),
    ];
    expect((await readWholeLog(log)).flatMap((batch) => batch.values)).toEqual(
      expected.map((value) => value.padEnd(2_000, '.')),
    );
  });
});
