import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManager, temporaryDirectory } from './log-fixtures';
import { readWholeLog } from './log-reads';

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
