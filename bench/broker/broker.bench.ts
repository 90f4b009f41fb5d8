import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Admin, Client } from '@weir/protocol';
import { type Column, formatCount, formatRate, formatTable } from '../harness/table';
import { medianBy } from '../log/median';
import { prefaultPageCache } from '../log/page-cache';
import { GIB, MB, MIB, sizeLabel } from '../log/units';
import { type ExternalServer, freePort, killLiveServers, startExternalServer } from './external-server';
import { runKcat, writeKcatInput } from './kcat';
import type { ClientRun } from './phase';
import { processCpuMs } from './proc-stat';
import { killLiveChildren, runChild, type ServiceChild, startServiceChild } from './run-child';
import type { LatencyRun } from './sdk-client';
import { judge, type Target, type Verdict } from './targets';

/**
 * Broker benchmark (issue 4, "Benchmark"): Weir over the Kafka protocol with our SDK, kafkajs and
 * kcat, next to NATS JetStream, Redis Streams and the floor (one Node process appending 64 KiB
 * writevs with an fdatasync every 100 ms), all started, measured and stopped by this script on
 * 127.0.0.1 under a temporary directory that is removed at the end. Every client and every server
 * runs in its own process, so client and server CPU are reported apart.
 *
 * Environment knobs, for a quicker run: BROKER_BENCH_SCALE (multiplies the record counts, default
 * 1: 1,000,000 × 100 B and 200,000 × 1 KiB), BROKER_BENCH_ROUNDS (SDK produce/consume runs per
 * row, the median is shown; default 3), BROKER_BENCH_LATENCY_SECONDS (default 5),
 * BROKER_BENCH_MAX_SECONDS (cap of one kafkajs/NATS/Redis publish run, default 20),
 * BROKER_BENCH_ONLY (comma list of sections: sdk, kafkajs, kcat, nats, redis, floor).
 */

const SCALE = numberFromEnvironment('BROKER_BENCH_SCALE', 1);
const ROUND_COUNT = Math.round(numberFromEnvironment('BROKER_BENCH_ROUNDS', 3));
const LATENCY_SECONDS = numberFromEnvironment('BROKER_BENCH_LATENCY_SECONDS', 5);
const MAX_SECONDS = numberFromEnvironment('BROKER_BENCH_MAX_SECONDS', 20);
const SECTION_NAMES = ['sdk', 'kafkajs', 'kcat', 'nats', 'redis', 'floor'] as const;
type Section = (typeof SECTION_NAMES)[number];
const SECTIONS = sectionsFromEnvironment('BROKER_BENCH_ONLY');

const PARTITION_COUNT = 6;
const FLUSH_MS = 100;
const RECORDS_PER_SEND = 1000;
/**
 * How many value bytes the SDK and kafkajs runs keep in unanswered `send` calls: the SDK
 * producer's default buffer (bufferBytes, 32 MiB), so its own backpressure is what paces it, as in
 * an application that sends without waiting for each answer.
 */
const SEND_WINDOW_BYTES = 32 * MIB;
const sendsInFlight = (size: Size): number =>
  Math.max(1, Math.floor(SEND_WINDOW_BYTES / (RECORDS_PER_SEND * size.valueBytes)));
const LATENCY_RATE_PER_SECOND = 10_000;
const LATENCY_VALUE_BYTES = 100;
/** Per-run timeouts: generous, only there so a hung client cannot stall the run. */
const CHILD_TIMEOUT_MS = 120_000;
const SERVER_START_TIMEOUT_MS = 30_000;
const SERVER_STOP_TIMEOUT_MS = 30_000;
/** The whole run is killed after this, children included, so it always stops by itself. */
const RUN_TIMEOUT_MS = 15 * 60_000;

interface Size {
  label: string;
  key: string;
  valueBytes: number;
  count: number;
}

const SIZES: Size[] = [
  { label: '100 B', key: '100b', valueBytes: 100, count: Math.max(1000, Math.round(1_000_000 * SCALE)) },
  { label: '1 KiB', key: '1kib', valueBytes: 1024, count: Math.max(1000, Math.round(200_000 * SCALE)) },
];
const ACKS = [
  { label: 'acks=1', key: 'acks1', acks: 1 as const },
  { label: 'acks=all', key: 'acksall', acks: -1 as const },
];

