import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CreateTopics, Produce } from '@weir/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LineChild } from './fixtures/line-child';
import { createManager, temporaryDirectory } from './log-fixtures';
import { readWholeLog } from './log-reads';
import { batchOf, fetchValues, produceBody, RawConnection } from './raw-socket';

const ITERATIONS = 50;

interface Ack {
  baseOffset: number;
  lastOffset: number;
  label: string;
}

/** The appending child of the iteration under way, until it has exited. */
let running: { child: ChildProcess; exited: Promise<void> } | undefined;

/**
 * Starts the appending child and resolves once it has acknowledged `ackCount` durable batches, then
 * kills it with SIGKILL (no chance to flush or close) and waits for it to exit: a killed process
 * may still be writing until its 'exit' event.
 */
async function runAndKill(dataDirectory: string, labelPrefix: string, ackCount: number): Promise<Ack[]> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      new URL('./fixtures/append-child.ts', import.meta.url).pathname,
      dataDirectory,
      labelPrefix,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const acks: Ack[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  running = { child, exited };
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code, signal) => reject(new Error(`child exited early (${code ?? signal})`)));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const [kind, base, last, label] = line.split(' ');
        if (kind !== 'ack') return;
        acks.push({ baseOffset: Number(base), lastOffset: Number(last), label: label! });
        if (acks.length === ackCount) resolve();
      });
    });
  } finally {
    await stopChild();
  }
  return acks;
}

/** SIGKILLs the running child, if any, and waits until it is gone. */
async function stopChild(): Promise<void> {
  if (!running) return;
  const { child, exited } = running;
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await exited;
  running = undefined;
}

describe('crash recovery', () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    directory = await temporaryDirectory('weir-crash-');
  });
  afterAll(async () => {
    // A test that failed or timed out may have left a child appending; it must be gone first.
    await stopChild();
    await directory?.cleanup();
  });

  it(`keeps every durable acknowledgement across ${ITERATIONS} SIGKILLs mid-append`, async () => {
    const acknowledged = new Map<number, Ack>();
    for (let iteration = 0; iteration < ITERATIONS; iteration++) {
      const acks = await runAndKill(directory.path, `i${iteration}`, 1 + ((iteration * 7) % 23));
      for (const ack of acks) acknowledged.set(ack.baseOffset, ack);

      const manager = createManager(directory.path, {
        config: { segmentBytes: 4096, indexIntervalBytes: 256 },
      });
      try {
        const report = await manager.start();
        expect(report.offline).toEqual([]);
        const log = manager.getLog('crash', 0)!;
        // Walk the whole log: offsets contiguous, every batch whole and valid.
        const labels = new Map<number, string>();
        for (const batch of await readWholeLog(log)) {
          labels.set(batch.baseOffset, batch.values[0]!.split('-').slice(0, 2).join('-'));
        }
        for (const ack of acknowledged.values()) {
          expect(labels.get(ack.baseOffset), `acknowledged batch at ${ack.baseOffset}`).toBe(ack.label);
          expect(ack.lastOffset).toBeLessThan(log.logEndOffset);
        }
      } finally {
        // Every other iteration stops cleanly, so both recovery paths run against later crashes;
        // the others crash this manager too (nothing more of it reaches the disk), so it cannot
        // write checkpoints beside the next child or while the directory is removed.
        if (iteration % 2 === 0) await manager.shutdown();
        else await manager.crash();
      }
    }
  }, 240_000);
});

const BROKER_KILLS = 6;
const PRODUCE_CONNECTIONS = 4;
const PRODUCE_TOPIC = 'acked';

/**
 * A real broker in a child process, SIGKILLed while acks=-1 produces are in flight on several
 * connections: after each restart every acknowledged record is at the offset its answer named,
 * no partition is offline, and nothing acknowledged was cut as a torn tail.
 */
