import type { FileHandleCache } from './file-handle-cache';
import type { LogConfig } from './log-config';
import {
  DELETED_SUFFIX,
  LOG_SUFFIX,
  OFFSET_INDEX_SUFFIX,
  parseOffsetFileName,
  TEMPORARY_SUFFIX,
  TIME_INDEX_SUFFIX,
  TXN_INDEX_SUFFIX,
} from './log-files';
import { PartitionLog } from './partition-log';
import type { Clock, PartitionLogEvents } from './partition-log-types';
import { ProducerStateManager } from './producer-state';
import { rebuildProducerState } from './producer-state-rebuild';
import { floorSegmentIndex } from './read-batches';
import { Segment, type SegmentContext } from './segment';
import type { StorageIo } from './storage';

export interface OpenLogOptions {
  io: StorageIo;
  handles: FileHandleCache;
  directory: string;
  topic: string;
  partition: number;
  config: LogConfig;
  clock: Clock;
  events: PartitionLogEvents;
  /** Offsets below this were fdatasync'd before the last stop, per the checkpoint; 0 if unknown. */
  recoveryPoint: number;
  /** The log start offset from its checkpoint, if any. */
  logStartOffset: number | undefined;
  /** The broker stopped cleanly: checkpoints and indexes are current, so nothing is rescanned. */
  cleanShutdown: boolean;
}

/** What opening a log found, for logs and tests. */
export interface LoadReport {
  segmentCount: number;
  recoveredSegmentCount: number;
  truncatedBytes: number;
  replayedProducerBatches: number;
  /** Where the transaction indexes were rebuilt from the log, when they had to be. */
  transactionIndexRebuiltFrom: number | undefined;
}

/**
 * Flushed data (below the recovery point) is missing or corrupt. Truncating would silently lose
 * acknowledged records, so the partition stays offline instead and an operator decides.
 */
export class LogCorruptionError extends Error {
  override readonly name = 'LogCorruptionError';

  constructor(
    readonly directory: string,
    readonly offset: number,
    readonly positionBytes: number,
    reason: string,
  ) {
    super(`${directory}: flushed data is damaged at offset ${offset} (byte ${positionBytes}): ${reason}`);
  }
}

/**
 * Opens a partition log from its directory (docs/architecture.md §4, recovery):
 * 1. delete leftovers of interrupted work (`.deleted`, `.tmp`, indexes without a log file);
 * 2. after a clean shutdown, trust the files and only read the tail of the last segment;
 * 3. otherwise rescan every segment from the one holding the recovery point, checking lengths and
 *    CRCs, rebuilding indexes and cutting the log at the first torn or corrupt batch, unless that
 *    batch is below the recovery point, which takes the partition offline;
 * 4. load the transaction indexes; from the first rescanned segment, or the first whose index is
 *    missing or damaged, empty them and let step 5 refill them;
 * 5. rebuild the producer state from the newest snapshot and the batch headers after it.
 */
export async function openPartitionLog(
  options: OpenLogOptions,
): Promise<{ log: PartitionLog; report: LoadReport }> {
  const { io, directory, config } = options;
  const context: SegmentContext & { topic: string; partition: number } = {
    io,
    handles: options.handles,
    directory,
    indexIntervalBytes: config.indexIntervalBytes,
    maxIndexBytes: config.maxIndexBytes,
    topic: options.topic,
    partition: options.partition,
  };
  await io.makeDirectory(directory);
  const baseOffsets = await cleanDirectory(io, directory);

  const segments: Segment[] = [];
  for (const baseOffset of baseOffsets) segments.push(await Segment.open(context, baseOffset));
  if (segments.length === 0) segments.push(await Segment.create(context, options.logStartOffset ?? 0));

  const report: LoadReport = {
    segmentCount: segments.length,
    recoveredSegmentCount: 0,
    truncatedBytes: 0,
    replayedProducerBatches: 0,
    transactionIndexRebuiltFrom: undefined,
  };
  let recoveryPoint = options.recoveryPoint;
  let recoverFrom = options.cleanShutdown ? undefined : floorSegmentIndex(segments, recoveryPoint);
  if (recoverFrom === undefined) {
    const tail = await segments[segments.length - 1]!.loadTail();
    // A clean-shutdown marker with a damaged tail means the marker lied; fall back to recovery.
    if (tail.kind !== 'end') recoverFrom = segments.length - 1;
  }
  if (recoverFrom !== undefined) {
    await recoverSegments(options, segments, recoverFrom, recoveryPoint, report);
  }

  const active = segments[segments.length - 1]!;
  const logEndOffset = active.nextOffset;
  if (logEndOffset < recoveryPoint) {
    throw new LogCorruptionError(
      directory,
      logEndOffset,
      active.sizeBytes,
      `the log ends at ${logEndOffset}, below the recovery point ${recoveryPoint}`,
    );
  }
  recoveryPoint = logEndOffset;

  const firstOffset = segments[0]!.baseOffset;
  const logStartOffset = Math.min(Math.max(options.logStartOffset ?? firstOffset, firstOffset), logEndOffset);
  const producerState = new ProducerStateManager();
  const rebuildFrom = await loadTransactionIndexes(segments, recoverFrom);
  report.transactionIndexRebuiltFrom = rebuildFrom;
  report.replayedProducerBatches = await rebuildProducerState(
    context,
    segments,
    producerState,
    logEndOffset,
    rebuildFrom === undefined
      ? undefined
      : {
          fromOffset: rebuildFrom,
          onAborted: (entry) =>
            segments[floorSegmentIndex(segments, entry.lastOffset)]!.txnIndex.append(entry),
        },
  );
  if (rebuildFrom !== undefined) {
    for (const segment of segments.slice(floorSegmentIndex(segments, rebuildFrom))) {
      await segment.txnIndex.writePending();
      await segment.txnIndex.sync();
    }
  }

  const log = new PartitionLog(context, config, options.clock, producerState, options.events, {
    segments,
    logStartOffset,
    recoveryPoint,
  });
  return { log, report };
}

