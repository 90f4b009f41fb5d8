import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { type Column, formatCount, formatRate, formatTable } from '../harness/table';
import type { AppendMeasurement, AppendScenario } from './append';
import { measureBigPartition, type OpenPartitionOutput } from './big-partition';
import type { Budget } from './budget';
import { measureManyPartitions } from './many-partitions';
import { killLiveWorkers } from './run-worker';
import { floorShareTarget, judge, limitTarget, type Target } from './targets';
import { measureThroughputRounds } from './throughput-rounds';
import { GB, GIB, MB, MIB, sizeLabel } from './units';
import { BATCH_PAYLOAD_BYTES, encodeBenchBatch, RECORD_BYTES } from './workload';

/**
 * Partition log benchmark: append throughput (flush.ms=100 and durable group commit), sequential
 * reads, open time of a large partition after a clean shutdown and after a crash, and the open of
 * many small partitions, next to the floor (plain fs/promises writes with the same fdatasync
 * policy), all measured in this run under a temporary directory that is removed at the end.
 *
 * Environment knobs, for a quicker run or a smaller disk: LOG_BENCH_SECONDS (per throughput run,
 * default 4), LOG_BENCH_ROUNDS (throughput runs per scenario, default 3), LOG_BENCH_BIG_GIB
 * (default 4), LOG_BENCH_PARTITIONS (default 10000), LOG_BENCH_ONLY (a comma-separated subset of
 * throughput, big, many: run only those parts; default all three).
 */

type Part = 'throughput' | 'big' | 'many';
const ALL_PARTS: readonly Part[] = ['throughput', 'big', 'many'];

const SCENARIO_SECONDS = numberFromEnvironment('LOG_BENCH_SECONDS', 4);
const ROUND_COUNT = Math.round(numberFromEnvironment('LOG_BENCH_ROUNDS', 3));
const BIG_PARTITION_BYTES = numberFromEnvironment('LOG_BENCH_BIG_GIB', 4) * GIB;
const PARTITION_COUNT = Math.round(numberFromEnvironment('LOG_BENCH_PARTITIONS', 10_000));
const PARTS = partsFromEnvironment('LOG_BENCH_ONLY');
const APPENDER_COUNT = 64;
const APPEND_SCENARIOS: AppendScenario[] = [false, true].flatMap((durable) =>
  [1, 8].map((partitionCount) => ({ partitionCount, durable, appenderCount: APPENDER_COUNT })),
);
const READ_MAX_BYTES = MIB;
const BUDGET: Budget = { warmupMs: 300, durationMs: SCENARIO_SECONDS * 1000, maxBytes: 512 * MIB };
/** The whole run is killed after this, children included, so it always stops by itself. */
const RUN_TIMEOUT_MS = 20 * 60_000;

const FLUSHED_SHARE = 0.8;
const DURABLE_SHARE = 0.5;
const READ_TARGET = limitTarget('≥ 1 GB/s', 'at-least', 1 * GB);
const CLEAN_OPEN_TARGET = limitTarget('< 100 ms', 'below', 100);
const MANY_OPEN_TARGET = limitTarget('< 10 s', 'below', 10_000);
const MANY_RESIDENT_TARGET = limitTarget('< 200 MB', 'below', 200 * MB);

function numberFromEnvironment(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!(value > 0)) throw new Error(`${name} must be a positive number, got ${text}`);
  return value;
}

function partsFromEnvironment(name: string): ReadonlySet<Part> {
  const text = process.env[name];
  if (text === undefined || text === '') return new Set(ALL_PARTS);
  const names = text.split(',').map((part) => part.trim());
  for (const part of names) {
    if (!ALL_PARTS.includes(part as Part))
      throw new Error(`${name} lists ${part}; use ${ALL_PARTS.join(', ')}`);
  }
  return new Set(names as Part[]);
}

function progress(message: string): void {
  process.stderr.write(`[bench:log] ${message}\n`);
}

const columns: Column[] = [
  { title: 'scenario' },
  { title: 'result', alignRight: true },
  { title: 'batches/s', alignRight: true },
  { title: 'p50 ms', alignRight: true },
  { title: 'p99 ms', alignRight: true },
  { title: 'target' },
  { title: 'ratio', alignRight: true },
  { title: 'status' },
];
const rows: string[][] = [];
const missed: string[] = [];

