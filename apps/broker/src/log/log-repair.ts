import { dirname, join } from 'node:path';
import { FileHandleCache } from './file-handle-cache';
import { FlushedPointFile, readFlushedPoint } from './flushed-point';
import type { PartitionCheck } from './log-check';
import type { LogConfig } from './log-config';
import { openPartitionLog } from './log-loader';
import {
  checkpointKey,
  LOG_START_OFFSET_FILE,
  RECOVERY_POINT_FILE,
  readOffsetCheckpoint,
  writeOffsetCheckpoint,
} from './offset-checkpoint';
import type { StorageIo } from './storage';

export interface RepairResult {
  /** The log end after the repair: every offset below it survived. */
  logEndOffset: number;
  truncatedBytes: number;
  /** The warnings the loader gave while cutting (the torn-tail line, with its counts). */
  warnings: { message: string; fields?: Record<string, unknown> }[];
}

/**
 * Repairs a stopped partition that {@link checkPartitionLog} found damaged (docs/architecture.md §4):
 * 1. the flushed point comes down to the first damage, recorded in the partition's flushed-point
 *    file first, so that if the repair is interrupted the next start (or repair) cuts there too;
 * 2. the log is opened as recovery after a crash would open it, from the damaged segment: the
 *    damaged tail and every later segment are cut, the indexes, transaction indexes and producer
 *    state are rebuilt, and the log is closed cleanly (indexes, producer snapshot, fdatasync);
 * 3. the partition's entries in the recovery-point and log-start checkpoints are set to what
 *    survives, so the next start accepts the partition.
 */
export async function repairPartitionLog(options: {
  io: StorageIo;
  check: PartitionCheck;
  config: LogConfig;
}): Promise<RepairResult> {
  const { io, check, config } = options;
  const plan = check.repair;
  if (plan === undefined) throw new Error(`${check.topic}-${check.partition} needs no repair`);
  const { directory } = check;
  const logsDirectory = dirname(directory);
  const key = checkpointKey(check.topic, check.partition);
  const cutSegment =
    check.segments.find((segment) => segment.baseOffset === check.firstDamage?.segmentBaseOffset) ??
    check.segments.at(-1);
  const handles = new FileHandleCache(io, 16);
  try {
    const flushed = await readFlushedPoint(io, directory);
    const pointFile = new FlushedPointFile(
      handles,
      io,
      directory,
      flushed.kind === 'found' ? flushed : undefined,
      flushed.kind === 'found',
    );
    await pointFile.write({
      point: {
        offset: plan.cutFromOffset,
        segmentBaseOffset: cutSegment?.baseOffset ?? plan.cutFromOffset,
        positionBytes: check.firstDamage?.positionBytes ?? cutSegment?.sizeBytes ?? 0,
      },
      confirmedOffset: plan.cutFromOffset,
    });
    await pointFile.close();

    const logStarts =
      (await readOffsetCheckpoint(io, join(logsDirectory, LOG_START_OFFSET_FILE))) ?? new Map();
    const warnings: RepairResult['warnings'] = [];
    const { log, report } = await openPartitionLog({
      io,
      handles,
      directory,
      topic: check.topic,
      partition: check.partition,
      config,
      clock: { nowMs: () => Date.now() },
      events: {
        onOffline: () => {},
        // A repair that runs out of space fails its write, which is reported with the repair.
        onOutOfSpace: (error) =>
          warnings.push({ message: 'out of disk space', fields: { error: error.message } }),
        onLogStartOffsetChanged: () => {},
        // What the log says while it opens is for a running broker's log; the repair reports its cut.
        info: () => {},
        warn: (message, fields) => warnings.push({ message, fields }),
        scheduleDelete: () => {},
      },
      // Rescanned from the damaged segment; the flushed point just written is what may be cut to.
      recoveryPoint: cutSegment?.baseOffset ?? 0,
      logStartOffset: logStarts.get(key),
      cleanShutdown: false,
    });
    await log.close();
    await updateCheckpoint(io, join(logsDirectory, RECOVERY_POINT_FILE), key, log.logEndOffset);
    await updateCheckpoint(io, join(logsDirectory, LOG_START_OFFSET_FILE), key, log.logStartOffset);
    return { logEndOffset: log.logEndOffset, truncatedBytes: report.truncatedBytes, warnings };
  } finally {
    await handles.closeAll();
  }
}

/** Sets one partition's entry in a checkpoint file; an unreadable file is replaced. */
async function updateCheckpoint(io: StorageIo, path: string, key: string, offset: number): Promise<void> {
  const checkpoint = (await readOffsetCheckpoint(io, path)) ?? new Map();
  checkpoint.set(key, offset);
  await writeOffsetCheckpoint(io, path, checkpoint);
}
