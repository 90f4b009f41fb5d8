import { BATCH_HEADER_BYTES, BATCH_LOG_OVERHEAD_BYTES, BatchLayout } from '@weir/protocol';
import type { ReadOptions } from './partition-log-types';
import type { Segment } from './segment';
import type { StoredRecords } from './segment-region';

/** Index of the last segment whose base offset is ≤ `offset` (segments are sorted by base offset). */
export function floorSegmentIndex(segments: readonly Segment[], offset: number): number {
  let low = 0;
  let high = segments.length - 1;
  let found = 0;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (segments[middle]!.baseOffset <= offset) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/**
 * Reads whole stored batches from the segment holding `fetchOffset`: the first is the batch that
 * contains it, then more while they fit in `maxBytes`, all with base offsets below `maxOffset`.
 * The first batch is returned even when larger than `maxBytes` unless `minOneBatch` is false, and
 * a partial trailing batch is never returned. Like Kafka, one read serves one segment; the client's
 * next fetch continues in the next, except after batches without records up to the segment's end
 * (a clean keeps a live producer's last batch as such a header): kafkajs 2.2.4 cannot move past an
 * answer with no record in it, so the read goes on in the next segment (docs/kafka-compat.md, Fetch).
 * With `deferAboveBytes`, a read of more bytes than that returns a region of the segment (the same
 * batches, read when written) instead of the bytes.
 */
export async function readWholeBatches(
  segments: readonly Segment[],
  fetchOffset: number,
  maxOffset: number,
  options: ReadOptions & { deferAboveBytes?: number },
): Promise<StoredRecords> {
  const minOneBatch = options.minOneBatch ?? true;
  for (let index = floorSegmentIndex(segments, fetchOffset); index < segments.length; index++) {
    const segment = segments[index]!;
    // Only bytes below the size published before this read are complete batches.
    const endPositionBytes = segment.sizeBytes;
    const location = await segment.locate(fetchOffset, endPositionBytes);
    if (!location) continue;
    if (location.baseOffset >= maxOffset) return Buffer.alloc(0);
    if (!minOneBatch && location.sizeBytes > options.maxBytes) return Buffer.alloc(0);
    const wantedBytes = Math.max(options.maxBytes, minOneBatch ? location.sizeBytes : 0);
    const byteCount = Math.min(wantedBytes, endPositionBytes - location.positionBytes);
    if (options.deferAboveBytes !== undefined && byteCount > options.deferAboveBytes) {
      return segment.regionOfWholeBatches(
        location,
        location.positionBytes + byteCount,
        maxOffset,
        endPositionBytes,
      );
    }
    const bytes = await segment.readBytes(location.positionBytes, byteCount);
    const whole = bytes.subarray(0, wholeBatchesLength(bytes, maxOffset));
    const next = segments[index + 1];
    if (
      next === undefined ||
      location.positionBytes + whole.length < endPositionBytes ||
      !holdsNoRecords(whole)
    )
      return whole;
    // What follows is read into memory, so it stays within the size that is never deferred.
    const rest = await readWholeBatches(segments.slice(index + 1), next.baseOffset, maxOffset, {
      ...options,
      maxBytes: Math.min(
        options.maxBytes - whole.length,
        options.deferAboveBytes ?? Number.POSITIVE_INFINITY,
      ),
      minOneBatch: false,
    });
    return Buffer.isBuffer(rest) ? Buffer.concat([whole, rest]) : whole;
  }
  return Buffer.alloc(0);
}

/** Whether `bytes` (whole batches, at least one) hold no record: only headers a clean kept. */
function holdsNoRecords(bytes: Buffer): boolean {
  let position = 0;
  while (position < bytes.length) {
    if (bytes.readInt32BE(position + BatchLayout.recordCount) !== 0) return false;
    position += BATCH_LOG_OVERHEAD_BYTES + bytes.readInt32BE(position + BatchLayout.batchLength);
  }
  return position > 0;
}

/** The length of the prefix of `bytes` made of complete batches with base offsets below `maxOffset`. */
function wholeBatchesLength(bytes: Buffer, maxOffset: number): number {
  let position = 0;
  while (bytes.length - position >= BATCH_HEADER_BYTES) {
    const sizeBytes = BATCH_LOG_OVERHEAD_BYTES + bytes.readInt32BE(position + 8);
    if (position + sizeBytes > bytes.length) break;
    const baseOffset = Number(bytes.readBigInt64BE(position));
    if (baseOffset >= maxOffset) break;
    position += sizeBytes;
  }
  return position;
}