function numberFromEnvironment(name: string, fallback: number): number {
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

function progress(message: string): void {
  process.stderr.write(`[bench:broker] ${message}\n`);
}

/** A client run with the server's CPU over the same phase. */
interface Measured {
  records: number;
  payloadBytes: number;
  seconds: number;
  clientCpuMs: number;
  /** CPU the server used between the client's start and end marks, and how long that was. */
  serverCpuMs: number | undefined;
  serverSeconds: number | undefined;
}

const messagesPerSecond = (run: Measured): number => run.records / run.seconds;
const megabytesPerSecond = (run: Measured): number => run.payloadBytes / run.seconds / MB;

interface Row {
  system: string;
  workload: string;
  run?: Measured;
  latency?: LatencyRun;
  /** A row that could not be measured says why instead. */
  failure?: string;
  note?: string;
  target?: { label: string; verdict: Verdict | undefined };
}

const rows: Row[] = [];
const notes: string[] = [];
const missed: string[] = [];

function addRow(row: Row): Row {
  rows.push(row);
  return row;
}

/** Runs a client child while sampling the server's CPU at the child's start and end marks. */
async function measureClient(
  serverPid: number | undefined,
  start: (onMark: (label: 'start' | 'end') => void) => Promise<ClientRun>,
): Promise<Measured> {
  let startCpuMs = 0;
  let startMs = 0;
  let serverCpuMs: number | undefined;
  let serverSeconds: number | undefined;
  const run = await start((label) => {
    if (serverPid === undefined) return;
    if (label === 'start') {
      startCpuMs = processCpuMs(serverPid);
      startMs = performance.now();
    } else {
      serverCpuMs = processCpuMs(serverPid) - startCpuMs;
      serverSeconds = (performance.now() - startMs) / 1000;
    }
  });
  return { ...run, serverCpuMs, serverSeconds };
}

/** Bytes one produce run will add to the page cache (payload plus a generous per-record overhead). */
function expectedLogBytes(size: Size): number {
  return Math.min(GIB, size.count * (size.valueBytes + 64));
}

/** Before every timed write phase, as the floor does: see page-cache.ts for why. */
async function prefault(root: string, size: Size): Promise<void> {
  await prefaultPageCache(join(root, 'prefault.scratch'), expectedLogBytes(size));
}

async function attempt(system: string, workload: string, measure: () => Promise<Row>): Promise<Row> {
  try {
    return addRow(await measure());
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    progress(`${system} ${workload} failed: ${message}`);
    notes.push(`${system} ${workload} FAILED: ${message}`);
    return addRow({ system, workload, failure: message });
  }
}

// ---------------------------------------------------------------------------------------------
// Weir

interface WeirBroker {
  service: ServiceChild<{ port: number }>;
  bootstrap: string;
  client: Client;
  admin: Admin;
}

async function startWeir(root: string, name: string): Promise<WeirBroker> {
  const dataDir = join(root, name);
  await mkdir(dataDir, { recursive: true });
  const service = await startServiceChild(
    'weir-broker',
    { dataDir, flushMs: FLUSH_MS },
    SERVER_START_TIMEOUT_MS,
  );
  const bootstrap = `127.0.0.1:${service.value.port}`;
  const client = new Client({ bootstrapServers: [bootstrap] });
  return { service, bootstrap, client, admin: new Admin(client) };
}

async function stopWeir(root: string, name: string, weir: WeirBroker): Promise<void> {
  await weir.client.close();
  await weir.service.stop(SERVER_STOP_TIMEOUT_MS);
  await rm(join(root, name), { recursive: true, force: true });
}

async function createTopics(weir: WeirBroker, names: readonly string[]): Promise<void> {
  await weir.admin.createTopics(names.map((name) => ({ name, partitions: PARTITION_COUNT })));
}

/** Fails the run unless the topic holds exactly `count` records: a fast but lossy run is no result. */
async function verifyCount(weir: WeirBroker, topic: string, count: number): Promise<void> {
  const offsets = await weir.admin.topicOffsets(topic);
  const stored = offsets.reduce(
    (total, partition) => total + Number(partition.latest - partition.earliest),
    0,
  );
  if (stored !== count) throw new Error(`${topic} holds ${stored} records, ${count} were produced`);
}

const warmupCount = (size: Size): number => Math.min(50_000, Math.max(1000, Math.round(size.count / 10)));

async function measureSdk(root: string): Promise<void> {
  const weir = await startWeir(root, 'weir-sdk');
  try {
    for (const size of SIZES) {
      const warmupTopic = `sdk-${size.key}-warmup`;
      await createTopics(weir, [warmupTopic]);
      for (const acks of ACKS) {
        const workload = `produce ${size.label} ${acks.label}`;
        await attempt('Weir · SDK', workload, async () => {
          const runs: Measured[] = [];
          for (let round = 0; round < ROUND_COUNT; round++) {
            const topic = `sdk-${size.key}-${acks.key}-r${round}`;
            await createTopics(weir, [topic]);
            await prefault(root, size);
            progress(`SDK ${workload}, round ${round + 1}/${ROUND_COUNT}`);
            const run = await measureClient(weir.service.pid, (onMark) =>
              runChild(
                'sdk-produce',
                {
                  bootstrap: weir.bootstrap,
                  topic,
                  warmupTopic,
                  warmupCount: warmupCount(size),
                  count: size.count,
                  valueBytes: size.valueBytes,
                  acks: acks.acks,
                  recordsPerSend: RECORDS_PER_SEND,
                  sendsInFlight: sendsInFlight(size),
                },
                { timeoutMs: CHILD_TIMEOUT_MS, onMark },
              ),
            );
            await verifyCount(weir, topic, size.count);
            runs.push(run);
          }
          return medianRow('Weir · SDK', workload, runs);
        });
      }
      const workload = `consume ${size.label}`;
      await attempt('Weir · SDK', workload, async () => {
        const runs: Measured[] = [];
        for (let round = 0; round < ROUND_COUNT; round++) {
          progress(`SDK ${workload}, round ${round + 1}/${ROUND_COUNT}`);
          runs.push(
            await measureClient(weir.service.pid, (onMark) =>
              runChild(
                'sdk-consume',
                {
                  bootstrap: weir.bootstrap,
                  topic: `sdk-${size.key}-acks1-r${round}`,
                  warmupTopic,
                  warmupCount: warmupCount(size) * 2,
                  partitionCount: PARTITION_COUNT,
                  count: size.count,
                },
                { timeoutMs: CHILD_TIMEOUT_MS, onMark },
              ),
            ),
          );
        }
        return medianRow('Weir · SDK', workload, runs);
      });
    }
    for (const acks of ACKS) {
      const workload = `latency at ${formatCount(LATENCY_RATE_PER_SECOND)} msgs/s, ${LATENCY_VALUE_BYTES} B, ${acks.label}, lingerMs=0`;
      await attempt('Weir · SDK', workload, async () => {
        const topic = `latency-${acks.key}`;
        await createTopics(weir, [topic]);
        progress(`SDK ${workload}`);
        let serverCpuMs: number | undefined;
        let serverSeconds: number | undefined;
        let startCpuMs = 0;
        let startMs = 0;
        const latency = await runChild(
          'sdk-latency',
          {
            bootstrap: weir.bootstrap,
            topic,
            valueBytes: LATENCY_VALUE_BYTES,
            acks: acks.acks,
            ratePerSecond: LATENCY_RATE_PER_SECOND,
            warmupSeconds: 1,
            seconds: LATENCY_SECONDS,
          },
          {
            timeoutMs: CHILD_TIMEOUT_MS,
            onMark: (label) => {
              if (label === 'start') {
                startCpuMs = processCpuMs(weir.service.pid);
                startMs = performance.now();
              } else {
                serverCpuMs = processCpuMs(weir.service.pid) - startCpuMs;
                serverSeconds = (performance.now() - startMs) / 1000;
              }
            },
          },
        );
        const run: Measured = {
          records: latency.sent,
          payloadBytes: latency.sent * LATENCY_VALUE_BYTES,
          seconds: latency.seconds,
          clientCpuMs: latency.clientCpuMs,
          serverCpuMs,
          serverSeconds,
        };
        notes.push(
          `Latency ${acks.label}: ${formatCount(latency.sent)} sends at ${formatRate(latency.achievedPerSecond)}/s ` +
            `achieved, max ${latency.maxMs.toFixed(2)} ms.`,
        );
        return { system: 'Weir · SDK', workload, run, latency };
      });
    }
  } finally {
    await stopWeir(root, 'weir-sdk', weir);
  }
}

function medianRow(system: string, workload: string, runs: Measured[]): Row {
  const median = medianBy(runs, messagesPerSecond)!;
  if (runs.length > 1) {
    notes.push(
      `${system} ${workload}: median of ${runs.length} runs; msgs/s of each: ` +
        runs.map((run) => formatCount(messagesPerSecond(run))).join(', '),
    );
  }
  return { system, workload, run: median };
}

async function measureKafkajs(root: string): Promise<void> {
  const weir = await startWeir(root, 'weir-kafkajs');
  try {
    for (const size of SIZES) {
      const warmupTopic = `kafkajs-${size.key}-warmup`;
      await createTopics(weir, [warmupTopic]);
      const produced = new Map<string, number>();
      for (const acks of ACKS) {
        const workload = `produce ${size.label} ${acks.label}`;
        await attempt('Weir · kafkajs', workload, async () => {
          const topic = `kafkajs-${size.key}-${acks.key}`;
          await createTopics(weir, [topic]);
          await prefault(root, size);
          progress(`kafkajs ${workload}`);
          const run = await measureClient(weir.service.pid, (onMark) =>
            runChild(
              'kafkajs-produce',
              {
                bootstrap: weir.bootstrap,
                topic,
                warmupTopic,
                warmupCount: warmupCount(size),
                count: size.count,
                valueBytes: size.valueBytes,
                acks: acks.acks,
                recordsPerSend: RECORDS_PER_SEND,
                sendsInFlight: sendsInFlight(size),
                maxSeconds: MAX_SECONDS,
              },
              { timeoutMs: CHILD_TIMEOUT_MS, onMark },
            ),
          );
          await verifyCount(weir, topic, run.records);
          produced.set(topic, run.records);
          return { system: 'Weir · kafkajs', workload, run, note: cappedNote(run, size) };
        });
      }
      const workload = `consume ${size.label}`;
      const topic = `kafkajs-${size.key}-acks1`;
      const count = produced.get(topic);
      if (count === undefined) continue;
      await attempt('Weir · kafkajs', workload, async () => {
        progress(`kafkajs ${workload}`);
        const run = await measureClient(weir.service.pid, (onMark) =>
          runChild(
            'kafkajs-consume',
            { bootstrap: weir.bootstrap, topic, count, groupId: `bench-${size.key}` },
            { timeoutMs: CHILD_TIMEOUT_MS, onMark },
          ),
        );
        return { system: 'Weir · kafkajs', workload, run };
      });
    }
  } finally {
    await stopWeir(root, 'weir-kafkajs', weir);
  }
}

function cappedNote(run: Measured, size: Size): string | undefined {
  return run.records < size.count ? `capped at ${MAX_SECONDS} s` : undefined;
}

async function measureKcat(root: string): Promise<void> {
  const weir = await startWeir(root, 'weir-kcat');
  try {
    for (const size of SIZES) {
      const input = join(root, `kcat-${size.key}.txt`);
      await writeKcatInput(input, size.count, size.valueBytes);
      for (const acks of ACKS) {
        const workload = `produce ${size.label} ${acks.label}`;
        await attempt('Weir · kcat', workload, async () => {
          const topic = `kcat-${size.key}-${acks.key}`;
          await createTopics(weir, [topic]);
          await prefault(root, size);
          progress(`kcat ${workload}`);
          const run = await measureKcatRun(weir, size, [
            '-P',
            '-b',
            weir.bootstrap,
            '-t',
            topic,
            '-X',
            `acks=${acks.acks === -1 ? 'all' : '1'}`,
            '-l',
            input,
          ]);
          await verifyCount(weir, topic, size.count);
          return { system: 'Weir · kcat', workload, run };
        });
      }
      await rm(input, { force: true });
      const workload = `consume ${size.label}`;
      await attempt('Weir · kcat', workload, async () => {
        progress(`kcat ${workload}`);
        const run = await measureKcatRun(weir, size, [
          '-C',
          '-b',
          weir.bootstrap,
          '-t',
          `kcat-${size.key}-acks1`,
          '-o',
          'beginning',
          '-e',
          '-q',
          '-c',
          String(size.count),
        ]);
        return { system: 'Weir · kcat', workload, run };
      });
    }
  } finally {
    await stopWeir(root, 'weir-kcat', weir);
  }
}

async function measureKcatRun(weir: WeirBroker, size: Size, args: string[]): Promise<Measured> {
  let startCpuMs = 0;
  let serverCpuMs = 0;
  const run = await runKcat(args, CHILD_TIMEOUT_MS, {
    onStart: () => {
      startCpuMs = processCpuMs(weir.service.pid);
    },
    onEnd: () => {
      serverCpuMs = processCpuMs(weir.service.pid) - startCpuMs;
    },
  });
  return {
    records: size.count,
    payloadBytes: size.count * size.valueBytes,
    seconds: run.seconds,
    clientCpuMs: run.clientCpuMs,
    serverCpuMs,
    serverSeconds: run.seconds,
  };
}

// ---------------------------------------------------------------------------------------------
// Baselines

/** The best baseline per size and direction, for the targets. */
const baselines = {
  publish: new Map<string, { system: string; msgsPerSecond: number }>(),
  consume: new Map<string, { system: string; msgsPerSecond: number }>(),
};

function noteBaseline(kind: 'publish' | 'consume', size: Size, system: string, run: Measured): void {
  const best = baselines[kind].get(size.key);
  const rate = messagesPerSecond(run);
  if (best === undefined || rate > best.msgsPerSecond)
    baselines[kind].set(size.key, { system, msgsPerSecond: rate });
}

async function withServer(
  start: () => Promise<ExternalServer>,
  use: (server: ExternalServer) => Promise<void>,
): Promise<void> {
  const server = await start();
  try {
    await use(server);
  } finally {
    await server.stop(SERVER_STOP_TIMEOUT_MS);
  }
}

async function measureNats(root: string): Promise<void> {
  const system = 'NATS JetStream';
  const directory = join(root, 'nats');
  await mkdir(directory, { recursive: true });
  const port = await freePort();
  await withServer(
    () =>
      startExternalServer(
        'nats-server',
        ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', directory],
        port,
        SERVER_START_TIMEOUT_MS,
      ),
    async (server) => {
      for (const size of SIZES) {
        const stream = `BENCH_${size.key.toUpperCase()}`;
        let published: number | undefined;
        const workload = `publish ${size.label}`;
        await attempt(system, workload, async () => {
          await prefault(root, size);
          progress(`NATS ${workload}`);
          const run = await measureClient(server.pid, (onMark) =>
            runChild(
              'nats-publish',
              {
                port,
                stream,
                count: size.count,
                valueBytes: size.valueBytes,
                warmupCount: warmupCount(size),
                publishesInFlight: 1024,
                maxSeconds: MAX_SECONDS,
              },
              { timeoutMs: CHILD_TIMEOUT_MS, onMark },
            ),
          );
          published = run.records;
          noteBaseline('publish', size, system, run);
          return { system, workload, run, note: cappedNote(run, size) };
        });
        if (published === undefined) continue;
        const count = published;
        await attempt(system, `consume ${size.label}`, async () => {
          progress(`NATS consume ${size.label}`);
          const run = await measureClient(server.pid, (onMark) =>
            runChild('nats-consume', { port, stream, count }, { timeoutMs: CHILD_TIMEOUT_MS, onMark }),
          );
          noteBaseline('consume', size, system, run);
          return { system, workload: `consume ${size.label}`, run };
        });
      }
    },
  );
  await rm(directory, { recursive: true, force: true });
}

async function measureRedis(root: string): Promise<void> {
  const system = 'Redis Streams';
  const directory = join(root, 'redis');
  await mkdir(directory, { recursive: true });
  const port = await freePort();
  await withServer(
    () =>
      startExternalServer(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--dir',
          directory,
          '--appendonly',
          'yes',
          '--appendfsync',
          'everysec',
          '--save',
          '',
          '--daemonize',
          'no',
          '--logfile',
          '',
        ],
        port,
        SERVER_START_TIMEOUT_MS,
      ),
    async (server) => {
      for (const size of SIZES) {
        const stream = `bench-${size.key}`;
        let added: number | undefined;
        const workload = `pipelined XADD ${size.label}`;
        await attempt(system, workload, async () => {
          await prefault(root, size);
          progress(`Redis ${workload}`);
          const run = await measureClient(server.pid, (onMark) =>
            runChild(
              'redis-add',
              {
                port,
                stream,
                count: size.count,
                valueBytes: size.valueBytes,
                warmupCount: warmupCount(size),
                commandsPerPipeline: 1000,
                pipelinesInFlight: 4,
                maxSeconds: MAX_SECONDS,
              },
              { timeoutMs: CHILD_TIMEOUT_MS, onMark },
            ),
          );
          added = run.records;
          noteBaseline('publish', size, system, run);
          return { system, workload, run, note: cappedNote(run, size) };
        });
        if (added === undefined) continue;
        const count = added;
        await attempt(system, `XREAD ${size.label}`, async () => {
          progress(`Redis XREAD ${size.label}`);
          const run = await measureClient(server.pid, (onMark) =>
            runChild(
              'redis-read',
              { port, stream, count, recordsPerRead: 5000 },
              { timeoutMs: CHILD_TIMEOUT_MS, onMark },
            ),
          );
          noteBaseline('consume', size, system, run);
          return { system, workload: `XREAD ${size.label}`, run };
        });
      }
    },
  );
  await rm(directory, { recursive: true, force: true });
}

