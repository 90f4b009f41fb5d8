import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Admin, Client, Fetch, Producer, type ProducerMessage } from '@weir/protocol';
import { FLUSH_MS, SERVER_START_TIMEOUT_MS, SERVER_STOP_TIMEOUT_MS } from '../broker/bench-config';
import { startServiceChild } from '../broker/run-child';
import { LatencyRecorder } from '../log/latency';

/**
 * Produce and fetch latency on a partition the cleaner leaves alone, with the cleaner idle and
 * then while it cleans another topic of the same broker (issue #19's target: p99 within 1.5× of
 * an idle cleaner). The broker runs in its own process; this process produces one 100-byte record
 * at a time (acks=1) and sends one Fetch at a time for 64 KiB at a random offset of a filled
 * partition, both at fixed rates on connections of their own, each latency measured from the operation's scheduled time so a
 * stall counts for every operation it delays.
 *
 * The cleaned topic is filled with cleanup.policy=delete, measured idle, then switched to
 * compact: the cleaner takes it up within its backoff and the cleaning phase lasts until the
 * partition is below half its size. All closed segments go into one cleaned segment (what survives
 * is a few MiB), so the size drops once, when the clean is done; the active segment stays.
 */

const run = promisify(execFile);

const TABLE_TOPIC = 'table';
const NEIGHBOUR_TOPIC = 'neighbour';
const KEYS = 100_000;
const VALUE_BYTES = 100;
const RECORDS_PER_SEND = 1_000;
const SENDS_IN_FLIGHT = 8;
const NEIGHBOUR_RECORDS = 200_000;
const PRODUCE_PER_SECOND = 200;
const FETCH_PER_SECOND = 200;
const FETCH_BYTES = 64 * 1024;
const IDLE_SECONDS = 5;
const SEGMENT_BYTES = 64 * 1024 * 1024;
const POLL_MS = 100;

export interface LatencyFigures {
  readonly produceP50Ms: number;
  readonly produceP99Ms: number;
  readonly fetchP50Ms: number;
  readonly fetchP99Ms: number;
  readonly operations: number;
  readonly seconds: number;
}

export interface NeighbourLatency {
  readonly idle: LatencyFigures;
  readonly cleaning: LatencyFigures;
  readonly tableBytesBefore: number;
  readonly tableBytesAfter: number;
}