function addRow(
  scenario: string,
  result: string,
  options: { append?: AppendMeasurement; measured?: number; target?: Target } = {},
): void {
  const { append, measured, target } = options;
  const verdict = target && measured !== undefined ? judge(measured, target) : undefined;
  if (verdict && !verdict.met) missed.push(scenario.trim());
  rows.push([
    scenario,
    result,
    append ? formatCount(append.batchesPerSecond) : '',
    append ? append.p50Ms.toFixed(2) : '',
    append ? append.p99Ms.toFixed(2) : '',
    target?.label ?? '',
    verdict?.ratio ?? '',
    verdict ? (verdict.met ? 'met' : 'MISSED') : '',
  ]);
}

const formatThroughput = (bytesPerSecond: number): string => `${formatRate(bytesPerSecond / MB)} MB/s`;
const formatDuration = (ms: number): string => `${formatCount(ms)} ms`;
const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;
const signed = (value: number, format: (magnitude: number) => string): string =>
  `${value < 0 ? '−' : '+'}${format(Math.abs(value))}`;

/** How much of the partition the open rescanned, and how fast. */
function rescanLabel(open: OpenPartitionOutput): string {
  const rate =
    open.rescannedBytes > 0 ? `, ${((open.rescannedBytes / open.openMs) * (1000 / GB)).toFixed(2)} GB/s` : '';
  return `${open.rescannedSegmentCount}/${plural(open.segmentCount, 'segment')} (${sizeLabel(open.rescannedBytes)}) rescanned${rate}`;
}

async function measureThroughput(root: string, batch: Buffer, notes: string[]): Promise<void> {
  const results = await measureThroughputRounds(root, batch, APPEND_SCENARIOS, BUDGET, ROUND_COUNT, progress);
  const { floor } = results;
  const runsLabel = (runs: readonly { bytesPerSecond: number }[]): string =>
    runs.map((run) => formatRate(run.bytesPerSecond / MB)).join(', ');
  addRow(
    `floor: fs writev of ${floor.batchesPerWrite} batches (${sizeLabel(batch.length * floor.batchesPerWrite)}) + fdatasync/100 ms`,
    formatThroughput(floor.bytesPerSecond),
  );
  notes.push(
    `Throughput rows are the median of ${ROUND_COUNT} interleaved runs; MB/s of every run, in order:`,
    `  floor: ${runsLabel(results.floorRuns)}`,
  );
  for (const { label, scenario, runs, median } of results.appends) {
    addRow(label, formatThroughput(median.bytesPerSecond), {
      append: median,
      measured: median.bytesPerSecond,
      target: floorShareTarget(scenario.durable ? DURABLE_SHARE : FLUSHED_SHARE, floor.bytesPerSecond),
    });
    notes.push(`  ${label}: ${runsLabel(runs)}`);
  }
}

async function measureLargePartition(root: string, notes: string[]): Promise<void> {
  const sizeText = sizeLabel(BIG_PARTITION_BYTES);
  progress(`${sizeText} partition: write, crash, reopen, read`);
  const directory = join(root, 'big');
  const big = await measureBigPartition(directory, BIG_PARTITION_BYTES, READ_MAX_BYTES);
  await rm(directory, { recursive: true, force: true });
  const read = big.clean.read!;
  addRow(
    `sequential read, page cache, ${sizeLabel(READ_MAX_BYTES)} reads`,
    `${(read.bytesPerSecond / GB).toFixed(2)} GB/s`,
    { measured: read.bytesPerSecond, target: READ_TARGET },
  );
  addRow(`open ${sizeText} partition after a clean shutdown`, formatDuration(big.clean.openMs), {
    measured: big.clean.openMs,
    target: CLEAN_OPEN_TARGET,
  });
  const { crashWithoutCheckpoint: stale, crashWithFreshCheckpoint: fresh } = big;
  addRow(
    `open ${sizeText} after a crash, stale checkpoint (${stale.rescannedSegmentCount}/${stale.segmentCount} seg. rescanned)`,
    formatDuration(stale.openMs),
  );
  addRow(
    `open ${sizeText} after a crash, current checkpoint (${fresh.rescannedSegmentCount}/${fresh.segmentCount} seg. rescanned)`,
    formatDuration(fresh.openMs),
  );
  notes.push(
    `${sizeText} partition: ${sizeLabel(big.written.bytes)} in ${plural(big.written.segmentCount, 'segment')} ` +
      `of ≤ 1 GiB, written in ${big.written.seconds.toFixed(1)} s by a child that was then SIGKILLed; every ` +
      'open is a fresh process, with the data in the page cache.',
    `  crash, stale checkpoint: ${rescanLabel(stale)}. The manager writes the recovery-point checkpoint ` +
      'every 5 s when it moved; after any crash, recovery rescans from the segment holding the last ' +
      'checkpointed recovery point, i.e. that whole segment plus up to 5 s of appends.',
    `  crash, current checkpoint (killed right after a clean open): ${rescanLabel(fresh)}.`,
    `  clean: ${rescanLabel(big.clean)}, marker trusted: ${big.clean.cleanShutdown}; ` +
      `sequential read: ${sizeLabel(read.bytes)} in ${formatCount(read.readCount)} reads after that open.`,
  );
}

