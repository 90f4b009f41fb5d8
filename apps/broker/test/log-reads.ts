import { decodeRecordBatch, iterateBatches, readBatchHeader } from '@weir/protocol';
import { expect } from 'vitest';
import type { PartitionLog } from '../src/log/partition-log';

/** One batch of a read result, decoded: its offsets and its records' values as strings. */
export interface ReadBatch {
  baseOffset: number;
  lastOffset: number;
  values: string[];
}

/** Decodes every batch in a read result. */
export function batchesOf(records: Buffer): ReadBatch[] {
  const result: ReadBatch[] = [];
  let position = 0;
  while (position < records.length) {
    const size = 12 + records.readInt32BE(position + 8);
    const decoded = decodeRecordBatch(records.subarray(position, position + size));
    if (!decoded.ok) throw decoded.error;
    result.push({
      baseOffset: Number(decoded.value.baseOffset),
      lastOffset: Number(decoded.value.baseOffset) + decoded.value.lastOffsetDelta,
      values: decoded.value.records.map((record) => record.value!.toString()),
    });
    position += size;
  }
  return result;
}

/** The base offset and stamped partition leader epoch of every whole batch in `records`. */
export function leaderEpochsOf(records: Buffer): { baseOffset: number; leaderEpoch: number }[] {
  const stamped = [];
  for (const item of iterateBatches(records)) {
    if (item.kind !== 'batch') throw new Error(`not a whole batch at byte ${item.position}`);
    const header = readBatchHeader(item.bytes);
    if (!header.ok) throw header.error;
    stamped.push({
      baseOffset: Number(header.value.baseOffset),
      leaderEpoch: header.value.partitionLeaderEpoch,
    });
  }
  return stamped;
}

/**
 * Reads the whole log, from its start to its end, batch by batch, and checks that every batch is
 * whole and valid and the offsets are contiguous.
 */
export async function readWholeLog(log: PartitionLog): Promise<ReadBatch[]> {
  const batches: ReadBatch[] = [];
  let offset = log.logStartOffset;
  while (offset < log.logEndOffset) {
    const { records } = await log.read(offset, { maxBytes: 1 << 20, maxOffset: log.logEndOffset });
    const read = batchesOf(records);
    expect(read.length, `a read at offset ${offset} below the log end`).toBeGreaterThan(0);
    for (const batch of read) {
      expect(batch.baseOffset).toBe(offset);
      batches.push(batch);
      offset = batch.lastOffset + 1;
    }
  }
  return batches;
}
