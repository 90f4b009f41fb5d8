// Debian's Burrow 1.2.1 (package burrow, installed by scripts/ensure-system-deps.sh), LinkedIn's
// consumer lag monitor, as a child process of the test: one Kafka cluster module (broker offsets
// by ListOffsets), one Kafka consumer module (reads __consumer_offsets from the oldest offset),
// in-memory storage, the caching evaluator and its HTTP API on a port it picks, stopped by PID.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type TemporaryDirectory, temporaryDirectory } from '@weir/test-broker';
import { SupervisedProcess } from './cluster/supervised-process';

const BURROW_BINARY = '/usr/bin/Burrow';
/** Connecting to ZooKeeper and the broker and opening the HTTP listener; about 1 s when quiet. */
const START_TIMEOUT_MS = 30_000;

/** Why the Burrow tests cannot run here, or undefined when they can. */
export const BURROW_MISSING_REASON: string | undefined = existsSync(BURROW_BINARY)
  ? undefined
  : `skipped: ${BURROW_BINARY} is not installed; scripts/ensure-system-deps.sh installs burrow`;

export interface BurrowOptions {
  /** The name Burrow gives the Kafka cluster, the `<cluster>` of its HTTP paths. */
  clusterName: string;
  /** `host:port` of the broker. */
  bootstrap: string;
  /** `host:port` of the ZooKeeper Burrow keeps its own state in. */
  zookeeper: string;
  /**
   * The client profile's kafka-version (Sarama's protocol level); undefined leaves it out, and
   * Burrow then uses its default, 0.8 (Sarama's V0_8_2_0).
   */
  kafkaVersion?: string;
}

/** One partition of a group as Burrow's `/lag` reports it (its PartitionStatus). */
export interface BurrowPartitionStatus {
  topic: string;
  partition: number;
  status: string;
  start: { offset: number; timestamp: number; lag: number } | null;
  end: { offset: number; timestamp: number; lag: number } | null;
  current_lag: number;
}

/** A group as Burrow's `/lag` reports it (its ConsumerGroupStatus). */
export interface BurrowGroupStatus {
  cluster: string;
  group: string;
  status: string;
  partition_count: number;
  partitions: BurrowPartitionStatus[];
  totallag: number;
}

