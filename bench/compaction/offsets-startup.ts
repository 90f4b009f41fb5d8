import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Admin, Client } from '@weir/protocol';
import {
  type ChildBroker,
  startChildBroker,
  stopChildBroker,
} from '../../apps/broker/test/broker-child-process';
import {
  offsetsTopicEnds,
  offsetsTopicRecords,
  replayedOffsetsRecords,
  rollOffsetsSegmentsEverySecond,
  waitForOffsetsCompacted,
  waitForOffsetsSegmentsClosed,
  writeOffsetCommits,
} from '../../apps/broker/test/offsets-commit-load';
import { runBenchMain } from '../harness/run-bench-main';
import { type Column, formatCount, formatRate, formatTable } from '../harness/table';

/**
 * Start-up after offset commits, compacted against not (issue #19: "start-up time of a broker
 * after 1,000,000 offset commits, compacted vs not"). A broker in its own process
 * (apps/broker/test/fixtures/broker-child.ts) takes `commits` offset commits from `groups` groups
 * through the SDK, many to a request, with the cleaner off. Its start is then timed, from spawning
 * the process to its `ready` line (broker.start() has then replayed every `__consumer_offsets`
 * partition: docs/architecture.md §6.3), three ways: on a data directory with no commits (the
 * floor: process, tsx and the broker's own start), on the uncompacted commits, and once a run
 * with the cleaner on has compacted `__consumer_offsets` to its end. The compacted and uncompacted
 * starts run with the cleaner off, so they differ only in the data. Each start is taken
 * `repeats` times, in turn with the floor's, and the median kept, with the records the
 * coordinator says it replayed.
 *
 * Run as main: `npx tsx bench/compaction/offsets-startup.ts --commits 1000000 --groups 1000`.
 */

const TOPIC = 'orders';

export interface OffsetsStartupOptions {
  readonly commits: number;
  readonly groups: number;
  /** Partitions of the committed topic each group commits to, in turn (default 4). */
  readonly partitionsPerGroup?: number;
  /** `__consumer_offsets` partitions (default 50, Kafka's offsets.topic.num.partitions). */
  readonly offsetsTopicPartitions?: number;
  /** Starts timed per data directory; the median is reported (default 3). */
  readonly repeats?: number;
}

/** One kind of start: its median time and what the group coordinator replayed. */
export interface StartupMeasurement {
  readonly startMs: number;
  readonly replayedRecords: number;
}

export interface OffsetsStartupResult {
  readonly commits: number;
  readonly groups: number;
  /** Records left in `__consumer_offsets` after compaction (kcat's count). */
  readonly survivingRecords: number;
  readonly writeSeconds: number;
  /** From the cleaner's broker being ready to every partition cleaned to its end. */
  readonly compactSeconds: number;
  readonly empty: StartupMeasurement;
  readonly uncompacted: StartupMeasurement;
  readonly compacted: StartupMeasurement;
  /** The whole measurement, writes and every start included. */
  readonly totalSeconds: number;
}

function brokerConfig(dataDir: string, offsetsTopicPartitions: number, cleaner: boolean) {
  return {
    dataDir,
    listeners: { client: { host: '127.0.0.1', port: 0 }, internal: { enabled: false } },
    topics: { autoCreateEnable: false },
    groups: { offsetsTopicPartitions },
    log: { cleaner: { enable: cleaner, backoffMs: 100 } },
    logging: { level: 'info' },
  };
}

/** A start long enough for a replay of millions of records on a busy machine. */
const START_TIMEOUT_MS = 180_000;

async function startLogged(
  config: Record<string, unknown>,
): Promise<{ broker: ChildBroker; startMs: number }> {
  const startedAt = performance.now();
  const broker = await startChildBroker(config, { log: true, startTimeoutMs: START_TIMEOUT_MS });
  const startMs = performance.now() - startedAt;
  // The replay lines are written during the start but may be read after the `ready` line.
  await broker.log!.waitFor((line) => line.msg === 'broker started', 'the start to be logged');
  return { broker, startMs };
}

/**
 * Starts a broker on each config in turn, `repeats` rounds, stopping it each time; every start of
 * each. Taking them in turn spreads whatever else the machine does over all of them.
 */
async function timeStarts(
  configs: readonly Record<string, unknown>[],
  repeats: number,
): Promise<StartupMeasurement[][]> {
  const runs: StartupMeasurement[][] = configs.map(() => []);
  for (let repeat = 0; repeat < repeats; repeat++) {
    for (const [index, config] of configs.entries()) {
      const { broker, startMs } = await startLogged(config);
      try {
        runs[index]!.push({
          startMs,
          replayedRecords: replayedOffsetsRecords(broker.log!.entries()).records,
        });
      } finally {
        await stopChildBroker(broker);
      }
    }
  }
  return runs;
}

