import { resolve } from 'node:path';
import { MIB } from '../log/units';

/**
 * The broker benchmark's settings: the environment knobs (read here and nowhere else in the
 * benchmark) and the workload every section runs.
 *
 * Environment knobs, for a quicker run: BROKER_BENCH_SCALE (multiplies the record counts, default
 * 1: 1,000,000 × 100 B and 200,000 × 1 KiB), BROKER_BENCH_ROUNDS (SDK produce/consume runs per
 * row, the median is shown; default 3), BROKER_BENCH_LATENCY_SECONDS (default 5),
 * BROKER_BENCH_MAX_SECONDS (cap of one kafkajs/NATS/Redis publish run, default 20),
 * BROKER_BENCH_ONLY (comma list of sections: sdk, kafkajs, kcat, nats, redis, floor).
 * BROKER_BENCH_CPU_PROF=<dir> has each Weir broker write a V8 CPU profile of every timed phase
 * into <dir> (`<section>-<workload>-r<round>.cpuprofile`; read them with `npm run
 * profile:summary`). Profiling costs the broker CPU, so its rows' CPU figures run high.
 */

const SCALE = numberFromEnvironment('BROKER_BENCH_SCALE', 1);
export const ROUND_COUNT = Math.round(numberFromEnvironment('BROKER_BENCH_ROUNDS', 3));
export const LATENCY_SECONDS = numberFromEnvironment('BROKER_BENCH_LATENCY_SECONDS', 5);
export const MAX_SECONDS = numberFromEnvironment('BROKER_BENCH_MAX_SECONDS', 20);
const SECTION_NAMES = ['sdk', 'kafkajs', 'kcat', 'nats', 'redis', 'floor'] as const;
export type Section = (typeof SECTION_NAMES)[number];
export const SECTIONS = sectionsFromEnvironment('BROKER_BENCH_ONLY');
/** An absolute directory for the brokers' phase profiles, or undefined when none are wanted. */
export const CPU_PROFILE_DIR = directoryFromEnvironment('BROKER_BENCH_CPU_PROF');

export const PARTITION_COUNT = 6;
export const FLUSH_MS = 100;
export const RECORDS_PER_SEND = 1000;
/**
 * How many value bytes the SDK and kafkajs runs keep in unanswered `send` calls: the SDK
 * producer's default buffer (bufferBytes, 32 MiB), so its own backpressure is what paces it, as in
 * an application that sends without waiting for each answer.
 */
export const SEND_WINDOW_BYTES = 32 * MIB;
export const sendsInFlight = (size: Size): number =>
  Math.max(1, Math.floor(SEND_WINDOW_BYTES / (RECORDS_PER_SEND * size.valueBytes)));
export const LATENCY_RATE_PER_SECOND = 10_000;
export const LATENCY_VALUE_BYTES = 100;
/** Per-run timeouts: generous, only there so a hung client cannot stall the run. */
export const CHILD_TIMEOUT_MS = 120_000;
export const SERVER_START_TIMEOUT_MS = 30_000;
export const SERVER_STOP_TIMEOUT_MS = 30_000;
/** The whole run is killed after this, children included, so it always stops by itself. */
export const RUN_TIMEOUT_MS = 15 * 60_000;

export interface Size {
  label: string;
  key: string;
  valueBytes: number;
  count: number;
}

export const SIZES: Size[] = [
  { label: '100 B', key: '100b', valueBytes: 100, count: Math.max(1000, Math.round(1_000_000 * SCALE)) },
  { label: '1 KiB', key: '1kib', valueBytes: 1024, count: Math.max(1000, Math.round(200_000 * SCALE)) },
];
export const ACKS = [
  { label: 'acks=1', key: 'acks1', acks: 1 as const },
  { label: 'acks=all', key: 'acksall', acks: -1 as const },
];

export const warmupCount = (size: Size): number =>
  Math.min(50_000, Math.max(1000, Math.round(size.count / 10)));

/** A positive number from the environment variable `name`, or `fallback` when it is unset. */
export function numberFromEnvironment(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!(value > 0)) throw new Error(`${name} must be a positive number, got ${text}`);
  return value;
}

function sectionsFromEnvironment(name: string): ReadonlySet<Section> {
  const text = process.env[name];
  if (text === undefined || text === '') return new Set(SECTION_NAMES);
  const wanted = text.split(',').map((part) => part.trim());
  for (const section of wanted) {
    if (!(SECTION_NAMES as readonly string[]).includes(section)) {
      throw new Error(`${name}: unknown section "${section}" (known: ${SECTION_NAMES.join(', ')})`);
    }
  }
  return new Set(wanted as Section[]);
}

function directoryFromEnvironment(name: string): string | undefined {
  const text = process.env[name];
  return text === undefined || text === '' ? undefined : resolve(text);
}
