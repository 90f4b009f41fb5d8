import { isControlBatch, isTransactionalBatch } from '@weir/protocol';
import { readControlType } from './control-batch';
import { loadLatestSnapshot } from './producer-snapshot';
import { lastSequenceOf, type ProducerStateManager } from './producer-state';
import { floorSegmentIndex } from './read-batches';
import type { Segment, SegmentContext } from './segment';
import type { AbortedTransaction } from './transaction-index';

/** How a replay also rebuilds the transaction indexes (at open, when they cannot be trusted). */
export interface TransactionIndexRebuild {
  /** Replay from a snapshot at or below this offset; aborts with markers from here on are reported. */
  readonly fromOffset: number;
  readonly onAborted: (transaction: AbortedTransaction) => void;
}

/**
 * Rebuilds a partition's producer state after open or truncation: load the newest snapshot at or
 * below the log end, then replay the batch headers written after it (only control batches are read
 * whole, to learn the marker type). Without a usable snapshot the replay starts at the log start.
 * With `rebuild`, the replay starts at or below its offset and reports every transaction aborted
 * from there on, with the last stable offset right after its marker, as the append path does.
 * Returns how many batches were replayed.
 */
export async function rebuildProducerState(
  context: SegmentContext,
  segments: readonly Segment[],
  state: ProducerStateManager,
  logEndOffset: number,
  rebuild?: TransactionIndexRebuild,
): Promise<number> {
  const loaded = await loadLatestSnapshot(
    context.io,
    context.directory,
    logEndOffset,
    state,
    rebuild?.fromOffset ?? logEndOffset,
  );
  // A snapshot at the log end (written at a clean shutdown) is the whole state: nothing to replay.
  if (loaded.loadedOffset !== undefined && loaded.loadedOffset >= logEndOffset) return 0;
  const firstOffset = segments[0]!.baseOffset;
  let from = loaded.loadedOffset;
  if (from === undefined || from < firstOffset) {
    state.clear(firstOffset);
    from = firstOffset;
  }
  let replayed = 0;
  for (let index = floorSegmentIndex(segments, from); index < segments.length; index++) {
    const segment = segments[index]!;
    const location = await segment.locate(from);
    if (!location) continue;
    const controlPositions: { position: number; size: number }[] = [];
    const batches: Parameters<ProducerStateManager['recordBatch']>[0][] = [];
    await segment.scan(
      location.positionBytes,
      segment.sizeBytes,
      { withBody: false, verifyCrc: false },
      (batch) => {
        const { header } = batch;
        if (batch.baseOffset < from! || header.producerId < 0n) return true;
        const control = isControlBatch(header.attributes);
        if (control) controlPositions.push({ position: batch.positionBytes, size: batch.sizeBytes });
        batches.push({
          producerId: Number(header.producerId),
          producerEpoch: header.producerEpoch,
          firstSequence: header.baseSequence,
          lastSequence: control ? -1 : lastSequenceOf(header.baseSequence, header.lastOffsetDelta),
          firstOffset: batch.baseOffset,
          lastOffset: batch.lastOffset,
          timestampMs: header.maxTimestampMs,
          isTransactional: isTransactionalBatch(header.attributes),
          control: control ? { type: 'abort', coordinatorEpoch: -1 } : undefined,
        });
        return true;
      },
    );
    let controlIndex = 0;
    for (const headerOnly of batches) {
      let batch = headerOnly;
      if (headerOnly.control) {
        const { position, size } = controlPositions[controlIndex++]!;
        const marker = readControlType(await segment.readBytes(position, size));
        if (!marker) continue;
        batch = { ...headerOnly, control: marker };
      }
      try {
        const completed = state.recordBatch(batch);
        replayed++;
        if (rebuild !== undefined && completed?.aborted && completed.lastOffset >= rebuild.fromOffset) {
          const { producerId, firstOffset, lastOffset } = completed;
          const lastStableOffset = state.firstUnstableOffset() ?? lastOffset + 1;
          rebuild.onAborted({ producerId, firstOffset, lastOffset, lastStableOffset });
        }
      } catch {
        // A batch the state cannot follow (say, an epoch going backwards) was accepted under rules
        // this log no longer has; skipping it loses only dedup history for that producer.
      }
    }
  }
  if (logEndOffset > state.mapEndOffset) state.advanceMapEndOffset(logEndOffset);
  return replayed;
}
