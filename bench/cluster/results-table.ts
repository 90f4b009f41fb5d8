import os from 'node:os';
import { FLUSH_MS, PARTITION_COUNT, RECORDS_PER_SEND, SEND_WINDOW_BYTES } from '../broker/bench-config';
import { megabytesPerSecond, messagesPerSecond } from '../broker/bench-report';
import { percentOfCore } from '../broker/results-table';
import { type Column, formatCount, formatRate, formatTable } from '../harness/table';
import { sizeLabel } from '../log/units';
import { BROKER_COUNT, SIZES } from './cluster-config';
import type { ClusterReport, ClusterRow } from './cluster-report';

const columns: Column[] = [
  { title: 'setup' },
  { title: 'measurement' },
  { title: 'n', alignRight: true },
  { title: 'per s', alignRight: true },
  { title: 'MB/s', alignRight: true },
  { title: 'p50 ms', alignRight: true },
  { title: 'p99 ms', alignRight: true },
  { title: 'max ms', alignRight: true },
  { title: 'client CPU', alignRight: true },
  { title: 'server CPU', alignRight: true },
  { title: 'target' },
  { title: 'ratio', alignRight: true },
  { title: 'status' },
];

const milliseconds = (value: number | undefined): string => (value === undefined ? '' : formatRate(value));

function formatRow(row: ClusterRow): string[] {
  const { run, durations, eventsPerSecond, target } = row;
  const verdict = target?.verdict;
  const status = target === undefined ? '' : verdict === undefined ? 'n/a' : verdict.met ? 'met' : 'MISSED';
  if (row.failure !== undefined) return [row.setup, row.measurement, ...Array(10).fill(''), 'FAILED'];
  const count = run?.records ?? durations?.count ?? eventsPerSecond?.count;
  const rate = run
    ? formatCount(messagesPerSecond(run))
    : eventsPerSecond
      ? formatRate(eventsPerSecond.count / eventsPerSecond.seconds)
      : '';
  return [
    row.setup,
    row.measurement,
    count === undefined ? '' : formatCount(count),
    rate,
    run ? formatRate(megabytesPerSecond(run)) : '',
    milliseconds(durations?.p50Ms),
    milliseconds(durations?.p99Ms),
    milliseconds(durations?.maxMs),
    run ? percentOfCore(run.clientCpuMs, run.seconds) : '',
    run ? percentOfCore(run.serverCpuMs, run.serverSeconds) : '',
    target?.label ?? '',
    verdict?.ratio ?? target?.ratio ?? '',
    status,
  ];
}

/** Prints the machine and its load, the workload, the table, the notes, the targets missed and the duration. */
export function printResults(
  report: ClusterReport,
  run: { startedMs: number; loadAtStart: number; ttls: string },
) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(
    `Cluster — Node ${process.version}, ${cpu} × ${os.cpus().length}, data under ${os.tmpdir()}, loopback only; ` +
      `1-min load average ${run.loadAtStart.toFixed(2)} at start, ${os.loadavg()[0]!.toFixed(2)} at end`,
  );
  console.log(
    `Setups: one standalone broker, and one etcd member with ${BROKER_COUNT} brokers in cluster mode (${run.ttls}), ` +
      `each broker its own process, flush.ms=${FLUSH_MS}. Throughput: ${SIZES.map((size) => `${formatCount(size.count)} × ${size.label}`).join(' and ')} ` +
      `keyless, uncompressed records per run into a topic of ${PARTITION_COUNT} partitions (on the cluster spread over the brokers), ` +
      'produced with acks=1 and with acks=all (idempotent, answered after an fdatasync), consumed from the acks=1 topic; ' +
      `the SDK bootstraps from one broker and sends ${RECORDS_PER_SEND} records per call with up to ` +
      `${sizeLabel(SEND_WINDOW_BYTES)} of values in unanswered calls, and consumes every partition from offset 0. ` +
      "Rounds alternate between the setups, and a cluster row's ratio is the median over rounds of its rate ÷ " +
      'the standalone rate of the same round. MB/s count value bytes (MB = 10^6 B); CPU is % of one core over the timed ' +
      'phase, server CPU the broker processes (summed on the cluster). "per s" is records/s, or etcd calls/s.\n',
  );
  console.log(formatTable(columns, report.rows.map(formatRow)));
  console.log('');
  for (const note of report.notes) console.log(note);
  console.log(report.missed.length === 0 ? '\nAll targets met.' : `\nMissed: ${report.missed.join('; ')}.`);
  console.log(`(${((Date.now() - run.startedMs) / 1000).toFixed(1)} s)`);
}
