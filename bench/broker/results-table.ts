import os from 'node:os';
import { type Column, formatCount, formatRate, formatTable } from '../harness/table';
import { sizeLabel } from '../log/units';
import {
  CPU_PROFILE_DIR,
  FLUSH_MS,
  PARTITION_COUNT,
  RECORDS_PER_SEND,
  SEND_WINDOW_BYTES,
  SIZES,
} from './bench-config';
import {
  type BenchReport,
  megabytesPerSecond,
  messagesPerSecond,
  type Row,
  serverCpuMsPerMegabyte,
} from './bench-report';

const columns: Column[] = [
  { title: 'system · client' },
  { title: 'workload' },
  { title: 'records', alignRight: true },
  { title: 'msgs/s', alignRight: true },
  { title: 'MB/s', alignRight: true },
  { title: 'p50 ms', alignRight: true },
  { title: 'p99 ms', alignRight: true },
  { title: 'client CPU', alignRight: true },
  { title: 'server CPU', alignRight: true },
  { title: 'server CPU ms/MB', alignRight: true },
  { title: 'broker loop p99 ms', alignRight: true },
  { title: 'target' },
  { title: 'ratio', alignRight: true },
  { title: 'status' },
];

/** CPU time over a run as a share of one core (blank when it was not measured). */
export const percentOfCore = (cpuMs: number | undefined, seconds: number | undefined): string =>
  cpuMs === undefined || seconds === undefined || Number.isNaN(cpuMs)
    ? ''
    : `${Math.round(cpuMs / seconds / 10)}%`;

function formatRow(row: Row): string[] {
  const { run, latency, target } = row;
  const verdict = target?.verdict;
  const status = target === undefined ? '' : verdict === undefined ? 'n/a' : verdict.met ? 'met' : 'MISSED';
  const workload = row.note ? `${row.workload} (${row.note})` : row.workload;
  if (row.failure !== undefined) {
    return [row.system, workload, ...Array.from({ length: columns.length - 3 }, () => ''), 'FAILED'];
  }
  const cpuMsPerMegabyte = run ? serverCpuMsPerMegabyte(run) : undefined;
  const loopDelayP99Ms = run?.serverLoopDelayP99Ms;
  return [
    row.system,
    workload,
    run ? formatCount(run.records) : '',
    run && !latency
      ? formatCount(messagesPerSecond(run))
      : latency
        ? formatCount(latency.achievedPerSecond)
        : '',
    run && !latency ? formatRate(megabytesPerSecond(run)) : '',
    latency ? latency.p50Ms.toFixed(3) : '',
    latency ? latency.p99Ms.toFixed(3) : '',
    run ? percentOfCore(run.clientCpuMs, run.seconds) : '',
    run ? percentOfCore(run.serverCpuMs, run.serverSeconds) : '',
    cpuMsPerMegabyte === undefined || Number.isNaN(cpuMsPerMegabyte) ? '' : cpuMsPerMegabyte.toFixed(2),
    loopDelayP99Ms === undefined ? '' : loopDelayP99Ms.toFixed(3),
    target?.label ?? '',
    verdict?.ratio ?? '',
    status,
  ];
}

/**
 * Prints the run's results to stdout: the machine and its load at start and end, the workload, the
 * table, the notes, the targets missed and the run's duration.
 */
export function printResults(report: BenchReport, run: { startedMs: number; loadAtStart: number }): void {
  const { startedMs, loadAtStart } = run;
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(
    `Broker — Node ${process.version}, ${cpu} × ${os.cpus().length}, data under ${os.tmpdir()}, loopback only; ` +
      `1-min load average ${loadAtStart.toFixed(2)} at start, ${os.loadavg()[0]!.toFixed(2)} at end`,
  );
  console.log(
    `Workload: ${SIZES.map((size) => `${formatCount(size.count)} × ${size.label}`).join(' and ')} keyless, ` +
      `uncompressed records; Weir topics have ${PARTITION_COUNT} partitions, flush.ms=${FLUSH_MS} (acks=1 answers ` +
      'after the write; acks=all after an fdatasync covering it). The SDK and kafkajs send ' +
      `${RECORDS_PER_SEND} records per call, with up to ${sizeLabel(SEND_WINDOW_BYTES)} of values in unanswered ` +
      'calls; MB/s count ' +
      'value bytes only (MB = 10^6 B). CPU is % of one core over the timed phase; server CPU is the ' +
      'broker (or NATS/Redis) process, and server CPU ms/MB its CPU time over the phase per MB of values ' +
      'moved. Broker loop p99 is how late a 1 ms timer inside the Weir broker fired, 99th percentile over ' +
      'the timed phase (perf_hooks.monitorEventLoopDelay).\n',
  );
  if (CPU_PROFILE_DIR !== undefined) {
    console.log(
      `The Weir brokers profiled every timed phase into ${CPU_PROFILE_DIR} (BROKER_BENCH_CPU_PROF), which ` +
        'costs them CPU: their rows are not comparable with an unprofiled run.\n',
    );
  }
  console.log(formatTable(columns, report.rows.map(formatRow)));
  console.log('');
  for (const note of report.notes) console.log(note);
  console.log(report.missed.length === 0 ? '\nAll targets met.' : `\nMissed: ${report.missed.join('; ')}.`);
  console.log(`(${((Date.now() - startedMs) / 1000).toFixed(1)} s)`);
}
