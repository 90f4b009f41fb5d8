import { appendFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeRecordBatch, encodeRecordBatch, iterateBatches } from '@weir/protocol';
import { LOG_SUFFIX, partitionDirectoryName } from '../src/log/log-files';
import { createManager, forgetFlushedPoints } from './log-fixtures';

/**
 * Helpers of the tests of the one-time upgrade of the internal topics' record layouts
 * (docs/kafka-compat.md §6.7): they read and append partition 0 of an internal topic of a stopped
 * broker's data directory through the log layer, and leave the directory as a broker killed in
 * the middle of an append leaves it.
 */

export interface KeyedRecord {
  key: Buffer;
  value: Buffer | null;
}

/** The broker keeps its partition logs under `logs/` in its data directory (broker.ts). */
function logsOf(dataDir: string): string {
  return join(dataDir, 'logs');
}

/** Every record of partition 0 of `topic`, in log order. */
export async function partitionRecords(dataDir: string, topic: string): Promise<KeyedRecord[]> {
  const manager = createManager(logsOf(dataDir));
  try {
    await manager.start();
    const log = manager.getLog(topic, 0)!;
    const found: KeyedRecord[] = [];
    let offset = log.logStartOffset;
    while (offset < log.logEndOffset) {
      const { records } = await log.read(offset, { maxBytes: 1 << 20, maxOffset: log.logEndOffset });
      for (const item of iterateBatches(records as Buffer)) {
        if (item.kind !== 'batch') throw new Error(`unreadable batch at ${item.position}`);
        const decoded = decodeRecordBatch(item.bytes);
        if (!decoded.ok) throw decoded.error;
        for (const record of decoded.value.records) found.push({ key: record.key!, value: record.value });
        offset = Number(decoded.value.baseOffset) + decoded.value.lastOffsetDelta + 1;
      }
    }
    return found;
  } finally {
    await manager.shutdown();
  }
}

/** The int16 version each record's value starts with (null for a tombstone), in log order. */
export async function valueVersions(dataDir: string, topic: string): Promise<(number | null)[]> {
  return (await partitionRecords(dataDir, topic)).map(({ value }) =>
    value === null ? null : value.readInt16BE(0),
  );
}

/** Appends records to partition 0 of `topic`, as its coordinator would, in one batch. */
export async function appendRecords(dataDir: string, topic: string, records: KeyedRecord[]): Promise<void> {
  const manager = createManager(logsOf(dataDir));
  try {
    await manager.start();
    const timestampMs = Date.now();
    const batch = encodeRecordBatch({ records: records.map((record) => ({ ...record, timestampMs })) });
    await manager.getLog(topic, 0)!.append(batch, { origin: 'coordinator' });
  } finally {
    await manager.shutdown();
  }
}

/**
 * Leaves the directory of a stopped broker as a kill in the middle of appending `records` to
 * partition 0 of `topic` leaves it: the first half of their batch's bytes at the end of the
 * partition's active segment, no clean-shutdown marker, and nothing known to be flushed. The
 * records before them are whole; this is how a broker killed mid-rewrite leaves an upgrade whose
 * earlier batches were durable and whose last was not.
 */
export async function leaveKilledMidAppend(
  dataDir: string,
  topic: string,
  records: KeyedRecord[],
): Promise<void> {
  const timestampMs = Date.now();
  const batch = encodeRecordBatch({ records: records.map((record) => ({ ...record, timestampMs })) });
  const partitionDir = join(logsOf(dataDir), partitionDirectoryName(topic, 0));
  const segments = (await readdir(partitionDir)).filter((name) => name.endsWith(LOG_SUFFIX)).sort();
  await appendFile(join(partitionDir, segments[segments.length - 1]!), batch.subarray(0, batch.length >> 1));
  // A killed broker writes no clean-shutdown marker (log-manager.ts) and no final checkpoints.
  await rm(join(logsOf(dataDir), '.weir-clean-shutdown'), { force: true });
  await forgetFlushedPoints(logsOf(dataDir));
}