let floorBytesPerSecond: number | undefined;

async function measureFloorRow(root: string): Promise<void> {
  const workload = 'writev 64 KiB + fdatasync/100 ms';
  await attempt('floor (one Node process)', workload, async () => {
    progress(`floor: ${workload}`);
    const floor = await runChild(
      'floor',
      { path: join(root, 'floor.log'), warmupMs: 300, durationMs: 4000, maxBytes: GIB },
      { timeoutMs: CHILD_TIMEOUT_MS },
    );
    floorBytesPerSecond = floor.bytesPerSecond;
    const seconds = floor.bytes / floor.bytesPerSecond;
    return {
      system: 'floor (one Node process)',
      workload,
      run: {
        records: floor.bytes / (64 * 1024),
        payloadBytes: floor.bytes,
        seconds,
        clientCpuMs: Number.NaN,
        serverCpuMs: undefined,
        serverSeconds: undefined,
      },
      note: 'records = 64 KiB writes',
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Targets and the table

function findRow(system: string, workload: string): Row | undefined {
  return rows.find((row) => row.system === system && row.workload === workload && row.run !== undefined);
}

function setTarget(
  row: Row | undefined,
  label: string,
  measured: number | undefined,
  target: Target | undefined,
) {
  if (row === undefined) return;
  const verdict = measured !== undefined && target !== undefined ? judge(measured, target) : undefined;
  row.target = { label, verdict };
  if (verdict && !verdict.met) missed.push(`${row.system} ${row.workload}`);
}

function attachTargets(): void {
  const small = SIZES[0]!;
  const large = SIZES[1]!;
  const sdk = 'Weir · SDK';
  const bestPublish = baselines.publish.get(small.key);
  const produceSmall = findRow(sdk, `produce ${small.label} acks=1`);
  setTarget(
    produceSmall,
    '≥ 5 × best baseline publish',
    produceSmall?.run && messagesPerSecond(produceSmall.run),
    bestPublish && {
      kind: 'at-least',
      threshold: 5 * bestPublish.msgsPerSecond,
      reference: `${bestPublish.system} publish`,
      referenceValue: bestPublish.msgsPerSecond,
    },
  );
  const produceLarge = findRow(sdk, `produce ${large.label} acks=1`);
  setTarget(
    produceLarge,
    '≥ 0.60 × floor MB/s',
    produceLarge?.run && megabytesPerSecond(produceLarge.run) * MB,
    floorBytesPerSecond === undefined
      ? undefined
      : {
          kind: 'at-least',
          threshold: 0.6 * floorBytesPerSecond,
          reference: 'floor',
          referenceValue: floorBytesPerSecond,
        },
  );
  for (const size of SIZES) {
    const flushed = findRow(sdk, `produce ${size.label} acks=1`);
    const durable = findRow(sdk, `produce ${size.label} acks=all`);
    setTarget(
      durable,
      '≥ 0.50 × acks=1',
      durable?.run && messagesPerSecond(durable.run),
      flushed?.run && {
        kind: 'at-least',
        threshold: 0.5 * messagesPerSecond(flushed.run),
        reference: 'acks=1',
        referenceValue: messagesPerSecond(flushed.run),
      },
    );
    const consume = findRow(sdk, `consume ${size.label}`);
    const bestConsume = baselines.consume.get(size.key);
    setTarget(
      consume,
      '≥ 3 × best baseline consume',
      consume?.run && messagesPerSecond(consume.run),
      bestConsume && {
        kind: 'at-least',
        threshold: 3 * bestConsume.msgsPerSecond,
        reference: `${bestConsume.system} consume`,
        referenceValue: bestConsume.msgsPerSecond,
      },
    );
  }
  const latency = rows.find((row) => row.system === sdk && row.latency && row.workload.includes('acks=1'));
  setTarget(latency, 'p99 ≤ 1 ms', latency?.latency?.p99Ms, {
    kind: 'at-most',
    threshold: 1,
    reference: 'target',
    referenceValue: 1,
  });
}

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
  { title: 'target' },
  { title: 'ratio', alignRight: true },
  { title: 'status' },
];

const percentOfCore = (cpuMs: number | undefined, seconds: number | undefined): string =>
  cpuMs === undefined || seconds === undefined || Number.isNaN(cpuMs)
    ? ''
    : `${Math.round(cpuMs / seconds / 10)}%`;

function formatRow(row: Row): string[] {
  const { run, latency, target } = row;
  const verdict = target?.verdict;
  const status = target === undefined ? '' : verdict === undefined ? 'n/a' : verdict.met ? 'met' : 'MISSED';
  const workload = row.note ? `${row.workload} (${row.note})` : row.workload;
  if (row.failure !== undefined) return [row.system, workload, '', '', '', '', '', '', '', '', '', 'FAILED'];
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
    target?.label ?? '',
    verdict?.ratio ?? '',
    status,
  ];
}

async function main(root: string): Promise<void> {
  if (SECTIONS.has('floor')) await measureFloorRow(root);
  if (SECTIONS.has('sdk')) await measureSdk(root);
  if (SECTIONS.has('kafkajs')) await measureKafkajs(root);
  if (SECTIONS.has('kcat')) await measureKcat(root);
  if (SECTIONS.has('nats')) await measureNats(root);
  if (SECTIONS.has('redis')) await measureRedis(root);
  attachTargets();
}

const startedMs = Date.now();
// Other work on a shared machine skews every row; the load averages tell the reader whether it did.
const loadAtStart = os.loadavg()[0]!;
const root = await mkdtemp(join(os.tmpdir(), 'weir-broker-bench-'));
const abort = (reason: string): never => {
  killLiveChildren();
  killLiveServers();
  rmSync(root, { recursive: true, force: true });
  process.stderr.write(`[bench:broker] aborted: ${reason}\n`);
  process.exit(2);
};
setTimeout(() => abort(`still running after ${RUN_TIMEOUT_MS / 60_000} min`), RUN_TIMEOUT_MS).unref();
process.on('SIGINT', () => abort('interrupted'));
process.on('SIGTERM', () => abort('terminated'));

try {
  await main(root);
} catch (error) {
  killLiveChildren();
  killLiveServers();
  throw error;
} finally {
  await rm(root, { recursive: true, force: true });
}

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
    'broker (or NATS/Redis) process.\n',
);
console.log(formatTable(columns, rows.map(formatRow)));
console.log('');
for (const note of notes) console.log(note);
console.log(missed.length === 0 ? '\nAll targets met.' : `\nMissed: ${missed.join('; ')}.`);
console.log(`(${((Date.now() - startedMs) / 1000).toFixed(1)} s)`);
