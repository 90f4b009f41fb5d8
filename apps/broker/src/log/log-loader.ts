import { basename, dirname } from 'node:path';
import { recoverInterruptedClean } from './compaction/cleaning-files';
import type { FileHandleCache } from './file-handle-cache';
import { FlushedPointFile, readFlushedPoint } from './flushed-point';
import { type EpochCacheLoad, openLeaderEpochCache } from './leader-epoch-loader';
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
import { Segment, type SegmentContext, type SegmentRecovery } from './segment';
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
  /**
   * Offsets below this were fdatasync'd before the last stop, per the data directory's checkpoint
   * (written every few seconds); 0 if unknown. Recovery rescans from its segment.
   */
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
  /** Whether the leader-epoch checkpoint was read, or rebuilt from the batches (and why). */
  leaderEpochs: EpochCacheLoad | undefined;
}

/**
 * Data that was acknowledged as durable (below the flushed point) is damaged or missing. Cutting it
 * as a torn tail would lose acknowledged records silently, so the partition stays offline, its
 * files untouched, and the message says what is damaged and how to repair it (`weir log check`,
 * `weir log repair`, run with the broker stopped).
 */
export class LogCorruptionError extends Error {
  override readonly name = 'LogCorruptionError';

  constructor(
    readonly directory: string,
    /** The first offset that cannot be read: the damaged batch's, or the log end. */
    readonly offset: number,
    readonly positionBytes: number,
    /** The segment file the damage is in. */
    readonly file: string,
    /** Offsets below this were acknowledged as durable. */
    readonly durableOffset: number,
    reason: string,
  ) {
    const { topic, partition, dataDir } = describeDirectory(directory);
    const command = `${topic} ${partition} --data-dir ${dataDir}`;
    super(
      `${topic}-${partition}: flushed data is damaged at offset ${offset} (byte ${positionBytes} of ${file}): ` +
        `${reason}; offsets ${offset}..${durableOffset - 1} were acknowledged as durable, so nothing was cut ` +
        'and the partition is offline. With the broker stopped, ' +
        `\`weir log check ${command}\` shows what a repair would cut and \`weir log repair ${command}\` cuts it.`,
    );
  }
}

/** The topic, partition and broker data directory of a partition directory `<dataDir>/logs/<t>-<p>`. */
function describeDirectory(directory: string): { topic: string; partition: string; dataDir: string } {
  const name = basename(directory);
  const dash = name.lastIndexOf('-');
  return {
    topic: dash > 0 ? name.slice(0, dash) : name,
    partition: dash > 0 ? name.slice(dash + 1) : '?',
    dataDir: dirname(dirname(directory)),
  };
}

/**
 * Opens a partition log from its directory (docs/architecture.md §4, recovery):
 * 1. delete leftovers of interrupted work (`.deleted`, `.tmp`, indexes without a log file);
 * 2. after a clean shutdown, trust the files and only read the tail of the last segment;
 * 3. otherwise rescan every segment from the one holding the recovery point, checking lengths and
 *    CRCs, rebuilding indexes and cutting the log at the first torn or corrupt batch, unless that
 *    batch is below the flushed point (the partition's `flushed-point` file, recorded after every
 *    fdatasync round, or the checkpoint if higher), which takes the partition offline;
 * 4. load the transaction indexes; from the first rescanned segment, or the first whose index is
 *    missing or damaged, empty them and let step 5 refill them;
 * 5. rebuild the producer state from the newest snapshot and the batch headers after it;
 * 6. open the leader-epoch cache, cut to the log, or rebuilt from the batches (leader-epoch-loader.ts).
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
  const interruptedClean = await recoverInterruptedClean(io, directory);
  if (interruptedClean !== 'none') {
    options.events.info(`an interrupted clean was ${interruptedClean}`, {
      topic: options.topic,
      partition: options.partition,
    });
  }
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
    leaderEpochs: undefined,
  };
  const flushed = await readFlushedPoint(io, directory);
  if (flushed.kind === 'damaged') {
    options.events.warn('the flushed-point file is unreadable; trusting the recovery-point checkpoint', {
      topic: options.topic,
      partition: options.partition,
    });
  }
  // Every offset below this was acknowledged as durable: no damage below it may be cut silently.
  const bounds: DurableBounds = {
    confirmedOffset: Math.max(options.recoveryPoint, flushed.kind === 'found' ? flushed.confirmedOffset : 0),
    durableOffset: Math.max(options.recoveryPoint, flushed.kind === 'found' ? flushed.point.offset : 0),
  };
  const { durableOffset } = bounds;
  const flushedPointFile = new FlushedPointFile(
    options.handles,
    io,
    directory,
    flushed.kind === 'found' ? flushed : undefined,
    flushed.kind === 'found',
  );
  let recoverFrom = options.cleanShutdown ? undefined : floorSegmentIndex(segments, options.recoveryPoint);
  if (recoverFrom === undefined) {
    const tail = await segments[segments.length - 1]!.loadTail();
    // A clean-shutdown marker with a damaged tail means the marker lied; fall back to recovery.
    if (tail.kind !== 'end') recoverFrom = segments.length - 1;
  }
  if (recoverFrom !== undefined) {
    await recoverSegments(options, segments, recoverFrom, bounds, report);
  }

  const active = segments[segments.length - 1]!;
  const logEndOffset = active.nextOffset;
  // A log shorter than the point but not than its confirmed part lost only a round whose fdatasync
  // never finished, so nothing of it was acknowledged.
  if (logEndOffset < bounds.confirmedOffset) {
    throw new LogCorruptionError(
      directory,
      logEndOffset,
      active.sizeBytes,
      active.logPath,
      durableOffset,
      `the log ends there, below the flushed point ${durableOffset}`,
    );
  }
  const recorded = flushed.kind === 'found' ? flushed : undefined;
  if (
    recoverFrom !== undefined &&
    (recorded?.point.offset !== logEndOffset || recorded.confirmedOffset !== logEndOffset)
  ) {
    // Recovery made everything that survived durable; record it, so a later crash protects it too.
    await flushedPointFile.write({
      point: { offset: logEndOffset, segmentBaseOffset: active.baseOffset, positionBytes: active.sizeBytes },
      confirmedOffset: logEndOffset,
    });
  }
  const recoveryPoint = logEndOffset;

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

  const epochs = await openLeaderEpochCache(context, segments, logStartOffset, logEndOffset, options.events);
  report.leaderEpochs = epochs.load;

  const log = new PartitionLog(context, config, options.clock, producerState, options.events, {
    segments,
    logStartOffset,
    recoveryPoint,
    flushedPointFile,
    leaderEpochs: epochs.cache,
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

/** What the flushed point says was acknowledged: see {@link RecordedFlushedPoint}. */
interface DurableBounds {
  /** Below this, data was on disk before the last point was written: never cut. */
  confirmedOffset: number;
  /** Below this, data was acknowledged as durable if the last round's fdatasync finished. */
  durableOffset: number;
}

