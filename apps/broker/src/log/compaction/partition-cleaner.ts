import { BATCH_HEADER_BYTES, readBatchHeader } from '@weir/protocol';
import { collectAbortedTransactions } from '../aborted-transactions';
import { scanBatches } from '../batch-scan';
import type { LogConfig } from '../log-config';
import type { ProducerStateManager } from '../producer-state';
import { floorSegmentIndex } from '../read-batches';
import type { Segment, SegmentContext } from '../segment';
import type { StorageFile } from '../storage';
import { abortedLookup, CleanPass, OffsetMapFill } from './clean-pass';
import { type CleanableRange, cleanableRange, type SegmentSummary } from './cleanable-range';
import { CLEAN_CHUNK_BYTES, writeCleanedSegment } from './cleaned-segment-writer';
import { cleaningDirectoryOf, discardCleaningDirectory, prepareCleaningDirectory } from './cleaning-files';
import type { KeyOffsetMap } from './key-offset-map';
import { groupSegmentsBySize } from './segment-groups';

/** What the cleaner needs of a partition log (PartitionLog provides it). */
export interface CleanableLog {
  readonly topic: string;
  readonly partition: number;
  readonly config: LogConfig;
  readonly context: SegmentContext;
  /** Every segment, oldest first; the last is the active one. */
  readonly segments: readonly Segment[];
  readonly logStartOffset: number;
  readonly logEndOffset: number;
  readonly firstUnstableOffset: number | undefined;
  /** Offsets below this are on disk. */
  readonly recoveryPoint: number;
  readonly producerState: ProducerStateManager;
  /** Counts truncations: a clean that saw one happen meanwhile is given up. */
  readonly truncationCount: number;
  /**
   * Puts the segment written in the cleaning directory in place of `replaced`, unless the log
   * changed under the clean (they are gone, or it was truncated since `truncationCount`); returns
   * whether it did.
   */
  replaceCleanedSegments(replaced: readonly Segment[], truncationCount: number): Promise<boolean>;
}

/** What the cleaner brings to a clean. */
export interface CleanResources {
  readonly map: KeyOffsetMap;
  nowMs(): number;
  /** After each chunk read: the I/O throttle; throws to give the clean up (shutdown). */
  afterChunk(bytes: number): Promise<void>;
  openForReading(path: string): Promise<StorageFile>;
  /** The cleaner's cache of closed segments' first batch times, which never change. */
  readonly firstTimestamps: WeakMap<Segment, number>;
}

/** The outcome of one attempt to clean a partition. */
export type CleanOutcome =
  | { readonly kind: 'not-due'; readonly range: CleanableRange }
  | { readonly kind: 'abandoned'; readonly range: CleanableRange; readonly reason: string }
  | ({ readonly kind: 'cleaned'; readonly range: CleanableRange } & CleanStats);

export interface CleanStats {
  /** The new checkpoint: the next clean's first dirty offset. */
  readonly cleanedUpToOffset: number;
  readonly readBytes: number;
  readonly writtenBytes: number;
  readonly keptRecords: number;
  readonly removedRecords: number;
  readonly segmentsBefore: number;
  readonly segmentsAfter: number;
}

/**
 * The closed segments as the cleaning rules judge them: offsets, sizes and record times. The
 * first record time is the first batch's (Kafka's max.compaction.lag.ms uses the same).
 */
async function summarizeClosedSegments(
  segments: readonly Segment[],
  resources: Pick<CleanResources, 'openForReading' | 'firstTimestamps'>,
): Promise<SegmentSummary[]> {
  const summaries: SegmentSummary[] = [];
  for (let index = 0; index < segments.length - 1; index++) {
    const segment = segments[index]!;
    summaries.push({
      baseOffset: segment.baseOffset,
      nextOffset: segments[index + 1]!.baseOffset,
      sizeBytes: segment.sizeBytes,
      firstTimestampMs: await firstBatchTimestampMs(segment, resources),
      largestTimestampMs: await segment.largestTimestampMs(),
    });
  }
  return summaries;
}

/**
 * What may be cleaned now. Beyond the rules of cleanable-range.ts, the clean stays below
 * `upperBoundOffset` (the high watermark: a follower may still truncate above it, and a clean
 * must never read what could vanish) and below the segment holding the recovery point (whose
 * files the flushed point describes by position).
 */
