import { performance } from 'node:perf_hooks';
import { BENCH_TOPIC, createBenchManager, MAX_OPEN_FILES } from './manager';
import { openDescriptorCount, residentBytes } from './process-stats';
import { runWorker } from './run-worker';
import { encodeSmallBatch } from './workload';

/** Partitions created at once while setting up; the setup is not timed. */
const CREATE_CONCURRENCY = 16;
const CREATE_TIMEOUT_MS = 600_000;
const OPEN_TIMEOUT_MS = 180_000;

export interface CreatePartitionsInput {
  dataDirectory: string;
  partitionCount: number;
}

export interface CreatePartitionsOutput {
  createSeconds: number;
  shutdownSeconds: number;
}

/** Child side: creates the partitions, appends one small batch to each, and shuts down cleanly. */
export async function createPartitions(input: CreatePartitionsInput): Promise<CreatePartitionsOutput> {
  const manager = createBenchManager(input.dataDirectory);
  await manager.start();
  const startedMs = performance.now();
  let next = 0;
  const creator = async (): Promise<void> => {
    while (next < input.partitionCount) {
      const log = await manager.createLog(BENCH_TOPIC, next++);
      await log.append(encodeSmallBatch(), { origin: 'client' });
    }
  };
  await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, creator));
  const createdMs = performance.now();
  await manager.shutdown();
  return {
    createSeconds: (createdMs - startedMs) / 1000,
    shutdownSeconds: (performance.now() - createdMs) / 1000,
  };
}

export interface OpenPartitionsInput {
  dataDirectory: string;
}

export interface OpenPartitionsOutput {
  openMs: number;
  openedCount: number;
  offlineCount: number;
  cleanShutdown: boolean;
  residentBeforeBytes: number;
  residentAfterBytes: number;
  descriptorsBefore: number;
  descriptorsAfter: number;
  /** Segment files the manager's handle cache holds open (bounded by maxOpenFiles). */
  cachedFileCount: number;
}

/**
 * Child side: a fresh process, so its resident memory is the broker code plus what `start()`
 * keeps. Measured right after `start()` returns, without forcing a GC: what an operator would see.
 */
export async function openPartitions(input: OpenPartitionsInput): Promise<OpenPartitionsOutput> {
  const residentBeforeBytes = residentBytes();
  const descriptorsBefore = await openDescriptorCount();
  const startedMs = performance.now();
  const manager = createBenchManager(input.dataDirectory);
  const report = await manager.start();
  const openMs = performance.now() - startedMs;
  return {
    openMs,
    openedCount: report.openedCount,
    offlineCount: report.offline.length,
    cleanShutdown: report.cleanShutdown,
    residentBeforeBytes,
    residentAfterBytes: residentBytes(),
    descriptorsBefore,
    descriptorsAfter: await openDescriptorCount(),
    cachedFileCount: manager.openFileCount,
  };
}

export interface ManyPartitionsResults {
  setup: CreatePartitionsOutput;
  open: OpenPartitionsOutput;
  maxOpenFiles: number;
}

/** Parent side: set up in one child, measure the open in another, so nothing of the setup lingers. */
export async function measureManyPartitions(
  dataDirectory: string,
  partitionCount: number,
): Promise<ManyPartitionsResults> {
  const setup = await runWorker(
    'create-partitions',
    { dataDirectory, partitionCount },
    { timeoutMs: CREATE_TIMEOUT_MS, killAfterResult: false },
  );
  // Killed, not shut down: shutting 10,000 logs down is not measured and only costs fsyncs.
  const open = await runWorker(
    'open-partitions',
    { dataDirectory },
    { timeoutMs: OPEN_TIMEOUT_MS, killAfterResult: true },
  );
  return { setup, open, maxOpenFiles: MAX_OPEN_FILES };
}