export async function measureNeighbourLatency(tableBytes: number): Promise<NeighbourLatency> {
  const root = await mkdtemp(join(tmpdir(), 'weir-bench-neighbours-'));
  const dataDir = join(root, 'broker');
  await mkdir(dataDir);
  const service = await startServiceChild(
    'weir-broker',
    { dataDir, flushMs: FLUSH_MS, cleaner: { backoffMs: 200 } },
    SERVER_START_TIMEOUT_MS,
  );
  const bootstrap = `127.0.0.1:${service.value.port}`;
  const client = new Client({ bootstrapServers: [bootstrap] });
  const admin = new Admin(client);
  const producer = new Producer(client, { acks: 1 });
  try {
    await admin.createTopics([
      {
        name: TABLE_TOPIC,
        partitions: 1,
        configs: {
          'segment.bytes': String(SEGMENT_BYTES),
          'retention.ms': '-1',
          'min.cleanable.dirty.ratio': '0.1',
        },
      },
      { name: NEIGHBOUR_TOPIC, partitions: 1 },
    ]);
    await fillTable(producer, tableBytes);
    await fillNeighbour(producer);
    // The fill leaves hundreds of MiB for the kernel to write back; both phases start after it,
    // so neither measures the fill's writeback.
    await run('sync', []);
    const tableBytesBefore = await partitionBytes(admin);

    const idle = await measureWhile(bootstrap, idleFor(IDLE_SECONDS));
    await admin.incrementalAlterConfigs([
      {
        type: 'topic',
        name: TABLE_TOPIC,
        changes: [{ name: 'cleanup.policy', operation: 'set', value: 'compact' }],
      },
    ]);
    const cleaning = await measureWhile(bootstrap, async () => {
      for (;;) {
        if ((await partitionBytes(admin)) < tableBytesBefore / 2) return;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    });
    return { idle, cleaning, tableBytesBefore, tableBytesAfter: await partitionBytes(admin) };
  } finally {
    await producer.close();
    await client.close();
    await service.stop(SERVER_STOP_TIMEOUT_MS);
    await rm(root, { recursive: true, force: true });
  }
}

function idleFor(seconds: number): () => Promise<void> {
  return () => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
}

/** Keyed 100-byte records over KEYS keys, so most are superseded once the topic compacts. */
async function fillTable(producer: Producer, tableBytes: number): Promise<void> {
  const value = Buffer.alloc(VALUE_BYTES, 't');
  const sends = Math.ceil(tableBytes / (RECORDS_PER_SEND * (VALUE_BYTES + 12)));
  let next = 0;
  const worker = async () => {
    while (next < sends) {
      const send = next++;
      const messages: ProducerMessage[] = Array.from({ length: RECORDS_PER_SEND }, (_, index) => ({
        key: Buffer.from(`key-${(send * RECORDS_PER_SEND + index) % KEYS}`),
        value,
      }));
      await producer.send({ topic: TABLE_TOPIC, messages });
    }
  };
  await Promise.all(Array.from({ length: SENDS_IN_FLIGHT }, worker));
}

async function fillNeighbour(producer: Producer): Promise<void> {
  const value = Buffer.alloc(VALUE_BYTES, 'n');
  const messages: ProducerMessage[] = Array.from({ length: RECORDS_PER_SEND }, () => ({ value }));
  for (let sent = 0; sent < NEIGHBOUR_RECORDS; sent += RECORDS_PER_SEND) {
    await producer.send({ topic: NEIGHBOUR_TOPIC, messages });
  }
}

async function partitionBytes(admin: Admin): Promise<number> {
  const dirs = await admin.describeLogDirs(undefined, { topics: [{ topic: TABLE_TOPIC, partitions: [0] }] });
  let bytes = 0;
  for (const dir of dirs) for (const replica of dir.replicas) bytes += replica.sizeBytes;
  return bytes;
}

/** Runs the produce and fetch loops until `phase` settles; their latencies. */
async function measureWhile(bootstrap: string, phase: () => Promise<void>): Promise<LatencyFigures> {
  const produced = new LatencyRecorder();
  const fetched = new LatencyRecorder();
  let running = true;
  const value = Buffer.alloc(VALUE_BYTES, 'p');
  // Sends go out at once (no linger), and fetches on a client of their own, so neither waits for
  // the other's answers on a shared connection.
  const producerClient = new Client({ bootstrapServers: [bootstrap] });
  const producer = new Producer(producerClient, { acks: 1, lingerMs: 0 });
  const fetchClient = new Client({ bootstrapServers: [bootstrap] });
  const connection = await fetchClient.anyConnection();
  const startedMs = performance.now();
  const loops = Promise.all([
    fixedRate(
      PRODUCE_PER_SECOND,
      () => running,
      produced,
      async () => {
        await producer.send({ topic: NEIGHBOUR_TOPIC, messages: [{ value }] });
      },
    ),
    fixedRate(
      FETCH_PER_SECOND,
      () => running,
      fetched,
      async () => {
        const offset = BigInt(Math.floor(Math.random() * (NEIGHBOUR_RECORDS - 1_000)));
        const answer = await connection.send(Fetch, {
          replicaId: -1,
          maxWaitMs: 0,
          minBytes: 1,
          maxBytes: FETCH_BYTES,
          isolationLevel: 0,
          sessionId: 0,
          sessionEpoch: -1,
          topics: [
            {
              topic: NEIGHBOUR_TOPIC,
              partitions: [
                {
                  partition: 0,
                  currentLeaderEpoch: -1,
                  fetchOffset: offset,
                  logStartOffset: -1n,
                  partitionMaxBytes: FETCH_BYTES,
                },
              ],
            },
          ],
          forgottenTopicsData: [],
          rackId: '',
        });
        const partition = answer.responses[0]?.partitions[0];
        if (partition === undefined || partition.errorCode !== 0 || (partition.records?.length ?? 0) === 0)
          throw new Error(`the neighbour fetch at ${offset} failed: error ${partition?.errorCode}`);
      },
    ),
  ]);
  try {
    await phase();
  } finally {
    running = false;
    await loops;
    await producer.close();
    await producerClient.close();
    await fetchClient.close();
  }
  return {
    produceP50Ms: produced.percentileMs(50),
    produceP99Ms: produced.percentileMs(99),
    fetchP50Ms: fetched.percentileMs(50),
    fetchP99Ms: fetched.percentileMs(99),
    operations: produced.count + fetched.count,
    seconds: (performance.now() - startedMs) / 1000,
  };
}

/** Runs `operation` one at a time at `perSecond` while `running()`, recording scheduled-to-done latency. */
async function fixedRate(
  perSecond: number,
  running: () => boolean,
  recorder: LatencyRecorder,
  operation: () => Promise<void>,
): Promise<void> {
  const intervalMs = 1000 / perSecond;
  const startMs = performance.now();
  for (let index = 0; running(); index++) {
    const scheduledMs = startMs + index * intervalMs;
    const waitMs = scheduledMs - performance.now();
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
    await operation();
    recorder.record(performance.now() - scheduledMs);
  }
}