/**
 * Removes what an interrupted operation left behind and returns the base offsets of the segments,
 * ascending.
 */
async function cleanDirectory(io: StorageIo, directory: string): Promise<number[]> {
  const names = await io.listDirectory(directory);
  const logOffsets = new Set<number>();
  for (const name of names) {
    const offset = parseOffsetFileName(name, LOG_SUFFIX);
    if (offset !== undefined) logOffsets.add(offset);
  }
  for (const name of names) {
    const leftover = name.endsWith(DELETED_SUFFIX) || name.endsWith(TEMPORARY_SUFFIX);
    const indexOffset =
      parseOffsetFileName(name, OFFSET_INDEX_SUFFIX) ??
      parseOffsetFileName(name, TIME_INDEX_SUFFIX) ??
      parseOffsetFileName(name, TXN_INDEX_SUFFIX);
    const orphanIndex = indexOffset !== undefined && !logOffsets.has(indexOffset);
    if (leftover || orphanIndex) await io.unlink(`${directory}/${name}`);
  }
  return [...logOffsets].sort((left, right) => left - right);
}

/**
 * Loads every segment's `.txnindex` and returns the offset to rebuild them from, if any: the first
 * segment recovery rescanned (markers past the recovery point may not have reached its index
 * before the crash) or the first segment whose index is missing, torn or inconsistent, whichever
 * is earlier. Every index from there on is emptied (file included) for the replay to refill.
 */
async function loadTransactionIndexes(
  segments: readonly Segment[],
  recoveredFrom: number | undefined,
): Promise<number | undefined> {
  let rebuildIndex = recoveredFrom;
  const loadable = rebuildIndex ?? segments.length;
  for (let index = 0; index < loadable; index++) {
    const segment = segments[index]!;
    const endOffset = segments[index + 1]?.baseOffset ?? segment.nextOffset;
    if (!(await segment.txnIndex.load(endOffset))) {
      rebuildIndex = index;
      break;
    }
  }
  if (rebuildIndex === undefined) return undefined;
  for (const segment of segments.slice(rebuildIndex)) {
    segment.txnIndex.reset();
    await segment.txnIndex.truncateTo(segment.baseOffset);
  }
  return segments[rebuildIndex]!.baseOffset;
}

async function recoverSegments(
  options: OpenLogOptions,
  segments: Segment[],
  fromIndex: number,
  recoveryPoint: number,
  report: LoadReport,
): Promise<void> {
  for (let index = fromIndex; index < segments.length; index++) {
    const segment = segments[index]!;
    const recovery = await segment.recover();
    report.recoveredSegmentCount++;
    report.truncatedBytes += recovery.truncatedBytes;
    if (recovery.stop.kind === 'end') {
      await segment.discardInvalidTail(recovery);
      if (index < segments.length - 1) await segment.finishActive();
      continue;
    }
    if (recovery.nextOffset < recoveryPoint) {
      throw new LogCorruptionError(
        options.directory,
        recovery.nextOffset,
        recovery.stop.positionBytes,
        recovery.stop.reason,
      );
    }
    await segment.discardInvalidTail(recovery);
    options.events.warn('truncated a torn or corrupt log tail at open', {
      topic: options.topic,
      partition: options.partition,
      offset: recovery.nextOffset,
      positionBytes: recovery.stop.positionBytes,
      segmentBaseOffset: segment.baseOffset,
      reason: recovery.stop.reason,
      truncatedBytes: recovery.truncatedBytes,
    });
    // Everything after the first bad batch is unreachable: later segments go too.
    for (const later of segments.splice(index + 1)) {
      report.truncatedBytes += later.sizeBytes;
      await later.delete();
    }
  }
  // Recovered data may still be only in the page cache; make it durable before trusting it.
  for (const segment of segments.slice(fromIndex)) await segment.flush();
}
