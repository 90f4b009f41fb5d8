import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { PartitionLog } from '@weir/broker/log/partition-log';
import { encodeRecordBatch } from '@weir/protocol';
import { runBenchMain } from '../harness/run-bench-main';
import { type Column, formatRate, formatTable } from '../harness/table';
import { BENCH_TOPIC, benchConfig, createBenchManager } from '../log/manager';

/**
 * bench:compaction (issue #19): the cleaner's throughput, in MB/s of input, against the log's own
 * append rate and a sequential read of the same files measured in the same run (target: at least
 * half the read floor), with the key map's memory budget and the process's resident memory.
 *
 * The partition holds 256 MiB of 100-record batches of 100-byte values over 100,000 keys, so most
 * records are superseded. Both the read floor and the clean read files the fill just wrote, from
 * the page cache: the comparison is of CPU per byte, which is what the cleaner adds to the disk's.
 */

const TOTAL_BYTES = 256 * 1024 * 1024;
const RECORDS_PER_BATCH = 100;
const VALUE_BYTES = 100;
const KEYS = 100_000;
const SEGMENT_BYTES = 64 * 1024 * 1024;
const DEDUPE_BUFFER_BYTES = 128 * 1024 * 1024;
const READ_CHUNK_BYTES = 4 * 1024 * 1024;
const MIB = 1024 * 1024;

function batchAt(index: number): Buffer {
  const value = Buffer.alloc(VALUE_BYTES, 'v');
  return encodeRecordBatch({
    records: Array.from({ length: RECORDS_PER_BATCH }, (_, record) => ({
      key: Buffer.from(`key-${(index * RECORDS_PER_BATCH + record) % KEYS}`),
      value,
      timestampMs: Date.now(),
    })),
  });
}

async function fill(log: PartitionLog): Promise<{ bytes: number; seconds: number }> {
  const started = performance.now();
  let bytes = 0;
  for (let index = 0; bytes < TOTAL_BYTES; index += 8) {
    const batches = Array.from({ length: 8 }, (_, offset) => batchAt(index + offset));
    await Promise.all(batches.map((batch) => log.append(batch, { origin: 'client' })));
    for (const batch of batches) bytes += batch.length;
  }
  await log.flush();
  return { bytes, seconds: (performance.now() - started) / 1000 };
}

/** Reads the closed segments' files start to end, as the cleaner's input is. */
async function readFloor(log: PartitionLog): Promise<{ bytes: number; seconds: number }> {
  const started = performance.now();
  const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  let bytes = 0;
  for (const segment of log.segments.slice(0, -1)) {
    const file = await open(segment.logPath, 'r');
    try {
      for (;;) {
        const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        bytes += bytesRead;
      }
    } finally {
      await file.close();
    }
  }
  return { bytes, seconds: (performance.now() - started) / 1000 };
}

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'weir-bench-compaction-'));
  try {
    const manager = createBenchManager(directory, {
      defaultConfig: benchConfig({
        compact: true,
        deleteByRetention: false,
        minCleanableDirtyRatio: 0,
        segmentBytes: SEGMENT_BYTES,
      }),
      cleaner: { enable: false, threads: 1, dedupeBufferBytes: DEDUPE_BUFFER_BYTES, backoffMs: 15_000 },
    });
    await manager.start();
    try {
      const log = await manager.createLog(BENCH_TOPIC, 0);
      const appended = await fill(log);
      const floor = await readFloor(log);
      const rssBeforeBytes = process.memoryUsage().rss;
      const started = performance.now();
      const outcome = await manager.cleaner.cleanNow(log);
      const seconds = (performance.now() - started) / 1000;
      if (outcome?.kind !== 'cleaned') throw new Error(`the clean did not run: ${outcome?.kind}`);
      const rssAfterBytes = process.memoryUsage().rss;
      const cleanRate = outcome.readBytes / MIB / seconds;
      const floorRate = floor.bytes / MIB / floor.seconds;
      const columns: Column[] = [
        { title: 'row' },
        { title: 'MB/s', alignRight: true },
        { title: 'vs read floor', alignRight: true },
        { title: 'note' },
      ];
      const rows = [
        [
          'append (the fill)',
          formatRate(appended.bytes / MIB / appended.seconds),
          '',
          `${formatRate(appended.bytes / MIB)} MiB`,
        ],
        [
          'sequential read floor',
          formatRate(floorRate),
          '1.00×',
          `${formatRate(floor.bytes / MIB)} MiB of closed segments`,
        ],
        [
          'cleaner input',
          formatRate(cleanRate),
          `${(cleanRate / floorRate).toFixed(2)}×`,
          `kept ${outcome.keptRecords.toLocaleString('en-US')}, removed ${outcome.removedRecords.toLocaleString('en-US')}, wrote ${formatRate(outcome.writtenBytes / MIB)} MiB (target ≥ 0.50×)`,
        ],
        [
          'memory',
          '',
          '',
          `key map budget ${DEDUPE_BUFFER_BYTES / MIB} MiB; RSS ${formatRate(rssBeforeBytes / MIB)} → ${formatRate(rssAfterBytes / MIB)} MiB`,
        ],
      ];
      console.log(formatTable(columns, rows));
    } finally {
      await manager.shutdown();
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

runBenchMain(main, { name: 'compaction', timeoutMs: 10 * 60_000, killing: 'nothing' });