function rangeToClean(
  log: CleanableLog,
  segments: readonly Segment[],
  summaries: readonly SegmentSummary[],
  checkpointOffset: number | undefined,
  upperBoundOffset: number,
  nowMs: number,
): CleanableRange {
  const recoverySegment = segments[floorSegmentIndex(segments, log.recoveryPoint)]!;
  const firstUnstableOffset = Math.min(
    log.firstUnstableOffset ?? log.logEndOffset,
    upperBoundOffset,
    recoverySegment.baseOffset,
  );
  const checkpoint = checkpointOffset ?? log.logStartOffset;
  // A checkpoint past the log end belongs to a log that was truncated or restarted since.
  const cleanedUpToOffset =
    checkpoint > log.logEndOffset ? log.logStartOffset : Math.max(checkpoint, log.logStartOffset);
  return cleanableRange(
    {
      segments: summaries,
      activeBaseOffset: segments.at(-1)!.baseOffset,
      firstUnstableOffset,
      cleanedUpToOffset,
    },
    log.config,
    nowMs,
  );
}

/**
 * Cleans one partition when a clean is due (docs/architecture.md §4, compaction): builds the key
 * map from the dirty part, then rewrites every closed segment from the log start to where the map
 * reaches, group by group, each group swapped in as one segment. Appends and reads go on
 * meanwhile; only each swap holds reads back for a moment.
 */
export async function cleanPartition(
  log: CleanableLog,
  checkpointOffset: number | undefined,
  upperBoundOffset: number,
  resources: CleanResources,
  options: { force?: boolean } = {},
): Promise<CleanOutcome> {
  const truncationCount = log.truncationCount;
  const nowMs = resources.nowMs();
  // One copy of the segment list serves the whole clean: the log may roll (or delete from its
  // front) during any await, and the summaries, the range and the segments cleaned must all
  // describe the same list. A segment that rolled since counts as active, so it is left for the
  // next clean; one deleted since makes the swap give the clean up.
  const segments = log.segments.slice();
  const summaries = await summarizeClosedSegments(segments, resources);
  const range = rangeToClean(log, segments, summaries, checkpointOffset, upperBoundOffset, nowMs);
  const forced = options.force === true && range.dirtyBytes > 0;
  if (range.due === null && !forced) return { kind: 'not-due', range };

  const closed = segments.slice(0, -1);
  const map = resources.map;
  // A dirty segment holds at most one key per offset it spans: the map needs no more slots.
  let dirtyOffsets = 0;
  for (const [index, segment] of closed.entries()) {
    if (segment.baseOffset >= range.firstUncleanableOffset) break;
    const { nextOffset } = summaries[index]!;
    if (nextOffset > range.firstDirtyOffset) dirtyOffsets += nextOffset - segment.baseOffset;
  }
  await map.clear(dirtyOffsets);
  // One list serves both the map's fill (dirty batches) and the pass (everything below the end):
  // an entry only ever answers for its own producer's offsets.
  const aborted = collectAbortedTransactions(segments, log.logStartOffset, range.firstUncleanableOffset);
  const fill = new OffsetMapFill(map, abortedLookup(aborted));
  const full = await buildOffsetMap(closed, summaries, range, fill, resources);
  const endOffset = full ? map.latestOffset + 1 : range.firstUncleanableOffset;

  // Closed segments are a prefix of the summaries, in the same order.
  const toClean = closed.filter((segment) => segment.baseOffset < endOffset);
  const endOffsets = toClean.map((_, index) => summaries[index]!.nextOffset);
  const pass = new CleanPass(map, log.producerState, aborted);
  const deleteHorizonMs = nowMs - log.config.deleteRetentionMs;
  const cleaningContext: SegmentContext = {
    ...log.context,
    directory: cleaningDirectoryOf(log.context.directory),
  };
  const stats = { readBytes: 0, writtenBytes: 0, keptRecords: 0, removedRecords: 0 };
  const segmentsBefore = log.segments.length;
  try {
    for (const group of groupSegmentsBySize(toClean, endOffsets, log.config)) {
      await prepareCleaningDirectory(log.context.io, log.context.directory);
      const sources = group.map((segment) => {
        const summary = summaries[closed.indexOf(segment)]!;
        // Deletes are kept through the first clean that sees them and then delete.retention.ms
        // longer (Kafka's delete horizon), so a consumer reading from the start in that time sees them.
        const cleanedBefore = summary.nextOffset <= range.firstDirtyOffset;
        const retainDeletes = !(cleanedBefore && summary.largestTimestampMs < deleteHorizonMs);
        return { segment, retainDeletes };
      });
      const written = await writeCleanedSegment(cleaningContext, sources, pass.keptMarkerOffsets, {
        clean: (body, header, retain) => pass.clean(body, header, retain),
        afterChunk: (bytes) => resources.afterChunk(bytes),
        openForReading: (path) => resources.openForReading(path),
        nowMs: () => resources.nowMs(),
      });
      stats.readBytes += written.readBytes;
      stats.writtenBytes += written.writtenBytes;
      stats.keptRecords += written.keptRecords;
      stats.removedRecords += written.removedRecords;
      if (!(await log.replaceCleanedSegments(group, truncationCount))) {
        await discardCleaningDirectory(log.context.io, log.context.directory);
        return {
          kind: 'abandoned',
          range,
          reason: 'the log changed during the clean (truncated or segments deleted)',
        };
      }
    }
  } catch (error) {
    await discardCleaningDirectory(log.context.io, log.context.directory).catch(() => undefined);
    throw error;
  }
  return {
    kind: 'cleaned',
    range,
    cleanedUpToOffset: endOffset,
    ...stats,
    segmentsBefore,
    segmentsAfter: log.segments.length,
  };
}

