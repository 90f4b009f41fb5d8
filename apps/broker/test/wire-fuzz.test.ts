import { connect } from 'node:net';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildBroker, memoryOf, startChildBroker, stopChildBroker } from './broker-child-process';
import { type FuzzFrame, type FuzzFrameKind, fuzzConnections } from './fuzz-frames';
import { pollUntil } from './group-fixtures';
import { temporaryDirectory } from './log-fixtures';
import { within } from './raw-socket';

/** Enough to meet every kind of frame thousands of times, and to finish well inside a minute here. */
const FRAME_COUNT = 50_000;
const PARALLEL_CONNECTIONS = 8;
const MAX_FRAMES_PER_CONNECTION = 8;
/** A failure names its seed; set WEIR_FUZZ_SEED to replay one. */
const SEED = Number(process.env.WEIR_FUZZ_SEED ?? Date.now() % 0x1_0000_0000);
const MIB = 1024 * 1024;

/** Sends `frames` on one connection, ends it, and waits until it is closed (by either side). */
async function sendOnConnection(port: number, frames: readonly FuzzFrame[]): Promise<void> {
  const socket = connect({ host: '127.0.0.1', port });
  socket.on('data', () => {});
  // A broker that closes mid-write resets the socket; that is an answer like any other here.
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.end(Buffer.concat(frames.map((frame) => frame.bytes)));
  await within(
    closed,
    15_000,
    `the broker to close a connection after ${frames.map((f) => f.kind).join(', ')}`,
  );
}

describe(`the wire fuzzer (seed ${SEED})`, { timeout: 180_000 }, () => {
  let child: ChildBroker;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    console.log(`wire fuzzer seed ${SEED} (replay with WEIR_FUZZ_SEED=${SEED})`);
    const directory = await temporaryDirectory('weir-fuzz-');
    cleanup = directory.cleanup;
    child = await startChildBroker({
      dataDir: directory.path,
      listeners: { client: { host: '127.0.0.1', port: 0 }, internal: { enabled: false } },
      // Fuzzed Produce requests name topics at random; none of them may come into being.
      topics: { autoCreateEnable: false },
      groups: { offsetsTopicPartitions: 1 },
      // A fuzzed size prefix may announce up to this much; the bound keeps the run's memory small.
      limits: { maxFrameBytes: 8 * 1024 * 1024 },
      // Warnings are rate-limited (warning-limiter.ts), so even a flood of bad frames writes few lines.
      logging: { level: 'warn' },
    });
  });
  afterAll(async () => {
    await stopChildBroker(child);
    await cleanup?.();
  });

  it('never crashes, holds bounded memory, and an acks=all producer beside it loses nothing', async () => {
    const kafka = new Kafka({
      clientId: 'fuzz-neighbour',
      brokers: [`127.0.0.1:${child.port}`],
      logLevel: logLevel.NOTHING,
    });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({
      topics: [
        { topic: 'acked', numPartitions: 1 },
        { topic: 'fuzz-target', numPartitions: 1 },
      ],
    });
    await admin.disconnect();

    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    const acked: string[] = [];
    const producerErrors: unknown[] = [];
    let fuzzing = true;
    const producing = (async () => {
      for (let index = 0; fuzzing; index++) {
        const value = `record-${index}`;
        try {
          await producer.send({ topic: 'acked', acks: -1, messages: [{ value }] });
          acked.push(value);
        } catch (error) {
          producerErrors.push(error);
        }
      }
    })();

    const connections = fuzzConnections(SEED, 'fuzz-target', FRAME_COUNT, MAX_FRAMES_PER_CONNECTION);
    const sentByKind = new Map<FuzzFrameKind, number>();
    let sent = 0;
    let nextConnection = 0;
    const worker = async () => {
      while (nextConnection < connections.length) {
        const frames = connections[nextConnection++]!;
        await sendOnConnection(child.port, frames);
        sent += frames.length;
        for (const frame of frames) sentByKind.set(frame.kind, (sentByKind.get(frame.kind) ?? 0) + 1);
      }
    };
    const startedMs = Date.now();
    await Promise.all(Array.from({ length: PARALLEL_CONNECTIONS }, worker));
    const fuzzMs = Date.now() - startedMs;
    fuzzing = false;
    await producing;
    await producer.disconnect();
    console.log(
      `wire fuzzer: ${sent} frames in ${fuzzMs} ms (${[...sentByKind].map(([kind, count]) => `${kind} ${count}`).join(', ')}); producer acked ${acked.length}`,
    );

    expect(child.process.exitCode).toBeNull();
    expect(sent).toBe(FRAME_COUNT);
    for (const count of sentByKind.values()) expect(count).toBeGreaterThan(FRAME_COUNT / 12);
    const memory = await memoryOf(child);
    console.log(
      `wire fuzzer: broker rss ${(memory.rss / MIB).toFixed(0)} MiB, held request bytes peak ${memory.peakHeld}`,
    );
    expect(memory.held).toBe(0);
    // The decoders never held more than the frames in flight: far below the 8 MiB frame limit.
    expect(memory.peakHeld).toBeLessThan(8 * MIB);
    expect(memory.rss).toBeLessThan(512 * MIB);

    expect(producerErrors).toEqual([]);
    expect(acked.length).toBeGreaterThan(0);
    const consumer = kafka.consumer({ groupId: 'fuzz-check', maxWaitTimeInMs: 100 });
    const read = new Set<string>();
    await consumer.connect();
    await consumer.subscribe({ topic: 'acked', fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        read.add(message.value!.toString());
      },
    });
    try {
      await pollUntil(() => acked.every((value) => read.has(value)), 'every acknowledged record read back', {
        timeoutMs: 60_000,
      });
    } finally {
      await consumer.disconnect();
    }
    expect(child.process.exitCode).toBeNull();
  });
});