/** A Burrow the test started; `stop()` ends it and removes its directory. */
export interface RunningBurrow {
  /** `http://127.0.0.1:<port>` of its HTTP API. */
  readonly url: string;
  readonly process: SupervisedProcess;
  /** Every warning and error Burrow has logged since it started, as its JSON log lines. */
  warnings(): string[];
  /**
   * `GET /v3/kafka/<cluster>/consumer/<group>/lag`: the group's status with every partition, or
   * undefined while Burrow answers 404 (it does not know the group yet).
   */
  groupLag(group: string): Promise<BurrowGroupStatus | undefined>;
  /** `GET /v3/kafka/<cluster>/topic`: the topics Burrow has broker offsets for. */
  topics(): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * Writes a burrow.toml into a fresh directory and starts Burrow on it; resolves once its HTTP
 * listener is open (it opens it after it has connected to ZooKeeper and before the Kafka modules
 * start, so the modules may still be connecting).
 */
export async function startBurrow(options: BurrowOptions): Promise<RunningBurrow> {
  const directory = await temporaryDirectory('weir-burrow-');
  let burrow: SupervisedProcess | undefined;
  try {
    await writeFile(join(directory.path, 'burrow.toml'), burrowConfig(options, directory));
    // Burrow reads every BURROW_* variable as an override of its configuration (viper's
    // AutomaticEnv with the "burrow" prefix); an inherited one would silently change the file's.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.toUpperCase().startsWith('BURROW_')),
    ) as NodeJS.ProcessEnv;
    const child = spawn(BURROW_BINARY, ['-config-dir', directory.path], {
      cwd: directory.path,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    burrow = new SupervisedProcess('burrow', child);
    const running = burrow;
    // Kept apart from the process's last lines, which a long run would push warnings out of.
    const warnings: string[] = [];
    running.onLine((text) => {
      if (/"level":"(warn|error|dpanic|panic|fatal)"/.test(text)) warnings.push(text);
    });
    const line = await running.waitForLine(
      (text) => text.includes('"started listener"'),
      START_TIMEOUT_MS,
      'its HTTP listener started',
    );
    const listener = (JSON.parse(line) as { listener?: string }).listener;
    if (listener === undefined) throw new Error(`no listener address in Burrow's line: ${line}`);
    const url = `http://${listener}`;
    const cluster = encodeURIComponent(options.clusterName);
    return {
      url,
      process: running,
      warnings: () => [...warnings],
      async groupLag(group) {
        const response = await fetch(`${url}/v3/kafka/${cluster}/consumer/${encodeURIComponent(group)}/lag`, {
          signal: AbortSignal.timeout(5_000),
        });
        if (response.status === 404) return undefined;
        if (!response.ok) throw new Error(`Burrow answered ${response.status}: ${await response.text()}`);
        return ((await response.json()) as { status: BurrowGroupStatus }).status;
      },
      async topics() {
        const response = await fetch(`${url}/v3/kafka/${cluster}/topic`, {
          signal: AbortSignal.timeout(5_000),
        });
        if (!response.ok) throw new Error(`Burrow answered ${response.status}: ${await response.text()}`);
        return ((await response.json()) as { topics: string[] | null }).topics ?? [];
      },
      async stop() {
        await running.stop();
        await directory.cleanup();
      },
    };
  } catch (error) {
    await burrow?.kill9();
    await directory.cleanup();
    throw error;
  }
}

/**
 * Burrow 1.2's configuration (TOML, the sections of the package's /etc/burrow/burrow.toml), set
 * for a test: everything in the temporary directory, logs on stdout (no `logging.filename`), and
 * refresh intervals of a second so a change shows within one.
 */
function burrowConfig(options: BurrowOptions, directory: TemporaryDirectory): string {
  const quote = (value: string) => JSON.stringify(value);
  const profile = [
    '[client-profile.test]',
    'client-id="burrow-weir-test"',
    ...(options.kafkaVersion === undefined ? [] : [`kafka-version=${quote(options.kafkaVersion)}`]),
  ];
  return [
    '[general]',
    `pidfile=${quote(join(directory.path, 'burrow.pid'))}`,
    '',
    '[logging]',
    'level="info"',
    '',
    '[zookeeper]',
    `servers=[${quote(options.zookeeper)}]`,
    'timeout=6',
    'root-path="/burrow"',
    '',
    ...profile,
    '',
    `[cluster.${options.clusterName}]`,
    'class-name="kafka"',
    `servers=[${quote(options.bootstrap)}]`,
    'client-profile="test"',
    // Seconds. Broker offsets (ListOffsets for every partition) each second, the topic list too.
    'topic-refresh=1',
    'offset-refresh=1',
    '',
    `[consumer.${options.clusterName}]`,
    'class-name="kafka"',
    `cluster=${quote(options.clusterName)}`,
    `servers=[${quote(options.bootstrap)}]`,
    'client-profile="test"',
    '',
    '[httpserver.default]',
    'address="127.0.0.1:0"',
    '',
    '[storage.default]',
    'class-name="inmemory"',
    // One worker handles every storage request in the order they arrive. With several, a broker
    // offset goes to a random worker and a commit to its group's, so a commit read right after
    // start could be handled before its partition's broker offset and be dropped ("no topic").
    'workers=1',
    'intervals=10',
    'expire-group=604800',
    'min-distance=1',
    '',
    '[evaluator.default]',
    'class-name="caching"',
    // Seconds a group's evaluated status is cached; the default 10 would hide a new commit that long.
    'expire-cache=1',
    '',
  ].join('\n');
}