/**
 * Whether damage between the confirmed offset and the flushed point is the torn tail of a last
 * round whose fdatasync never finished (the machine lost power while it ran, so nothing of it was
 * acknowledged), and may be cut. Such a tail reads as a file that ends inside a batch or as zeros
 * (file systems expose unwritten blocks as zeros); anything else, such as a batch whose bytes are
 * there but fail their CRC, is damage of written data, and the partition stays offline.
 */
async function isTornLastRound(
  segment: Segment,
  recovery: SegmentRecovery,
  bounds: DurableBounds,
): Promise<boolean> {
  if (recovery.nextOffset < bounds.confirmedOffset || recovery.stop.kind === 'end') return false;
  if (recovery.stop.kind === 'torn') return true;
  const endBytes = recovery.validBytes + recovery.truncatedBytes;
  const chunkBytes = 64 * 1024;
  for (let position = recovery.stop.positionBytes; position < endBytes; position += chunkBytes) {
    const bytes = await segment.readBytes(position, Math.min(chunkBytes, endBytes - position));
    if (bytes.some((byte) => byte !== 0)) return false;
  }
  return true;
}

async function recoverSegments(
  options: OpenLogOptions,
  segments: Segment[],
  fromIndex: number,
  bounds: DurableBounds,
  report: LoadReport,
): Promise<void> {
  const { durableOffset } = bounds;
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
    if (recovery.nextOffset < durableOffset && !(await isTornLastRound(segment, recovery, bounds))) {
      throw new LogCorruptionError(
        options.directory,
        recovery.nextOffset,
        recovery.stop.positionBytes,
        segment.logPath,
        durableOffset,
        recovery.stop.reason,
      );
    }
    await segment.discardInvalidTail(recovery);
    // Everything after the first bad batch is unreachable: later segments go too.
    const later = segments.splice(index + 1);
    let laterBytes = 0;
    for (const doomed of later) {
      laterBytes += doomed.sizeBytes;
      await doomed.delete();
    }
    report.truncatedBytes += laterBytes;
    // Above the flushed point nothing was acknowledged as durable: a torn tail of a crash.
    options.events.warn(
      'truncated a torn or corrupt log tail at open: nothing in it was acknowledged as durable',
      {
        topic: options.topic,
        partition: options.partition,
        offset: recovery.nextOffset,
        flushedOffset: durableOffset,
        positionBytes: recovery.stop.positionBytes,
        segmentBaseOffset: segment.baseOffset,
        reason: recovery.stop.reason,
        truncatedBytes: recovery.truncatedBytes + laterBytes,
        deletedSegmentCount: later.length,
      },
    );
  }
  // Recovered data may still be only in the page cache; make it durable before trusting it.
  for (const segment of segments.slice(fromIndex)) await segment.flush();
}
