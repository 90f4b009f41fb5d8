import { readdir, stat, truncate, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  decodeControlRecord,
  decodeRecordBatch,
  ErrorCode,
  encodeRecordBatch,
  encodeTransactionMarkerBatch,
  isControlBatch,
  isTransactionalBatch,
} from '@weir/protocol';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManager, forgetFlushedPoints, makeBatch, temporaryDirectory } from '../../test/log-fixtures';
import type { LogManager } from './log-manager';
import type { PartitionLog } from './partition-log';
import type { AbortedTransaction } from './transaction-index';

/** A transactional producer batch of `count` records. */
function txnBatch(producerId: number, epoch: number, sequence: number, count: number, label = 't'): Buffer {
  return encodeRecordBatch({
    records: Array.from({ length: count }, (_, index) => ({
      key: null,
      value: Buffer.from(`${label}-${index}`.padEnd(30, '.')),
      timestampMs: 1_700_000_000_000,
    })),
    producerId: BigInt(producerId),
    producerEpoch: epoch,
    baseSequence: sequence,
    isTransactional: true,
  });
}

function marker(type: 'commit' | 'abort', producerId: number, epoch: number, coordinatorEpoch = 0): Buffer {
  return encodeTransactionMarkerBatch({
    type,
    producerId: BigInt(producerId),
    producerEpoch: epoch,
    coordinatorEpoch,
    timestampMs: 1_700_000_000_000,
  });
}

const client = { origin: 'client' } as const;
const coordinator = { origin: 'coordinator' } as const;

/**
 * Where a read_committed reader of this log alone would stop: the first offset of the earliest open
 * transaction, or the log end. The replica layer bounds it further by the high watermark.
 */
function stableEnd(log: PartitionLog): number {
  return log.firstUnstableOffset ?? log.logEndOffset;
}

/** [baseOffset, lastOffset] of each batch in a read. */
function batchRanges(records: Buffer): [number, number][] {
  const ranges: [number, number][] = [];
  for (let position = 0; position < records.length; position += 12 + records.readInt32BE(position + 8)) {
    const base = Number(records.readBigInt64BE(position));
    ranges.push([base, base + records.readInt32BE(position + 23)]);
  }
  return ranges;
}

/**
 * The aborted transactions a log's batches imply, worked out independently of the producer state:
 * a transactional batch opens its producer's transaction, an ABORT marker closes it with the first
 * offset of the earliest other open transaction (or just past the marker) as the LSO.
 */
async function expectedAborted(log: PartitionLog): Promise<AbortedTransaction[]> {
  const open = new Map<number, number>();
  const aborted: AbortedTransaction[] = [];
  let offset = log.logStartOffset;
  while (offset < log.logEndOffset) {
    const { records } = await log.read(offset, { maxBytes: 1 << 20, maxOffset: log.logEndOffset });
    for (let position = 0; position < records.length; position += 12 + records.readInt32BE(position + 8)) {
      const decoded = decodeRecordBatch(
        records.subarray(position, position + 12 + records.readInt32BE(position + 8)),
      );
      if (!decoded.ok) throw decoded.error;
      const batch = decoded.value;
      const producerId = Number(batch.producerId);
      const base = Number(batch.baseOffset);
      offset = base + batch.lastOffsetDelta + 1;
      if (isControlBatch(batch.attributes)) {
        const control = decodeControlRecord(batch.records[0]!);
        if (!control.ok || control.value.type === 'unknown') continue;
        const first = open.get(producerId);
        open.delete(producerId);
        if (first === undefined || control.value.type !== 'abort') continue;
        const lastStableOffset = Math.min(base + 1, ...open.values());
        aborted.push({ producerId, firstOffset: first, lastOffset: base, lastStableOffset });
      } else if (isTransactionalBatch(batch.attributes) && !open.has(producerId)) {
        open.set(producerId, base);
      }
    }
  }
  return aborted;
}

/** Every aborted-transaction entry of the log, in marker order. */
function abortedEntries(log: PartitionLog): AbortedTransaction[] {
  return log.segments.flatMap((segment) => [...segment.txnIndex.entries]);
}

