import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import {
  CreateTopics,
  decodeRecordBatch,
  decodeResponseFrame,
  encodeRequestFrame,
  Fetch,
  FrameDecoder,
  Produce,
  type RequestOf,
  splitBatches,
} from '@weir/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildBroker, memoryOf, startChildBroker, stopChildBroker } from './broker-child-process';
import { pollUntil } from './group-fixtures';
import { temporaryDirectory } from './log-fixtures';
import { batchOf, fetchBody, produceBody, RawConnection } from './raw-socket';

const TOPIC = 'wide';
const BATCH_COUNT = 48;
const VALUE_BYTES = 1_000_000;
/** fetch.max.bytes of the broker under test: every answer below holds at most this much. */
const FETCH_MAX_BYTES = 32 * 1024 * 1024;
const SLOW_FETCHERS = 20;

/**
 * The bytes waiting in the kernel's receive queue of each TCP connection to `port` on this
 * machine, keyed by the client's port (from /proc/net/tcp): what a client that does not read has
 * been sent.
 */
function receiveQueues(port: number): Map<number, number> {
  const queues = new Map<number, number>();
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 5) continue;
    const [, local, remote, , queue] = fields;
    if (Number.parseInt(remote!.split(':')[1]!, 16) !== port) continue;
    queues.set(Number.parseInt(local!.split(':')[1]!, 16), Number.parseInt(queue!.split(':')[1]!, 16));
  }
  return queues;
}

/** One Fetch of the whole partition, as much as the client may ask for. */
function fetchEverything(): RequestOf<typeof Fetch> {
  return fetchBody(TOPIC, 0, 0n, { minBytes: 1, maxBytes: 2 ** 31 - 1, partitionMaxBytes: 2 ** 31 - 1 });
}

/** A client that sends one Fetch and does not read the answer until told to. */
async function openSlowFetcher(port: number): Promise<Socket> {
  const socket = connect({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.pause();
  socket.write(encodeRequestFrame(Fetch, 11, 1, 'slow-fetcher', fetchEverything()));
  return socket;
}

/** Resumes a slow fetcher and reads its one answer whole. */
function readAnswer(socket: Socket): Promise<Buffer> {
  const decoder = new FrameDecoder({ maxFrameBytes: 2 * FETCH_MAX_BYTES });
  return new Promise((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      const { frames, error } = decoder.push(chunk);
      if (error) reject(error);
      if (frames[0]) resolve(Buffer.from(frames[0]));
    });
    socket.once('close', () => reject(new Error('the broker closed the connection')));
    socket.resume();
  });
}

/**
 * Clients that ask for more than they read must not make the broker hold what they asked for
 * (issue: 10/20/30/40 such fetchers took the broker to 0.8/1.5/2.1/2.8 GB). The broker runs in a
 * child process so its resident memory is its own.
 */
describe('Fetch answers to clients that read slowly', () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  let child: ChildBroker;
  let port: number;
  const fetchers: Socket[] = [];

  beforeAll(async () => {
    directory = await temporaryDirectory();
    child = await startChildBroker({
      dataDir: directory.path,
      listeners: { client: { host: '127.0.0.1', port: 0 }, internal: { enabled: false } },
      topics: { autoCreateEnable: false },
      limits: { fetchMaxBytes: FETCH_MAX_BYTES },
    });
    port = child.port;
    const connection = await RawConnection.open(port);
    const created = await connection.request(CreateTopics, 4, {
      topics: [{ name: TOPIC, numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] }],
      timeoutMs: 10_000,
      validateOnly: false,
    });
    expect(created.topics[0]!.errorCode).toBe(0);
    for (let index = 0; index < BATCH_COUNT; index++) {
      const value = `${index}:`.padEnd(VALUE_BYTES, 'v');
      const answer = await connection.request(
        Produce,
        7,
        produceBody(1, [{ topic: TOPIC, partitions: [{ partition: 0, records: batchOf([value]) }] }]),
      );
      expect(answer.responses[0]!.partitionResponses[0]!.errorCode).toBe(0);
    }
    await connection.destroy();
  }, 120_000);

  afterAll(async () => {
    for (const socket of fetchers) socket.destroy();
    await stopChildBroker(child);
    await directory?.cleanup();
  });

  it('costs the broker a chunk per client, not the answer, and each answer is whole and capped', async () => {
    const before = (await memoryOf(child)).rss;
    for (let index = 0; index < SLOW_FETCHERS; index++) fetchers.push(await openSlowFetcher(port));
    // Every answer has started to arrive: each broker read for them is done.
    const clientPorts = fetchers.map((socket) => socket.localPort!);
    await pollUntil(() => {
      const queues = receiveQueues(port);
      return clientPorts.every((clientPort) => (queues.get(clientPort) ?? 0) > 0);
    }, 'every slow fetcher to be sent the start of its answer');
    const grownBytes = (await memoryOf(child)).rss - before;
    // Held in memory, the answers would be SLOW_FETCHERS × 32 MiB = 640 MiB.
    expect(grownBytes).toBeLessThan(160 * 1024 * 1024);

    const frame = await readAnswer(fetchers[0]!);
    const decoded = decodeResponseFrame(Fetch, 11, frame);
    if (!decoded.ok) throw decoded.error;
    const records = decoded.value.body.responses[0]!.partitions[0]!.records!;
    expect(records.length).toBeLessThanOrEqual(FETCH_MAX_BYTES);
    const split = splitBatches(records);
    if (!split.ok) throw split.error;
    // Whole batches from offset 0 that fill the cap: every byte read back from disk intact.
    const batchBytes = records.length / split.value.batches.length;
    expect(split.value.batches.length).toBe(Math.floor(FETCH_MAX_BYTES / batchBytes));
    split.value.batches.forEach((bytes, index) => {
      const batch = decodeRecordBatch(bytes);
      if (!batch.ok) throw batch.error;
      expect(batch.value.records[0]!.value!.subarray(0, 8).toString()).toBe(`${index}:`.padEnd(8, 'v'));
    });
  }, 120_000);
});
