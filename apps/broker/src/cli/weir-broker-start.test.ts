import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';

const brokerDir = new URL('../..', import.meta.url).pathname;
const children: ChildProcess[] = [];
const directories: string[] = [];

afterEach(async () => {
  // A killed broker writes into its data directory until it has exited, so wait for each 'exit'
  // before the directories go (a test that failed half-way leaves its broker running).
  await Promise.all(
    children.splice(0).map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }),
  );
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

interface LogLine {
  msg: string;
  [field: string]: unknown;
}

/**
 * Starts the real `weir broker start` on a fresh data directory and ephemeral ports, and resolves
 * with the log line that reports the probe ports once the broker says it started.
 */
async function startBroker(): Promise<{
  child: ChildProcess;
  lines: LogLine[];
  ports: LogLine;
  exited: Promise<number | null>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'weir-start-'));
  directories.push(dir);
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('WEIR_')));
  const args = ['bin/weir.js', 'broker', 'start', '--data-dir', join(dir, 'data'), '--port', '0'];
  args.push('--set', 'health.port=0', '--set', 'metrics.port=0', '--set', 'logging.pretty=false');
  args.push('--set', 'listeners.internal.port=0');
  const child = spawn(process.execPath, args, { cwd: brokerDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const lines: LogLine[] = [];
  const started = new Promise<LogLine>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (text) => {
      const line = JSON.parse(text) as LogLine;
      lines.push(line);
      if (line.msg === 'startup complete')
        resolve(lines.find((l) => l.msg === 'health and metrics serving')!);
    });
    void exited.then((code) =>
      reject(
        new Error(
          `weir exited (${code}) before starting:\n${lines.map((l) => JSON.stringify(l)).join('\n')}\n${stderr}`,
        ),
      ),
    );
  });
  return { child, lines, ports: await started, exited };
}

describe('weir broker start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'becomes ready on a fresh data directory and exits 0 after a graceful stop on %s',
    async (signal) => {
      const { child, lines, ports, exited } = await startBroker();
      const ready = await fetch(`http://127.0.0.1:${ports.healthPort}/ready`);
      expect(ready.status).toBe(200);
      const metrics = await (await fetch(`http://127.0.0.1:${ports.metricsPort}/metrics`)).text();
      expect(metrics).toContain('weir_connections 0');

      child.kill(signal);
      expect(await exited).toBe(0);
      expect(lines.map((line) => line.msg)).toEqual(
        expect.arrayContaining(['shutting down', 'shutdown complete']),
      );
      expect(lines.find((line) => line.msg === 'shutting down')?.signal).toBe(signal);
    },
    30_000,
  );
});
