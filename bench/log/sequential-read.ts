import { performance } from 'node:perf_hooks';
import type { PartitionLog } from '@weir/broker/log/partition-log';
import { BATCH_LOG_OVERHEAD_BYTES, readBatchHeader } from '@weir/protocol';

export interface ReadMeasurement {
  bytesPerSecond: number;
  bytes: number;
  readCount: number;
}

/** One past the last offset of the last whole batch in `records` (a fetch response's bytes). */
function nextOffsetAfter(records: Buffer): number {
  let position = 0;
  let lastPosition = 0;
  while (position < records.length) {
    lastPosition = position;
    position += BATCH_LOG_OVERHEAD_BYTES + records.readInt32BE(position + 8);
  }
  const header = readBatchHeader(records, lastPosition);
  if (!header.ok) throw new Error(`read returned a damaged batch: ${header.error.message}`);
  return Number(header.value.baseOffset) + header.value.lastOffsetDelta + 1;
}

/**
 * Reads a partition from its start to its end the way a catching-up consumer fetches it: each read
 * asks for `maxBytes` at the offset after the last batch the previous read returned.
 */
export async function readToEnd(log: PartitionLog, maxBytes: number): Promise<ReadMeasurement> {
  let offset = log.logStartOffset;
  let bytes = 0;
  let readCount = 0;
  const startedMs = performance.now();
  while (offset < log.logEndOffset) {
    const { records } = await log.read(offset, { maxBytes, maxOffset: log.logEndOffset });
    if (records.length === 0) throw new Error(`empty read at offset ${offset} of ${log.logEndOffset}`);
    bytes += records.length;
    readCount++;
    offset = nextOffsetAfter(records);
  }
  const seconds = (performance.now() - startedMs) / 1000;
  return { bytesPerSecond: bytes / seconds, bytes, readCount };
}
