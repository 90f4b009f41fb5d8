import type { LogConfig } from './log-config';
import type { Clock } from './partition-log-types';
import type { BatchToWrite, Segment } from './segment';

/** What writing with rolls needs from the partition log. */
export interface RollingWriter {
  /** The segment appends go to; `roll` replaces it. */
  active(): Segment;
  config: Pick<LogConfig, 'segmentBytes' | 'segmentMs'>;
  /** Notes that a segment holds data that is not yet fdatasync'd. */
  markDirty(segment: Segment): void;
  /** Closes the active segment for writing and starts a new one at `baseOffset`. */
  roll(baseOffset: number): Promise<void>;
}

/** Writes batches to the active segment, rolling first whenever the next batch would not fit. */
export async function writeWithRolls(
  batches: BatchToWrite[],
  nowMs: number,
  writer: RollingWriter,
): Promise<void> {
  let run: BatchToWrite[] = [];
  let runBytes = 0;
  for (const batch of batches) {
    if (shouldRollBefore(writer.active(), writer.config, runBytes, run.length, batch.bytes.length, nowMs)) {
      await writer.active().append(run, nowMs);
      writer.markDirty(writer.active());
      await writer.roll(batch.baseOffset);
      run = [];
      runBytes = 0;
    }
    run.push(batch);
    runBytes += batch.bytes.length;
  }
  if (run.length === 0) return;
  await writer.active().append(run, nowMs);
  writer.markDirty(writer.active());
}

/**
 * Whether the active segment must roll before the next batch of a write, given the run of batches
 * already bound for it (`runBytes`, `runCount`): the batch would take it past segment.bytes, its
 * offset index has no room left, or it is older than segment.ms. An empty segment with nothing bound
 * for it never rolls, so a batch larger than segment.bytes still gets written, into a segment of
 * its own.
 */
function shouldRollBefore(
  active: Segment,
  config: Pick<LogConfig, 'segmentBytes' | 'segmentMs'>,
  runBytes: number,
  runCount: number,
  nextBytes: number,
  nowMs: number,
): boolean {
  if (active.isEmpty && runCount === 0) return false;
  if (active.sizeBytes + runBytes + nextBytes > config.segmentBytes) return true;
  if (active.indexEntriesLeft <= runCount + 1) return true;
  const firstAppend = active.firstAppendWallClockMs;
  return firstAppend !== undefined && nowMs - firstAppend >= config.segmentMs;
}

/**
 * Whether the active segment has outlived segment.ms with no append to roll it, so the log
 * manager's timer rolls it instead. An empty segment never expires.
 */
export function isRollDue(active: Segment, segmentMs: number, clock: Clock): boolean {
  const firstAppend = active.firstAppendWallClockMs;
  if (active.isEmpty || firstAppend === undefined) return false;
  return clock.nowMs() - firstAppend >= segmentMs;
}
