import { join } from 'node:path';
import type { ScanStop } from './batch-scan';
import { FileHandleCache } from './file-handle-cache';
import { type FlushedPoint, readFlushedPoint } from './flushed-point';
import { LOG_SUFFIX, parseOffsetFileName, parsePartitionDirectoryName } from './log-files';
import { Segment, type SegmentContext } from './segment';
import type { StorageIo } from './storage';

/** Where a partition's data stops being readable, and why. */
export interface LogDamage {
  kind: 'torn' | 'corrupt';
  /** The segment file and the byte in it where the first bad batch starts. */
  file: string;
  segmentBaseOffset: number;
  positionBytes: number;
  /** The first offset that cannot be read: the one after the last valid batch. */
  offset: number;
  reason: string;
}

/** What a check found in one segment. */
export interface SegmentCheck {
  baseOffset: number;
  file: string;
  sizeBytes: number;
  /** Valid batches (whole, CRC-32C correct, offsets increasing) before any damage. */
  validBatchCount: number;
  validRecordCount: number;
  /** The offsets of the valid batches, `firstOffset` to `nextOffset - 1`; equal when none. */
  firstOffset: number;
  nextOffset: number;
  damage: LogDamage | undefined;
  /** Batches and records whose headers still parse after the damage (what a cut loses, at least). */
  batchesAfterDamage: number;
  recordsAfterDamage: number;
  /** The highest last offset any header in the file names, valid or not (-1 when none). */
  highestOffset: number;
  /** Index files that fail their checks and would be rebuilt from the log. */
  damagedIndexes: string[];
}

/** What `weir log repair` would do (and does): cut the log at the first damage. */
export interface RepairPlan {
  /** Offsets from here on are cut; the log then ends here. */
  cutFromOffset: number;
  /** The highest offset a header past the cut names, if any parses. */
  cutToOffset: number | undefined;
  cutBatchCount: number;
  cutRecordCount: number;
  cutBytes: number;
  /** Later segments deleted whole. */
  deletedSegmentCount: number;
  /** Offsets below the flushed point that the cut (or the missing data) loses: acknowledged as durable. */
  acknowledgedLost: { fromOffset: number; toOffset: number } | undefined;
  /** The flushed point moves down to `cutFromOffset`. */
  lowersFlushedPoint: boolean;
}

export interface PartitionCheck {
  topic: string;
  partition: number;
  directory: string;
  segments: SegmentCheck[];
  /** The partition's flushed-point file, if it holds a valid point. */
  flushedPoint: FlushedPoint | undefined;
  /** Offsets below this were acknowledged as durable (the flushed point or the checkpoint). */
  durableOffset: number;
  /** Where the valid data ends: the first damage, or the end of the last segment. */
  validEndOffset: number;
  firstDamage: LogDamage | undefined;
  /** Undefined when nothing needs repairing. */
  repair: RepairPlan | undefined;
}

export interface CheckOptions {
  io: StorageIo;
  directory: string;
  topic: string;
  partition: number;
  /** The partition's entry in the recovery-point checkpoint, if any. */
  checkpointRecoveryPoint: number | undefined;
  indexIntervalBytes: number;
  maxIndexBytes: number;
}

/**
 * Checks a stopped partition's files (docs/architecture.md §4): every segment is read whole, each
 * batch's length, CRC-32C and offsets checked, as recovery would, and each index against its log.
 * Nothing is written. The first damage found is where a repair would cut: the log ends at the
 * last valid batch before it, and everything after (the rest of that segment and every later one)
 * is what would be lost.
 */
export async function checkPartitionLog(options: CheckOptions): Promise<PartitionCheck> {
  const { io, directory } = options;
  const handles = new FileHandleCache(io, 4);
  const context: SegmentContext = {
    io,
    handles,
    directory,
    indexIntervalBytes: options.indexIntervalBytes,
    maxIndexBytes: options.maxIndexBytes,
  };
  try {
    const baseOffsets = (await io.listDirectory(directory))
      .map((name) => parseOffsetFileName(name, LOG_SUFFIX))
      .filter((offset): offset is number => offset !== undefined)
      .sort((left, right) => left - right);
    const segments: SegmentCheck[] = [];
    // Each segment is checked on its own, from its base offset, exactly as recovery checks it.
    for (const baseOffset of baseOffsets) segments.push(await checkSegment(context, baseOffset));
    const flushed = await readFlushedPoint(io, directory);
    const flushedPoint = flushed.kind === 'found' ? flushed.point : undefined;
    const durableOffset = Math.max(options.checkpointRecoveryPoint ?? 0, flushedPoint?.offset ?? 0);
    const damagedIndex = segments.findIndex((segment) => segment.damage !== undefined);
    const firstDamage = damagedIndex < 0 ? undefined : segments[damagedIndex]!.damage;
    const validEndOffset = firstDamage?.offset ?? segments.at(-1)?.nextOffset ?? 0;
    return {
      topic: options.topic,
      partition: options.partition,
      directory,
      segments,
      flushedPoint,
      durableOffset,
      validEndOffset,
      firstDamage,
      repair: planRepair(segments, damagedIndex, validEndOffset, durableOffset),
    };
  } finally {
    await handles.closeAll();
  }
}