/**
 * Fills the map with the keys of the dirty segments, in offset order; returns true when it filled
 * up before the end of the dirty range (the pass then reaches only as far as the map's latest offset).
 */
async function buildOffsetMap(
  closed: readonly Segment[],
  summaries: readonly SegmentSummary[],
  range: CleanableRange,
  fill: OffsetMapFill,
  resources: CleanResources,
): Promise<boolean> {
  for (const [index, segment] of closed.entries()) {
    if (segment.baseOffset >= range.firstUncleanableOffset) break;
    if (summaries[index]!.nextOffset <= range.firstDirtyOffset) continue;
    const file = await resources.openForReading(segment.logPath);
    try {
      let positionBytes = 0;
      let full = false;
      while (positionBytes < segment.sizeBytes && !full) {
        const chunkStart = positionBytes;
        const stop = await scanBatches(
          file,
          positionBytes,
          segment.sizeBytes,
          {
            withBody: true,
            verifyCrc: false,
            chunkBytes: CLEAN_CHUNK_BYTES,
          },
          (batch) => {
            if (batch.baseOffset >= range.firstUncleanableOffset) {
              positionBytes = segment.sizeBytes;
              return false;
            }
            positionBytes = batch.positionBytes + batch.sizeBytes;
            if (batch.lastOffset >= range.firstDirtyOffset && !fill.put(batch.body!, batch.header)) {
              full = true;
              return false;
            }
            return positionBytes - chunkStart < CLEAN_CHUNK_BYTES;
          },
        );
        if (stop.kind !== 'end')
          throw new Error(`${segment.logPath} is unreadable at byte ${stop.positionBytes}: ${stop.reason}`);
        if (positionBytes === chunkStart) break;
        await resources.afterChunk(positionBytes - chunkStart);
      }
      if (full) return true;
    } finally {
      await file.close();
    }
  }
  return false;
}

async function firstBatchTimestampMs(
  segment: Segment,
  resources: Pick<CleanResources, 'openForReading' | 'firstTimestamps'>,
): Promise<number> {
  const { firstTimestamps } = resources;
  const known = firstTimestamps.get(segment);
  if (known !== undefined) return known;
  let timestampMs = -1;
  if (segment.sizeBytes > 0) {
    const file = await resources.openForReading(segment.logPath);
    try {
      const bytes = Buffer.alloc(Math.min(segment.sizeBytes, BATCH_HEADER_BYTES));
      const read = await file.read(bytes, 0, bytes.length, 0);
      const header = readBatchHeader(bytes.subarray(0, read), 0);
      if (header.ok) timestampMs = header.value.maxTimestampMs;
    } finally {
      await file.close();
    }
  }
  firstTimestamps.set(segment, timestampMs);
  return timestampMs;
}