async function measureManyPartitionOpen(root: string, notes: string[]): Promise<void> {
  const countText = `${formatCount(PARTITION_COUNT)} partitions`;
  progress(`${countText}: create, shut down, reopen`);
  const directory = join(root, 'many');
  const many = await measureManyPartitions(directory, PARTITION_COUNT);
  await rm(directory, { recursive: true, force: true });
  const { open } = many;
  addRow(`open ${countText} after a clean shutdown`, formatDuration(open.openMs), {
    measured: open.openMs,
    target: MANY_OPEN_TARGET,
  });
  const residentDeltaBytes = open.residentAfterBytes - open.residentBeforeBytes;
  addRow(
    '  resident memory after that open (Δ)',
    `${formatRate(open.residentAfterBytes / MB)} MB (${signed(residentDeltaBytes / MB, formatRate)})`,
    { measured: open.residentAfterBytes, target: MANY_RESIDENT_TARGET },
  );
  addRow(
    '  open file descriptors after that open (Δ)',
    `${formatCount(open.descriptorsAfter)} (${signed(open.descriptorsAfter - open.descriptorsBefore, formatCount)})`,
  );
  notes.push(
    `${countText}: opened ${formatCount(open.openedCount)}, offline ${open.offlineCount}, marker trusted: ` +
      `${open.cleanShutdown}; the handle cache holds ${formatCount(open.cachedFileCount)} files ` +
      `(maxOpenFiles ${formatCount(many.maxOpenFiles)}). Resident memory is measured in a fresh child right ` +
      `after start(), no GC forced; ${formatRate(open.residentBeforeBytes / MB)} MB of it is Node + tsx + the ` +
      `loaded modules before start(). Setup (untimed): create + one append each ` +
      `${many.setup.createSeconds.toFixed(1)} s, shutdown ${many.setup.shutdownSeconds.toFixed(1)} s.`,
  );
}

async function main(root: string): Promise<string[]> {
  const notes: string[] = [];
  if (PARTS.has('throughput')) await measureThroughput(root, encodeBenchBatch(), notes);
  if (PARTS.has('big')) await measureLargePartition(root, notes);
  if (PARTS.has('many')) await measureManyPartitionOpen(root, notes);
  return notes;
}

const startedMs = Date.now();
// Other work on a shared machine skews every row; the load averages tell the reader whether it did.
const loadAtStart = os.loadavg()[0]!;
const root = await mkdtemp(join(os.tmpdir(), 'weir-log-bench-'));
const abort = (reason: string): never => {
  killLiveWorkers();
  rmSync(root, { recursive: true, force: true });
  process.stderr.write(`[bench:log] aborted: ${reason}\n`);
  process.exit(2);
};
setTimeout(() => abort(`still running after ${RUN_TIMEOUT_MS / 60_000} min`), RUN_TIMEOUT_MS).unref();
process.on('SIGINT', () => abort('interrupted'));
process.on('SIGTERM', () => abort('terminated'));

let notes: string[];
try {
  notes = await main(root);
} catch (error) {
  killLiveWorkers();
  throw error;
} finally {
  await rm(root, { recursive: true, force: true });
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(
  `Partition log — Node ${process.version}, ${cpu} × ${os.cpus().length}, data under ${os.tmpdir()}; ` +
    `1-min load average ${loadAtStart.toFixed(2)} at start, ${os.loadavg()[0]!.toFixed(2)} at end`,
);
console.log(
  `Workload: ${sizeLabel(RECORD_BYTES)} records in ${sizeLabel(BATCH_PAYLOAD_BYTES)} batches ` +
    `(${sizeLabel(encodeBenchBatch().length)} encoded), uncompressed; ${APPENDER_COUNT} concurrent appenders ` +
    'spread round-robin over the partitions. Each throughput run: a 300 ms warm-up, then ' +
    `${SCENARIO_SECONDS} s or ${sizeLabel(BUDGET.maxBytes)}, whichever comes first, timed until everything ` +
    "is fdatasync'd; the page cache is prefaulted first (see page-cache.ts). MB = 10^6 B, GB = 10^9 B.\n",
);
console.log(formatTable(columns, rows));
console.log('');
for (const note of notes) console.log(note);
console.log(missed.length === 0 ? '\nAll targets met.' : `\nMissed: ${missed.join('; ')}.`);
console.log(`(${((Date.now() - startedMs) / 1000).toFixed(1)} s)`);