function planRepair(
  segments: readonly SegmentCheck[],
  damagedIndex: number,
  validEndOffset: number,
  durableOffset: number,
): RepairPlan | undefined {
  const acknowledgedLost =
    validEndOffset < durableOffset ? { fromOffset: validEndOffset, toOffset: durableOffset - 1 } : undefined;
  if (damagedIndex < 0) {
    // Whole batches all the way, but fewer than were acknowledged: the flushed point comes down.
    if (acknowledgedLost === undefined) return undefined;
    return {
      cutFromOffset: validEndOffset,
      cutToOffset: undefined,
      cutBatchCount: 0,
      cutRecordCount: 0,
      cutBytes: 0,
      deletedSegmentCount: 0,
      acknowledgedLost,
      lowersFlushedPoint: true,
    };
  }
  const damaged = segments[damagedIndex]!;
  const later = segments.slice(damagedIndex + 1);
  let highest = damaged.highestOffset;
  let batches = damaged.batchesAfterDamage;
  let records = damaged.recordsAfterDamage;
  let bytes = damaged.sizeBytes - damaged.damage!.positionBytes;
  for (const segment of later) {
    highest = Math.max(highest, segment.highestOffset);
    batches += segment.validBatchCount + segment.batchesAfterDamage;
    records += segment.validRecordCount + segment.recordsAfterDamage;
    bytes += segment.sizeBytes;
  }
  return {
    cutFromOffset: validEndOffset,
    cutToOffset: highest >= validEndOffset ? highest : undefined,
    cutBatchCount: batches,
    cutRecordCount: records,
    cutBytes: bytes,
    deletedSegmentCount: later.length,
    acknowledgedLost,
    lowersFlushedPoint: validEndOffset < durableOffset,
  };
}

async function checkSegment(context: SegmentContext, baseOffset: number): Promise<SegmentCheck> {
  const segment = await Segment.open(context, baseOffset);
  const checked: SegmentCheck = {
    baseOffset,
    file: segment.logPath,
    sizeBytes: segment.sizeBytes,
    validBatchCount: 0,
    validRecordCount: 0,
    firstOffset: baseOffset,
    nextOffset: baseOffset,
    damage: undefined,
    batchesAfterDamage: 0,
    recordsAfterDamage: 0,
    highestOffset: -1,
    damagedIndexes: [],
  };
  let lastOffset = baseOffset - 1;
  let validBytes = 0;
  let outOfOrder: ScanStop | undefined;
  const stop = await segment.scan(0, segment.sizeBytes, { withBody: true, verifyCrc: true }, (batch) => {
    if (batch.baseOffset <= lastOffset || batch.lastOffset < batch.baseOffset) {
      outOfOrder = {
        kind: 'corrupt',
        positionBytes: batch.positionBytes,
        reason: `offsets go backwards: batch ${batch.baseOffset}..${batch.lastOffset} after offset ${lastOffset}`,
      };
      return false;
    }
    if (checked.validBatchCount === 0) checked.firstOffset = batch.baseOffset;
    checked.validBatchCount++;
    checked.validRecordCount += batch.header.recordCount;
    checked.nextOffset = batch.lastOffset + 1;
    checked.highestOffset = batch.lastOffset;
    lastOffset = batch.lastOffset;
    validBytes = batch.positionBytes + batch.sizeBytes;
    return true;
  });
  const ended = outOfOrder ?? stop;
  if (ended.kind !== 'end') {
    checked.damage = {
      kind: ended.kind,
      file: segment.logPath,
      segmentBaseOffset: baseOffset,
      positionBytes: ended.positionBytes,
      offset: checked.nextOffset,
      reason: ended.reason,
    };
    // What follows the damage, as far as headers still parse: what a cut there loses, at least.
    await segment.scan(
      ended.positionBytes,
      segment.sizeBytes,
      { withBody: false, verifyCrc: false },
      (batch) => {
        checked.batchesAfterDamage++;
        checked.recordsAfterDamage += Math.max(0, batch.header.recordCount);
        checked.highestOffset = Math.max(checked.highestOffset, batch.lastOffset);
        return true;
      },
    );
  }
  if (!(await segment.offsetIndex.load(validBytes))) checked.damagedIndexes.push('index');
  if (!(await segment.timeIndex.load(validBytes))) checked.damagedIndexes.push('timeindex');
  if (!(await segment.txnIndex.load(checked.nextOffset))) checked.damagedIndexes.push('txnindex');
  return checked;
}

/** The partitions in a logs directory, by their directory names, sorted by topic then partition. */
export async function listPartitionDirectories(
  io: StorageIo,
  logsDirectory: string,
): Promise<{ topic: string; partition: number; directory: string }[]> {
  const found: { topic: string; partition: number; directory: string }[] = [];
  for (const name of await io.listDirectory(logsDirectory)) {
    const parsed = parsePartitionDirectoryName(name);
    if (parsed) found.push({ ...parsed, directory: join(logsDirectory, name) });
  }
  return found.sort((left, right) =>
    left.topic === right.topic ? left.partition - right.partition : left.topic < right.topic ? -1 : 1,
  );
}
