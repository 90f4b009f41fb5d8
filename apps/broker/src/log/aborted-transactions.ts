import { BATCH_LOG_OVERHEAD_BYTES, BatchLayout } from '@weir/protocol';
import { floorSegmentIndex } from './read-batches';
import type { Segment } from './segment';
import type { AbortedTransaction } from './transaction-index';

/**
 * The transaction side of a partition log, kept out of partition-log.ts: putting the entries of
 * aborted transactions into the `.txnindex` of the segment holding each ABORT marker, and finding
 * the aborted transactions a read_committed fetch must report (Kafka's collectAbortedTransactions).
 */

/**
 * Adds each aborted transaction to the index of the segment its marker was written to, and writes
 * the new entries to the files. The segments were just appended to, so the flush that makes the
 * markers durable syncs these entries too.
 */
export async function indexAbortedTransactions(
  segments: readonly Segment[],
  aborted: readonly AbortedTransaction[],
): Promise<void> {
  if (aborted.length === 0) return;
  const touched = new Set<Segment>();
  for (const entry of aborted) {
    const segment = segments[floorSegmentIndex(segments, entry.lastOffset)]!;
    if (entry.lastOffset < segment.baseOffset || entry.lastOffset >= segment.nextOffset) {
      throw new Error(`abort marker ${entry.lastOffset} is not in the segment at ${segment.baseOffset}`);
    }
    segment.txnIndex.append(entry);
    touched.add(segment);
  }
  for (const segment of touched) await segment.txnIndex.writePending();
}

/**
 * Every aborted transaction overlapping [fetchOffset, upperBoundOffset). Its marker is at or after
 * the fetch offset, so the search starts in the segment holding the fetch offset and goes forward
 * until an entry's last stable offset shows no later marker can matter. Listed once per
 * transaction, in marker order.
 */
export function collectAbortedTransactions(
  segments: readonly Segment[],
  fetchOffset: number,
  upperBoundOffset: number,
): AbortedTransaction[] {
  const found: AbortedTransaction[] = [];
  if (upperBoundOffset <= fetchOffset) return found;
  for (let index = floorSegmentIndex(segments, fetchOffset); index < segments.length; index++) {
    const segment = segments[index]!;
    if (!segment.txnIndex.isLoaded) {
      throw new Error(`the transaction index of the segment at ${segment.baseOffset} is not loaded`);
    }
    const search = segment.txnIndex.collect(fetchOffset, upperBoundOffset);
    found.push(...search.aborted);
    if (search.complete) break;
  }
  return found;
}

/**
 * One past the last offset of the last whole batch in `records` (the end of what a read returned),
 * or `fallback` when there is none.
 */
export function endOffsetOfBatches(records: Buffer, fallback: number): number {
  let end = fallback;
  let position = 0;
  while (records.length - position >= BatchLayout.lastOffsetDelta + 4) {
    const sizeBytes = BATCH_LOG_OVERHEAD_BYTES + records.readInt32BE(position + BatchLayout.batchLength);
    if (position + sizeBytes > records.length) break;
    const baseOffset = Number(records.readBigInt64BE(position + BatchLayout.baseOffset));
    end = baseOffset + records.readInt32BE(position + BatchLayout.lastOffsetDelta) + 1;
    position += sizeBytes;
  }
  return end;
}
