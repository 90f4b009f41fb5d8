import { BATCH_LOG_OVERHEAD_BYTES, decodeRecordBatch, encodeRecordBatch } from '@weir/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManager, temporaryDirectory } from '../../test/log-fixtures';

/**
 * Reads across a record-less batch at a segment's end: a clean keeps a live idempotent producer's
 * last batch as a bare header when all its records are superseded, and a read that found only such
 * headers before the segment ends goes on in the next segment, so a client that advances by the
 * records it gets (kafkajs) is not stuck there.
 */

const SEGMENT_BYTES = 1000;

function keyed(key: string, value: string, producer?: { id: bigint; sequence: number }): Buffer {
  return encodeRecordBatch({
    records: [{ key: Buffer.from(key), value: Buffer.from(value), timestampMs: Date.now() }],
    producerId: producer?.id ?? -1n,
    producerEpoch: producer === undefined ? -1 : 0,
    baseSequence: producer?.sequence ?? -1,
  });
}

/** Each batch of a read: its base offset and how many records it holds. */
function batchesOf(bytes: Buffer): { baseOffset: number; records: number }[] {
  const batches: { baseOffset: number; records: number }[] = [];
  for (let position = 0; position < bytes.length; ) {
    const size = BATCH_LOG_OVERHEAD_BYTES + bytes.readInt32BE(position + 8);
    const batch = decodeRecordBatch(bytes.subarray(position, position + size));
    if (!batch.ok) throw batch.error;
    batches.push({ baseOffset: Number(batch.value.baseOffset), records: batch.value.records.length });
    position += size;
  }
  return batches;
}

describe('readWholeBatches after a clean', () => {
  let directory: { path: string; cleanup: () => Promise<void> };

  beforeEach(async () => {
    directory = await temporaryDirectory();
  });
  afterEach(async () => {
    await directory.cleanup();
  });

  it('goes on in the next segment after a kept producer header that ends its segment', async () => {
    const manager = createManager(directory.path, {
      config: {
        compact: true,
        deleteByRetention: false,
        minCleanableDirtyRatio: 0,
        segmentBytes: SEGMENT_BYTES,
        flushMs: 1,
      },
    });
    await manager.start();
    try {
      const log = await manager.createLog('headers', 0);
      const idempotent = keyed('shared', 'first', { id: 7n, sequence: 0 });
      // Fillers with keys of their own, then the producer's batch last in the first segment: the
      // big batch that supersedes its key cannot fit there and rolls.
      for (let filler = 0; ; filler++) {
        const next = keyed(`filler-${filler}`, 'x'.repeat(40));
        if (log.segments[0]!.sizeBytes + next.length + idempotent.length > SEGMENT_BYTES) break;
        await log.append(next, { origin: 'client' });
      }
      const { baseOffset: producerOffset } = await log.append(idempotent, { origin: 'client' });
      await log.append(keyed('shared', 'n'.repeat(900)), { origin: 'client' });
      await log.append(keyed('closer', 'c'.repeat(900)), { origin: 'client' });
      expect(log.segments).toHaveLength(3);
      await log.flush();

      const outcome = await manager.cleaner.cleanNow(log);
      expect(outcome?.kind).toBe('cleaned');
      // The two closed segments are too big to merge, so the header still ends the first one.
      expect(log.segments[1]!.baseOffset).toBe(producerOffset + 1);
      const { records } = await log.read(producerOffset, { maxBytes: 1 << 20, maxOffset: log.logEndOffset });
      expect(batchesOf(records as Buffer)).toEqual([
        { baseOffset: producerOffset, records: 0 },
        { baseOffset: producerOffset + 1, records: 1 },
      ]);
      // With room for the header alone, the read returns it without a partial batch after it.
      const { records: small } = await log.read(producerOffset, {
        maxBytes: 100,
        maxOffset: log.logEndOffset,
      });
      expect(batchesOf(small as Buffer)).toEqual([{ baseOffset: producerOffset, records: 0 }]);
    } finally {
      await manager.shutdown();
    }
  });
});
