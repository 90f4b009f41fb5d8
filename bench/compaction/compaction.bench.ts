import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { PartitionLog } from '@weir/broker/log/partition-log';
import { encodeRecordBatch } from '@weir/protocol';
import { runBenchMain } from '../harness/run-bench-main';
import { type Column, formatRate, formatTable } from '../harness/table';
import { BENCH_TOPIC, benchConfig, createBenchManager } from '../log/manager';
import { type LatencyFigures, measureNeighbourLatency } from './neighbour-latency';
import { formatOffsetsStartup, measureOffsetsStartup } from './offsets-startup';

/**
 * bench:compaction (issue #19): the cleaner's throughput, in MB/s of input, against the log's own
 * append rate and a sequential read of the same files measured in the same run (target: at least
 * half the read floor), with the key map's memory budget and the process's resident memory; then
 * produce and fetch latency on another partition of a broker while its cleaner runs, against the
 * same with the cleaner idle (neighbour-latency.ts); last, a broker's start-up after 1,000,000 offset
 * commits to 1,000 groups, compacted against not (offsets-startup.ts).
 *
 * Each throughput partition holds 256 MiB of 100-record batches over 100,000 keys, so most records
 * are superseded, once with 100-byte values and once with 1 KiB ones. Both the read floor and the
 * clean read files the fill just wrote, from the page cache: the comparison is of CPU per byte,
 * which is what the cleaner adds to the disk's.
 */

const TOTAL_BYTES = 256 * 1024 * 1024;
const RECORDS_PER_BATCH = 100;
/** Small records cost the cleaner most per byte (a map probe per record); 1 KiB is Kafka's usual. */
const VALUE_SIZES_BYTES = [100, 1024];
const KEYS = 100_000;
const SEGMENT_BYTES = 64 * 1024 * 1024;
const DEDUPE_BUFFER_BYTES = 128 * 1024 * 1024;
const READ_CHUNK_BYTES = 4 * 1024 * 1024;
const MIB = 1024 * 1024;

function batchAt(index: number, valueBytes: number): Buffer {
  const value = Buffer.alloc(valueBytes, 'v');
  return encodeRecordBatch({
    records: Array.from({ length: RECORDS_PER_BATCH }, (_, record) => ({
      key: Buffer.from(`key-${(index * RECORDS_PER_BATCH + record) % KEYS}`),
      value,
      timestampMs: Date.now(),
    })),
  });
}

async function fill(log: PartitionLog, valueBytes: number): Promise<{ bytes: number; seconds: number }> {
  const started = performance.now();
  let bytes = 0;
  for (let index = 0; bytes < TOTAL_BYTES; index += 8) {
    const batches = Array.from({ length: 8 }, (_, offset) => batchAt(index + offset, valueBytes));
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

interface ThroughputRun {
  appendRate: number;
  floorRate: number;
  floorBytes: number;
  cleanRate: number;
  kept: number;
  removed: number;
  writtenBytes: number;
  rssBeforeBytes: number;
  rssAfterBytes: number;
}

/** Fills a partition with `valueBytes`-byte records, reads the floor, then cleans it once. */
async function cleanerThroughput(valueBytes: number): Promise<ThroughputRun> {
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
      const appended = await fill(log, valueBytes);
      const floor = await readFloor(log);
      const rssBeforeBytes = process.memoryUsage().rss;
      const started = performance.now();
      const outcome = await manager.cleaner.cleanNow(log);
      const seconds = (performance.now() - started) / 1000;
      if (outcome?.kind !== 'cleaned') throw new Error(`the clean did not run: ${outcome?.kind}`);
      return {
        appendRate: appended.bytes / MIB / appended.seconds,
        floorRate: floor.bytes / MIB / floor.seconds,
        floorBytes: floor.bytes,
        cleanRate: outcome.readBytes / MIB / seconds,
        kept: outcome.keptRecords,
        removed: outcome.removedRecords,
        writtenBytes: outcome.writtenBytes,
        rssBeforeBytes,
        rssAfterBytes: process.memoryUsage().rss,
      };
    } finally {
      await manager.shutdown();
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

const count = (value: number) => value.toLocaleString('en-US');
const ms = (value: number) => value.toFixed(2);

async function main(): Promise<void> {
  const rows: string[][] = [];
  for (const valueBytes of VALUE_SIZES_BYTES) {
    const run = await cleanerThroughput(valueBytes);
    const size = `${valueBytes} B values`;
    rows.push(
      [`append, ${size}`, formatRate(run.appendRate), '', `${formatRate(TOTAL_BYTES / MIB)} MiB`],
      [
        `sequential read floor, ${size}`,
        formatRate(run.floorRate),
        '1.00×',
        `${formatRate(run.floorBytes / MIB)} MiB of closed segments`,
      ],
      [
        `cleaner input, ${size}`,
        formatRate(run.cleanRate),
        `${(run.cleanRate / run.floorRate).toFixed(2)}×`,
        `kept ${count(run.kept)}, removed ${count(run.removed)}, wrote ${formatRate(run.writtenBytes / MIB)} MiB (target ≥ 0.50×)`,
      ],
      [
        `memory, ${size}`,
        '',
        '',
        `key map budget ${DEDUPE_BUFFER_BYTES / MIB} MiB; RSS ${formatRate(run.rssBeforeBytes / MIB)} → ${formatRate(run.rssAfterBytes / MIB)} MiB`,
      ],
    );
  }
  const columns: Column[] = [
    { title: 'row' },
    { title: 'MB/s', alignRight: true },
    { title: 'vs read floor', alignRight: true },
    { title: 'note' },
  ];
  console.log(formatTable(columns, rows));

  const neighbours = await measureNeighbourLatency(TOTAL_BYTES);
  const latencyRow = (label: string, figures: LatencyFigures, baseline: LatencyFigures | undefined) => [
    label,
    ms(figures.produceP50Ms),
    ms(figures.produceP99Ms),
    baseline === undefined ? '1.00×' : `${(figures.produceP99Ms / baseline.produceP99Ms).toFixed(2)}×`,
    ms(figures.fetchP50Ms),
    ms(figures.fetchP99Ms),
    baseline === undefined ? '1.00×' : `${(figures.fetchP99Ms / baseline.fetchP99Ms).toFixed(2)}×`,
    `${count(figures.operations)} ops in ${figures.seconds.toFixed(1)} s`,
  ];
  console.log(
    formatTable(
      [
        { title: 'another partition, cleaner' },
        { title: 'produce p50 ms', alignRight: true },
        { title: 'produce p99 ms', alignRight: true },
        { title: 'vs idle', alignRight: true },
        { title: 'fetch p50 ms', alignRight: true },
        { title: 'fetch p99 ms', alignRight: true },
        { title: 'vs idle', alignRight: true },
        { title: 'note (target: p99 ≤ 1.50× idle)' },
      ],
      [
        latencyRow('idle', neighbours.idle, undefined),
        latencyRow(
          `cleaning ${formatRate(neighbours.tableBytesBefore / MIB)} → ${formatRate(neighbours.tableBytesAfter / MIB)} MiB`,
          neighbours.cleaning,
          neighbours.idle,
        ),
      ],
    ),
  );

  console.log(formatOffsetsStartup(await measureOffsetsStartup({ commits: 1_000_000, groups: 1_000 })));
}

runBenchMain(main, { name: 'compaction', timeoutMs: 20 * 60_000, killing: 'the brokers' });
