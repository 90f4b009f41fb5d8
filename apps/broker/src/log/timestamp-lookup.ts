import { decodeRecordBatch } from '@weir/protocol';
import type { ScannedBatch } from './batch-scan';
import type { Segment } from './segment';

/** The answer to "which offset has the first record at or after this time". */
export interface TimestampOffset {
  offset: number;
  timestampMs: number;
}

/**
 * Finds the first record whose timestamp is ≥ `targetMs` among batches below `maxOffset`, exactly
 * (not at batch granularity; librdkafka's tests rely on that). Segments whose newest record is
 * older are skipped, the time index narrows the scan inside a segment, batch headers (max
 * timestamp) pick the batch, and only that batch's records are decoded. Undefined when no record
 * is that new.
 */
export async function findOffsetForTimestamp(
  segments: readonly Segment[],
  targetMs: number,
  maxOffset: number,
): Promise<TimestampOffset | undefined> {
  for (const segment of segments) {
    if (segment.baseOffset >= maxOffset) return undefined;
    if ((await segment.largestTimestampMs()) < targetMs) continue;
    const start = await segment.positionBeforeTimestamp(targetMs);
    const candidates: ScannedBatch[] = [];
    await segment.scan(start, segment.sizeBytes, { withBody: false, verifyCrc: false }, (batch) => {
      if (batch.baseOffset >= maxOffset) return false;
      if (batch.header.maxTimestampMs >= targetMs) {
        candidates.push(batch);
        return false;
      }
      return true;
    });
    const batch = candidates[0];
    if (!batch) continue;
    const found = await firstRecordAtOrAfter(segment, batch, targetMs);
    if (found) return found;
  }
  return undefined;
}

async function firstRecordAtOrAfter(
  segment: Segment,
  batch: ScannedBatch,
  targetMs: number,
): Promise<TimestampOffset | undefined> {
  const bytes = await segment.readBytes(batch.positionBytes, batch.sizeBytes);
  const decoded = decodeRecordBatch(bytes, { verifyCrc: false });
  if (!decoded.ok) {
    // A batch that cannot be decoded still has a header that says it is new enough; answering
    // with its base offset is what a batch-granular lookup would do and never skips data.
    return { offset: batch.baseOffset, timestampMs: batch.header.maxTimestampMs };
  }
  for (const record of decoded.value.records) {
    if (record.timestampMs >= targetMs)
      return { offset: Number(record.offset), timestampMs: record.timestampMs };
  }
  return undefined;
}