describe(`a broker SIGKILLed mid-produce with acks=all, ${BROKER_KILLS} times`, () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    directory = await temporaryDirectory('weir-produce-crash-');
  });
  afterAll(async () => {
    await LineChild.killAll();
    await directory?.cleanup();
  });

  async function startBrokerChild(): Promise<{ broker: LineChild; port: number }> {
    const broker = new LineChild(new URL('./fixtures/produce-broker-child.ts', import.meta.url), [
      directory.path,
    ]);
    try {
      const ready = await broker.waitFor((line) => line.startsWith('ready '), 'ready');
      return { broker, port: Number(ready.split(' ')[1]) };
    } catch (error) {
      await broker.kill();
      throw error;
    }
  }

  /** Produces acks=-1 batches on one connection until it fails (the broker died); records the acks. */
  async function produceUntilKilled(
    connection: RawConnection,
    label: string,
    acked: Map<string, number>,
    onAck: () => void,
  ): Promise<void> {
    for (let sequence = 0; ; sequence++) {
      const partition = sequence % 2;
      const values = Array.from({ length: 1 + (sequence % 7) }, (_, index) =>
        `${label}-${sequence}-${index}`.padEnd(40 + (sequence % 90), '.'),
      );
      let answer: { errorCode: number; baseOffset: bigint };
      try {
        const response = await connection.request(
          Produce,
          7,
          produceBody(-1, [{ topic: PRODUCE_TOPIC, partitions: [{ partition, records: batchOf(values) }] }]),
        );
        answer = response.responses[0]!.partitionResponses[0]!;
      } catch {
        return;
      }
      expect(answer.errorCode).toBe(0);
      for (const [index, value] of values.entries()) {
        acked.set(value, partition * 1e12 + Number(answer.baseOffset) + index);
      }
      onAck();
    }
  }

  it('keeps every acknowledged record', async () => {
    // Each acknowledged value and where its answer put it: partition × 10^12 + offset.
    const acked = new Map<string, number>();
    for (let kill = 0; kill <= BROKER_KILLS; kill++) {
      const { broker, port } = await startBrokerChild();
      const check = await RawConnection.open(port);
      try {
        if (kill === 0) {
          const created = await check.request(CreateTopics, 4, {
            topics: [
              { name: PRODUCE_TOPIC, numPartitions: 2, replicationFactor: 1, assignments: [], configs: [] },
            ],
            timeoutMs: 10_000,
            validateOnly: false,
          });
          expect(created.topics[0]!.errorCode).toBe(0);
        }
        for (const partition of [0, 1]) {
          // A fetch answers from one segment at most; read on until the high watermark.
          const values: string[] = [];
          for (;;) {
            const fetched = await fetchValues(check, PRODUCE_TOPIC, partition, BigInt(values.length));
            expect(fetched.errorCode, `partition ${partition} after ${kill} kills`).toBe(0);
            values.push(...fetched.values);
            if (fetched.values.length === 0 || BigInt(values.length) >= fetched.highWatermark) break;
          }
          const stored = new Map(values.map((value, offset) => [value, partition * 1e12 + offset]));
          for (const [value, where] of acked) {
            if (Math.floor(where / 1e12) !== partition) continue;
            expect(stored.get(value), `acknowledged ${value}`).toBe(where);
          }
        }
        if (kill === BROKER_KILLS) break;
        const connections = await Promise.all(
          Array.from({ length: PRODUCE_CONNECTIONS }, () => RawConnection.open(port)),
        );
        const killAfter = 20 + ((kill * 37) % 60);
        let acks = 0;
        let killing: Promise<void> | undefined;
        const onAck = () => {
          // SIGKILLed with the other connections' produces still in flight.
          if (++acks === killAfter) killing = broker.kill();
        };
        await Promise.all(
          connections.map((connection, index) =>
            produceUntilKilled(connection, `k${kill}c${index}`, acked, onAck),
          ),
        );
        await killing;
        await Promise.all(connections.map((connection) => connection.destroy()));
      } finally {
        await check.destroy();
        await broker.kill();
      }
    }
    expect(acked.size).toBeGreaterThan(BROKER_KILLS * 20);
  }, 240_000);
});
