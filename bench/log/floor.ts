import { open, rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type { Budget } from './budget';
import { FLUSH_INTERVAL_MS } from './manager';
import { prefaultPageCache } from './page-cache';
import { KIB } from './units';

const WRITE_BYTES = 64 * KIB;

export interface FloorMeasurement {
  bytesPerSecond: number;
  bytes: number;
  /** Batches per writev (the whole batches closest to 64 KiB). */
  batchesPerWrite: number;
}

/**
 * The floor: what one Node process gets from the disk with the same durability policy as
 * flush.ms=100 and no log at all. It appends the same batch bytes in ~64 KiB `writev`s, one at a
 * time, while an fdatasync runs every 100 ms alongside (as the log's flush timer does) and a final
 * one closes the timed phase, so every counted byte is on disk.
 */
export async function measureFloor(path: string, batch: Buffer, budget: Budget): Promise<FloorMeasurement> {
  const batchesPerWrite = Math.max(1, Math.round(WRITE_BYTES / batch.length));
  // Distinct buffers, as a producer's batches would be; writev takes the list as is.
  const buffers = Array.from({ length: batchesPerWrite }, () => Buffer.from(batch));
  const writeBytes = batch.length * batchesPerWrite;
  const handle = await open(path, 'w');
  let position = 0;
  let syncing: Promise<void> | undefined;
  const timer = setInterval(() => {
    syncing ??= handle.datasync().finally(() => {
      syncing = undefined;
    });
  }, FLUSH_INTERVAL_MS);

  const writeFor = async (durationMs: number, maxBytes: number): Promise<number> => {
    const startPosition = position;
    const deadlineMs = performance.now() + durationMs;
    while (performance.now() < deadlineMs && position - startPosition < maxBytes) {
      const { bytesWritten } = await handle.writev(buffers, position);
      if (bytesWritten !== writeBytes) throw new Error(`short writev: ${bytesWritten} of ${writeBytes}`);
      position += bytesWritten;
    }
    return position - startPosition;
  };

  try {
    await writeFor(budget.warmupMs, Number.POSITIVE_INFINITY);
    await syncing;
    await handle.datasync();
    await prefaultPageCache(`${path}.prefault`, budget.maxBytes);
    const startedMs = performance.now();
    const bytes = await writeFor(budget.durationMs, budget.maxBytes);
    clearInterval(timer);
    await syncing;
    await handle.datasync();
    const seconds = (performance.now() - startedMs) / 1000;
    return { bytesPerSecond: bytes / seconds, bytes, batchesPerWrite };
  } finally {
    clearInterval(timer);
    await syncing?.catch(() => undefined);
    await handle.close();
    await rm(path, { force: true });
  }
}
