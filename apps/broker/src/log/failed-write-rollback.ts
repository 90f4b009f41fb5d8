import type { DurabilityTracker } from './durability-tracker';
import type { ProducerStateManager } from './producer-state';
import { rebuildProducerState } from './producer-state-rebuild';
import type { Segment, SegmentContext } from './segment';

/** The parts of a partition log that a write changes and a roll-back puts back. */
export interface RollbackTarget {
  context: SegmentContext;
  /** The log's segments, oldest first; segments the write rolled to are removed from it. */
  segments: Segment[];
  durability: Pick<DurabilityTracker, 'forget' | 'truncateTo'>;
  producerState: ProducerStateManager;
}

/**
 * Puts a log back as it was before a write that failed for want of space (docs/architecture.md
 * §4): segments the write rolled to are deleted, the segment it started in is cut back to
 * `endBefore` (a batch written only in part included), and the producer state, which had recorded
 * the write's batches, is rebuilt from the log, so a producer's retry of them is neither refused
 * nor stored twice. None of this needs new space. A failure is thrown to the caller, for whom the
 * log's state is then unknown.
 */
export async function rollBackFailedWrite(
  target: RollbackTarget,
  endBefore: number,
  segmentCountBefore: number,
): Promise<void> {
  const { segments, durability } = target;
  while (segments.length > segmentCountBefore) {
    const removed = segments.pop()!;
    durability.forget(removed);
    await removed.delete();
  }
  await segments[segments.length - 1]!.rollBackTo(endBefore);
  durability.truncateTo(endBefore);
  await rebuildProducerState(target.context, segments, target.producerState, endBefore);
}