describe('PartitionLog transactions', () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  let manager: LogManager | undefined;
  const config = { segmentBytes: 600, indexIntervalBytes: 64, retentionMs: -1 };
  const partitionDirectory = () => join(directory.path, 'orders-0');

  beforeEach(async () => {
    directory = await temporaryDirectory();
  });
  afterEach(async () => {
    await manager?.shutdown().catch(() => undefined);
    manager = undefined;
    await directory.cleanup();
  });

  async function open(overrides: Partial<typeof config> = {}) {
    manager = createManager(directory.path, { config: { ...config, ...overrides } });
    const report = await manager.start();
    const log = manager.getLog('orders', 0) ?? (await manager.createLog('orders', 0));
    return { log, report };
  }

  it('holds the LSO at an open transaction and moves it with the markers', async () => {
    const { log } = await open({ segmentBytes: 1 << 20 });
    await log.append(makeBatch({ count: 2 }), client); // 0..1
    await log.append(txnBatch(7, 0, 0, 3), client); // 2..4, producer 7 opens at 2
    await log.append(makeBatch({ count: 1 }), client); // 5
    await log.append(txnBatch(8, 0, 0, 2), client); // 6..7, producer 8 opens at 6
    expect(log.logEndOffset).toBe(8);
    expect(stableEnd(log)).toBe(2);

    await log.append(marker('abort', 7, 0), coordinator); // 8
    expect(stableEnd(log)).toBe(6);
    expect(abortedEntries(log)).toEqual([
      { producerId: 7, firstOffset: 2, lastOffset: 8, lastStableOffset: 6 },
    ]);
    await log.append(marker('commit', 8, 0), coordinator); // 9
    expect(stableEnd(log)).toBe(10);
    expect(log.logEndOffset).toBe(10);
    expect(abortedEntries(log)).toHaveLength(1);
    // A marker for a producer with nothing open still takes an offset and changes nothing else.
    await log.append(marker('commit', 9, 0), coordinator);
    expect(stableEnd(log)).toBe(11);
  });

  it('reads read_committed up to the LSO with the aborted transactions overlapping the batches returned', async () => {
    const { log } = await open({ segmentBytes: 1 << 20 });
    await log.append(txnBatch(7, 0, 0, 2), client); // 0..1
    await log.append(marker('abort', 7, 0), coordinator); // 2
    await log.append(makeBatch({ count: 2 }), client); // 3..4
    await log.append(txnBatch(8, 0, 0, 2), client); // 5..6, open

    const committed = await log.read(0, {
      maxBytes: 1 << 20,
      isolation: 'read_committed',
      maxOffset: stableEnd(log),
    });
    expect(stableEnd(log)).toBe(5);
    // Every batch below the LSO, the open transaction's held back.
    expect(batchRanges(committed.records)).toEqual([
      [0, 1],
      [2, 2],
      [3, 4],
    ]);
    expect(committed.abortedTransactions).toEqual([
      { producerId: 7, firstOffset: 0, lastOffset: 2, lastStableOffset: 3 },
    ]);
    // A read starting after the aborted range does not list it.
    const later = await log.read(3, {
      maxBytes: 1 << 20,
      isolation: 'read_committed',
      maxOffset: stableEnd(log),
    });
    expect(later.abortedTransactions).toEqual([]);
    // At the LSO there is nothing to read yet.
    expect(
      (await log.read(5, { maxBytes: 1 << 20, isolation: 'read_committed', maxOffset: stableEnd(log) }))
        .records.length,
    ).toBe(0);
    const uncommitted = await log.read(0, { maxBytes: 1 << 20, maxOffset: log.logEndOffset });
    expect(uncommitted.abortedTransactions).toBeUndefined();
    expect(uncommitted.records.length).toBeGreaterThan(committed.records.length);
  });

  it('refuses a batch that would open a transaction when a marker for its producer came after its verification began', async () => {
    const { log } = await open();
    const verified = log.beginTransactionVerification(7n);
    // Pipelined batches of one producer share the guard the first one took.
    expect(log.beginTransactionVerification(7n)).toBe(verified);
    await log.append(marker('commit', 7, 0), coordinator);
    await expect(
      log.append(txnBatch(7, 0, 0, 2), { ...client, verificationGuard: verified }),
    ).rejects.toMatchObject({ code: ErrorCode.INVALID_TXN_STATE });
    expect(log.logEndOffset).toBe(1);
    expect(stableEnd(log)).toBe(1);

    // A guard taken after the marker holds: the batch opens the transaction, and the next batch
    // of that open transaction needs no guard of its own.
    const fresh = log.beginTransactionVerification(7n);
    expect(fresh).not.toBe(verified);
    await log.append(txnBatch(7, 0, 0, 2), { ...client, verificationGuard: fresh });
    await log.append(marker('abort', 7, 0), coordinator);
    await expect(
      log.append(txnBatch(7, 0, 2, 1), { ...client, verificationGuard: fresh }),
    ).rejects.toMatchObject({ code: ErrorCode.INVALID_TXN_STATE });
    expect(abortedEntries(log)).toEqual([
      { producerId: 7, firstOffset: 1, lastOffset: 3, lastStableOffset: 4 },
    ]);
  });

  it('refuses a non-transactional batch while the producer has a transaction open', async () => {
    const { log } = await open();
    await log.append(txnBatch(7, 0, 0, 1), client);
    const plain = encodeRecordBatch({
      records: [{ key: null, value: Buffer.from('x'), timestampMs: 0 }],
      producerId: 7n,
      producerEpoch: 0,
      baseSequence: 1,
    });
    await expect(log.append(plain, client)).rejects.toMatchObject({ code: ErrorCode.INVALID_TXN_STATE });
    await log.append(marker('commit', 7, 0), coordinator);
    const after = encodeRecordBatch({
      records: [{ key: null, value: Buffer.from('x'), timestampMs: 0 }],
      producerId: 7n,
      producerEpoch: 0,
      baseSequence: 1,
    });
    expect((await log.append(after, client)).baseOffset).toBe(2);
  });

  it('stamps the append time on a coordinator’s marker on a LogAppendTime topic, as on producers’ batches', async () => {
    manager = createManager(directory.path, { config: { ...config, timestampType: 'LogAppendTime' } });
    await manager.start();
    const log = await manager.createLog('orders', 0);
    const beforeMs = Date.now();
    await log.append(txnBatch(1, 0, 0, 2), client);
    await log.append(marker('commit', 1, 0), coordinator);
    const { records } = await log.read(0, { maxBytes: 1 << 20, maxOffset: log.logEndOffset });
    const batches: { control: boolean; appendTime: boolean; maxTimestampMs: number }[] = [];
    for (let position = 0; position < records.length; position += 12 + records.readInt32BE(position + 8)) {
      const decoded = decodeRecordBatch(
        records.subarray(position, position + 12 + records.readInt32BE(position + 8)),
      );
      if (!decoded.ok) throw decoded.error;
      batches.push({
        control: isControlBatch(decoded.value.attributes),
        appendTime: (decoded.value.attributes & 0x08) !== 0,
        maxTimestampMs: decoded.value.maxTimestampMs,
      });
    }
    expect(batches.map(({ control, appendTime }) => ({ control, appendTime }))).toEqual([
      { control: false, appendTime: true },
      { control: true, appendTime: true },
    ]);
    for (const batch of batches) expect(batch.maxTimestampMs).toBeGreaterThanOrEqual(beforeMs);
  });

  it('fences markers from an older producer epoch or coordinator epoch', async () => {
    const { log } = await open();
    await log.append(txnBatch(7, 3, 0, 1), client);
    await expect(log.append(marker('abort', 7, 2), coordinator)).rejects.toMatchObject({
      code: ErrorCode.INVALID_PRODUCER_EPOCH,
    });
    await log.append(marker('abort', 7, 3, 5), coordinator);
    await log.append(txnBatch(7, 3, 1, 1), client);
    await expect(log.append(marker('commit', 7, 3, 4), coordinator)).rejects.toMatchObject({
      code: ErrorCode.TRANSACTION_COORDINATOR_FENCED,
    });
    // The refused markers took no offsets and left the transaction open.
    expect(log.logEndOffset).toBe(3);
    expect(stableEnd(log)).toBe(2);
  });

  it('keeps the aborted ranges across a clean restart, and deletes them with their segment', async () => {
    const { log } = await open({ segmentBytes: 400 });
    for (let round = 0; round < 6; round++) {
      await log.append(txnBatch(7, 0, round * 2, 2, `r${round}`), client);
      await log.append(marker(round % 2 === 0 ? 'abort' : 'commit', 7, 0), coordinator);
    }
    const before = abortedEntries(log);
    expect(before).toHaveLength(3);
    expect(log.segments.length).toBeGreaterThan(1);
    await manager!.shutdown();

    const { log: reopened, report } = await open({ segmentBytes: 400 });
    expect(report.reports.get('orders 0')?.transactionIndexRebuiltFrom).toBeUndefined();
    expect(abortedEntries(reopened)).toEqual(before);

    const firstTxnIndex = reopened.segments[0]!.txnIndex.path;
    await reopened.deleteRecordsBefore(reopened.segments[1]!.baseOffset);
    expect(reopened.segments[0]!.txnIndex.path).not.toBe(firstTxnIndex);
    const names = await readdir(partitionDirectory());
    expect(names).not.toContain(firstTxnIndex.split('/').at(-1));
  });

  it('keeps an open transaction, and so the LSO, across a clean restart and a crash', async () => {
    const { log } = await open({ segmentBytes: 300 });
    await log.append(makeBatch({ count: 2 }), client); // 0..1
    await log.append(txnBatch(7, 0, 0, 2), client); // 2..3, open
    for (let index = 0; index < 6; index++) await log.append(makeBatch({ count: 2, valueBytes: 40 }), client);
    expect(log.segments.length).toBeGreaterThan(1);
    expect(stableEnd(log)).toBe(2);
    await manager!.shutdown();
    const { log: restarted } = await open({ segmentBytes: 300 });
    expect(stableEnd(restarted)).toBe(2);
    await restarted.flush();
    // A crash this time: nothing more of this manager reaches the disk.
    await (manager as ReturnType<typeof createManager>).crash();
    manager = undefined;
    await unlink(join(directory.path, 'recovery-point-offset-checkpoint')).catch(() => undefined);
    await unlink(join(directory.path, '.weir-clean-shutdown')).catch(() => undefined);
    const { log: recovered } = await open({ segmentBytes: 300 });
    expect(stableEnd(recovered)).toBe(2);
    await recovered.append(marker('abort', 7, 0), coordinator);
    expect(stableEnd(recovered)).toBe(recovered.logEndOffset);
    expect(abortedEntries(recovered)).toEqual([
      {
        producerId: 7,
        firstOffset: 2,
        lastOffset: recovered.logEndOffset - 1,
        lastStableOffset: recovered.logEndOffset,
      },
    ]);
  });

  it('rebuilds a missing or damaged transaction index from the log', async () => {
    const { log } = await open({ segmentBytes: 400 });
    for (let round = 0; round < 8; round++) {
      await log.append(txnBatch(round % 2, 0, Math.floor(round / 2) * 2, 2, `r${round}`), client);
      await log.append(marker('abort', round % 2, 0), coordinator);
    }
    const before = abortedEntries(log);
    await manager!.shutdown();
    const indexes = (await readdir(partitionDirectory())).filter((name) => name.endsWith('.txnindex')).sort();
    await unlink(join(partitionDirectory(), indexes[1]!));
    await writeFile(join(partitionDirectory(), indexes[2]!), Buffer.from([0, 0, 1]));

    const { log: reopened, report } = await open({ segmentBytes: 400 });
    expect(report.reports.get('orders 0')?.transactionIndexRebuiltFrom).toBe(
      reopened.segments[1]!.baseOffset,
    );
    expect(abortedEntries(reopened)).toEqual(before);
  });

  it('restores the same aborted ranges after a crash cuts the log at any byte', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ producer: fc.integer({ min: 0, max: 2 }), abort: fc.boolean() }), {
          minLength: 4,
          maxLength: 14,
        }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.nat(),
        async (steps, fraction, fileChoice) => {
          await directory.cleanup();
          directory = await temporaryDirectory();
          const { log } = await open({ segmentBytes: 500 });
          const sequences = [0, 0, 0];
          const open_ = [false, false, false];
          for (const [index, step] of steps.entries()) {
            const producer = step.producer;
            if (open_[producer] && index % 2 === 1) {
              await log.append(marker(step.abort ? 'abort' : 'commit', producer, 0), coordinator);
              open_[producer] = false;
            } else {
              await log.append(txnBatch(producer, 0, sequences[producer]!, 2, `p${producer}`), client);
              sequences[producer]! += 2;
              open_[producer] = true;
            }
            if (index % 3 === 0) await log.append(makeBatch({ count: 1 }), client);
          }
          const before = abortedEntries(log);
          expect(before).toEqual(await expectedAborted(log));
          await log.flush();
          // A crash: no clean shutdown, no checkpoints, nothing more of this manager on disk.
          await (manager as ReturnType<typeof createManager>).crash();
          manager = undefined;
          const logs = (await readdir(partitionDirectory())).filter((name) => name.endsWith('.log')).sort();
          const cutFile = join(partitionDirectory(), logs[fileChoice % logs.length]!);
          await truncate(cutFile, Math.floor(fraction * (await stat(cutFile)).size));
          await forgetFlushedPoints(directory.path);

          const { log: reopened } = await open({ segmentBytes: 500 });
          const rebuilt = abortedEntries(reopened);
          expect(rebuilt).toEqual(await expectedAborted(reopened));
          // When the cut is in the last segment, recovery keeps a prefix of the log and so a
          // prefix of the aborted ranges, with the same last stable offsets.
          const end = reopened.logEndOffset;
          if (cutFile === join(partitionDirectory(), logs.at(-1)!)) {
            expect(rebuilt).toEqual(before.filter((entry) => entry.lastOffset < end));
          }
          // And the LSO matches the transactions still open in what survived.
          expect(stableEnd(reopened)).toBeLessThanOrEqual(reopened.logEndOffset);
          await manager!.shutdown();
          manager = undefined;
        },
      ),
      { numRuns: 25 },
    );
  });
});