/** The run with the median start time. */
function median(runs: readonly StartupMeasurement[]): StartupMeasurement {
  const sorted = [...runs].sort((left, right) => left.startMs - right.startMs);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

async function withClient<T>(
  broker: ChildBroker,
  work: (client: Client, admin: Admin) => Promise<T>,
): Promise<T> {
  const client = new Client({ bootstrapServers: [`127.0.0.1:${broker.port}`] });
  try {
    return await work(client, new Admin(client));
  } finally {
    await client.close();
  }
}

/**
 * Writes the commits, then times the three starts (see the module comment). The data
 * directories are temporary and removed at the end.
 */
export async function measureOffsetsStartup(options: OffsetsStartupOptions): Promise<OffsetsStartupResult> {
  const began = performance.now();
  const partitionsPerGroup = options.partitionsPerGroup ?? 4;
  const offsetsTopicPartitions = options.offsetsTopicPartitions ?? 50;
  const repeats = options.repeats ?? 3;
  const emptyDir = await mkdtemp(join(tmpdir(), 'weir-bench-offsets-empty-'));
  const dataDir = await mkdtemp(join(tmpdir(), 'weir-bench-offsets-'));
  try {
    const uncleaned = brokerConfig(dataDir, offsetsTopicPartitions, false);
    // The floor: a broker whose first start created `__consumer_offsets`, started again.
    const emptyConfig = brokerConfig(emptyDir, offsetsTopicPartitions, false);
    await stopChildBroker((await startLogged(emptyConfig)).broker);

    const writer = (await startLogged(uncleaned)).broker;
    let ends: Map<number, number>;
    let writeSeconds: number;
    try {
      ({ ends, writeSeconds } = await withClient(writer, async (client, admin) => {
        await admin.createTopics([{ name: TOPIC, partitions: partitionsPerGroup, replicationFactor: 1 }]);
        await rollOffsetsSegmentsEverySecond(admin);
        const writeStarted = performance.now();
        await writeOffsetCommits(client, {
          topic: TOPIC,
          groups: options.groups,
          commits: options.commits,
          partitionsPerGroup,
        });
        return {
          writeSeconds: (performance.now() - writeStarted) / 1000,
          ends: await offsetsTopicEnds(admin),
        };
      }));
      // The cleaner never cleans an active segment: the commits must all be in closed ones.
      await waitForOffsetsSegmentsClosed(dataDir, ends);
    } finally {
      await stopChildBroker(writer);
    }
    const written = [...ends.values()].reduce((sum, end) => sum + end, 0);
    if (written !== options.commits)
      throw new Error(`${written} records written for ${options.commits} commits`);

    const [uncompacted, emptyBefore] = await timeStarts([uncleaned, emptyConfig], repeats);

    const cleaner = await startLogged(brokerConfig(dataDir, offsetsTopicPartitions, true));
    let compactSeconds: number;
    let survivingRecords: number;
    try {
      const compactStarted = performance.now();
      await waitForOffsetsCompacted(() => cleaner.broker.log!.entries(), ends, 240_000);
      compactSeconds = (performance.now() - compactStarted) / 1000;
      survivingRecords = await offsetsTopicRecords(`127.0.0.1:${cleaner.broker.port}`);
    } finally {
      await stopChildBroker(cleaner.broker);
    }

    const [compacted, emptyAfter] = await timeStarts([uncleaned, emptyConfig], repeats);
    return {
      commits: options.commits,
      groups: options.groups,
      survivingRecords,
      writeSeconds,
      compactSeconds,
      // The floor is taken beside both, so its median spans the same stretch of the run.
      empty: median([...emptyBefore!, ...emptyAfter!]),
      uncompacted: median(uncompacted!),
      compacted: median(compacted!),
      totalSeconds: (performance.now() - began) / 1000,
    };
  } finally {
    await rm(emptyDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The result as the bench's table: one row per kind of start, against the empty floor. */
export function formatOffsetsStartup(result: OffsetsStartupResult): string {
  const columns: Column[] = [
    { title: 'start after', alignRight: false },
    { title: 'ms to ready', alignRight: true },
    { title: 'minus floor', alignRight: true },
    { title: 'records replayed', alignRight: true },
  ];
  const row = (title: string, measured: StartupMeasurement) => [
    title,
    formatCount(measured.startMs),
    formatCount(Math.max(0, measured.startMs - result.empty.startMs)),
    formatCount(measured.replayedRecords),
  ];
  const commits = `${formatCount(result.commits)} commits to ${formatCount(result.groups)} groups`;
  return [
    formatTable(columns, [
      row('no commits (floor)', result.empty),
      row(`${commits}, uncompacted`, result.uncompacted),
      row(`${commits}, compacted`, result.compacted),
    ]),
    `written in ${formatRate(result.writeSeconds)} s, compacted to ${formatCount(result.survivingRecords)} records in ${formatRate(result.compactSeconds)} s; measured in ${formatRate(result.totalSeconds)} s`,
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      commits: { type: 'string', default: '1000000' },
      groups: { type: 'string', default: '1000' },
      'partitions-per-group': { type: 'string', default: '4' },
      repeats: { type: 'string', default: '3' },
    },
  });
  const result = await measureOffsetsStartup({
    commits: Number(values.commits),
    groups: Number(values.groups),
    partitionsPerGroup: Number(values['partitions-per-group']),
    repeats: Number(values.repeats),
  });
  console.log(formatOffsetsStartup(result));
}

// The brokers are children on a stdin pipe: they stop when this process exits, whatever the way.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runBenchMain(main, { name: 'compaction offsets-startup', timeoutMs: 10 * 60_000, killing: 'the brokers' });
}
