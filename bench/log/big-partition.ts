import { performance } from 'node:perf_hooks';
import type { LogManager } from '@weir/broker/log/log-manager';
import { BENCH_TOPIC, createBenchManager } from './manager';
import { runWorker } from './run-worker';
import { type ReadMeasurement, readToEnd } from './sequential-read';
import { batchCopies, encodeBenchBatch } from './workload';

/** Enough appends in flight that the writer runs at disk speed (groups of ~1 MiB). */
const WRITER_APPENDER_COUNT = 64;
const WRITE_TIMEOUT_MS = 300_000;
const OPEN_TIMEOUT_MS = 180_000;

export interface WritePartitionInput {
  dataDirectory: string;
  sizeBytes: number;
}

export interface WritePartitionOutput {
  bytes: number;
  segmentCount: number;
  seconds: number;
}

/**
 * Child side: fills partition 0 with `sizeBytes` of 16 KiB batches (flush.ms=100) and waits until
 * it is all flushed. It never shuts down: the parent SIGKILLs it, which is the crash. The data is
 * fdatasync'd but the recovery-point checkpoint is not, because the manager writes that every
 * 60 s and this run is shorter, just as after any crash within a minute of the last checkpoint.
 */
export async function writePartition(input: WritePartitionInput): Promise<WritePartitionOutput> {
  const manager = createBenchManager(input.dataDirectory);
  await manager.start();
  const log = await manager.createLog(BENCH_TOPIC, 0);
  const buffers = batchCopies(encodeBenchBatch(), WRITER_APPENDER_COUNT);
  let claimedBytes = 0;
  const startedMs = performance.now();
  await Promise.all(
    buffers.map(async (buffer) => {
      while (claimedBytes + buffer.length <= input.sizeBytes) {
        claimedBytes += buffer.length;
        await log.append(buffer, { origin: 'client' });
      }
    }),
  );
  await log.flush();
  const seconds = (performance.now() - startedMs) / 1000;
  return { bytes: log.sizeBytes, segmentCount: log.segments.length, seconds };
}

export interface OpenPartitionInput {
  dataDirectory: string;
  /** Read the partition from start to end after opening, with this fetch size. */
  readMaxBytes?: number;
  /** Shut down cleanly afterwards; otherwise the parent kills this process (a crash). */
  shutdown: boolean;
}

export interface OpenPartitionOutput {
  openMs: number;
  /** The manager found the clean-shutdown marker and trusted the files. */
  cleanShutdown: boolean;
  segmentCount: number;
  rescannedSegmentCount: number;
  rescannedBytes: number;
  read: ReadMeasurement | undefined;
}

/** Child side: times a fresh `start()` of the data directory, then optionally reads it all. */
export async function openPartition(input: OpenPartitionInput): Promise<OpenPartitionOutput> {
  const startedMs = performance.now();
  const manager: LogManager = createBenchManager(input.dataDirectory);
  const report = await manager.start();
  const openMs = performance.now() - startedMs;
  const log = manager.getLog(BENCH_TOPIC, 0);
  const load = [...report.reports.values()][0];
  if (!log || !load) throw new Error(`partition did not open: ${JSON.stringify(report.offline)}`);
  // Recovery runs from the segment holding the recovery point to the last one.
  const rescanned = log.segments.slice(log.segments.length - load.recoveredSegmentCount);
  const read = input.readMaxBytes === undefined ? undefined : await readToEnd(log, input.readMaxBytes);
  if (input.shutdown) await manager.shutdown();
  return {
    openMs,
    cleanShutdown: report.cleanShutdown,
    segmentCount: load.segmentCount,
    rescannedSegmentCount: load.recoveredSegmentCount,
    rescannedBytes: rescanned.reduce((total, segment) => total + segment.sizeBytes, 0),
    read,
  };
}

export interface BigPartitionResults {
  written: WritePartitionOutput;
  /** First open after the writer was killed: no recovery-point checkpoint, everything rescanned. */
  crashWithoutCheckpoint: OpenPartitionOutput;
  /** Open after the recovery shut down cleanly; it also reads the whole partition. */
  clean: OpenPartitionOutput;
  /** Open after the clean opener was killed: the checkpoint is current, the last segment rescanned. */
  crashWithFreshCheckpoint: OpenPartitionOutput;
}

/**
 * Parent side: every open runs in a fresh process so it pays what a restarting broker pays
 * (cold JIT), with the data in the page cache (it was just written; nothing here drops caches).
 */
export async function measureBigPartition(
  dataDirectory: string,
  sizeBytes: number,
  readMaxBytes: number,
): Promise<BigPartitionResults> {
  const written = await runWorker(
    'write-partition',
    { dataDirectory, sizeBytes },
    { timeoutMs: WRITE_TIMEOUT_MS, killAfterResult: true },
  );
  const crashWithoutCheckpoint = await runWorker(
    'open-partition',
    { dataDirectory, shutdown: true },
    { timeoutMs: OPEN_TIMEOUT_MS, killAfterResult: false },
  );
  const clean = await runWorker(
    'open-partition',
    { dataDirectory, readMaxBytes, shutdown: false },
    { timeoutMs: OPEN_TIMEOUT_MS, killAfterResult: true },
  );
  const crashWithFreshCheckpoint = await runWorker(
    'open-partition',
    { dataDirectory, shutdown: true },
    { timeoutMs: OPEN_TIMEOUT_MS, killAfterResult: false },
  );
  return { written, crashWithoutCheckpoint, clean, crashWithFreshCheckpoint };
}
