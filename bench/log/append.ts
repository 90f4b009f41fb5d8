import { rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type { PartitionLog } from '@weir/broker/log/partition-log';
import type { Budget } from './budget';
import { LatencyRecorder } from './latency';
import { BENCH_TOPIC, createBenchManager } from './manager';
import { prefaultPageCache } from './page-cache';
import { batchCopies } from './workload';

export interface AppendScenario {
  partitionCount: number;
  /** Durable appends resolve only once an fdatasync covers them (acks=all on one node). */
  durable: boolean;
  /** Appenders in flight at once, spread round-robin over the partitions. */
  appenderCount: number;
}

export interface AppendMeasurement {
  bytesPerSecond: number;
  batchesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  bytes: number;
}

interface Progress {
  bytes: number;
  batches: number;
}

/**
 * Appends the same batch from `appenderCount` concurrent appenders into fresh partitions of a new
 * log manager (flush.ms=100, 1 GiB segments) until the budget runs out, then waits until every
 * partition is flushed, so the timed bytes are on disk as the floor's are. Latency is per append,
 * from the call to its resolution. The data directory is deleted afterwards.
 */
export async function measureAppends(
  dataDirectory: string,
  batch: Buffer,
  scenario: AppendScenario,
  budget: Budget,
): Promise<AppendMeasurement> {
  const manager = createBenchManager(dataDirectory);
  await manager.start();
  try {
    const logs: PartitionLog[] = [];
    for (let partition = 0; partition < scenario.partitionCount; partition++) {
      logs.push(await manager.createLog(BENCH_TOPIC, partition));
    }
    const buffers = batchCopies(batch, scenario.appenderCount);
    const runPhase = async (durationMs: number, maxBytes: number, latencies?: LatencyRecorder) => {
      const progress: Progress = { bytes: 0, batches: 0 };
      const deadlineMs = performance.now() + durationMs;
      const appender = async (index: number): Promise<void> => {
        const log = logs[index % logs.length]!;
        const buffer = buffers[index]!;
        // Bytes are claimed before the append so the cap bounds what is written, not just counted.
        while (performance.now() < deadlineMs && progress.bytes + buffer.length <= maxBytes) {
          progress.bytes += buffer.length;
          progress.batches++;
          const startedMs = performance.now();
          const written = await log.append(buffer, { origin: 'client' });
          // A durable append is answered once the flush covering it is done, as acks=all is.
          if (scenario.durable) await log.waitUntilFlushed(written.lastOffset + 1);
          latencies?.record(performance.now() - startedMs);
        }
      };
      await Promise.all(buffers.map((_, index) => appender(index)));
      await Promise.all(logs.map((log) => log.flush()));
      return progress;
    };

    await runPhase(budget.warmupMs, Number.POSITIVE_INFINITY);
    await prefaultPageCache(`${dataDirectory}.prefault`, budget.maxBytes);
    const latencies = new LatencyRecorder();
    const startedMs = performance.now();
    const { bytes, batches } = await runPhase(budget.durationMs, budget.maxBytes, latencies);
    const seconds = (performance.now() - startedMs) / 1000;
    return {
      bytesPerSecond: bytes / seconds,
      batchesPerSecond: batches / seconds,
      p50Ms: latencies.percentileMs(50),
      p99Ms: latencies.percentileMs(99),
      bytes,
    };
  } finally {
    await manager.shutdown();
    await rm(dataDirectory, { recursive: true, force: true });
  }
}
