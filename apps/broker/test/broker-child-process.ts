import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import { within } from './raw-socket';

const CHILD = new URL('./fixtures/broker-child.ts', import.meta.url).pathname;

/** A broker in a child process (fixtures/broker-child.ts): its port, its stdout lines, its exit. */
export interface ChildBroker {
  process: ChildProcess;
  port: number;
  lines: Interface;
  exited: Promise<number | null>;
}

export interface ChildBrokerOptions {
  /** Also serve the config's health and metrics endpoints (`/ready`, `/metrics`). */
  probes?: boolean;
  /** What happens to the broker's log (stderr): dropped (the default) or piped to the parent. */
  stderr?: 'ignore' | 'pipe';
}

/**
 * Spawns a broker child with `config` (a broker config, data directory included) and returns at
 * once, for callers that watch its start themselves (its `/ready`, its log). Its stdin is a pipe
 * that must stay open: the child stops when it ends, so it also stops if the test process dies.
 */
export function spawnChildBroker(
  config: Record<string, unknown>,
  options: ChildBrokerOptions = {},
): ChildProcess {
  const args = ['--import', 'tsx', CHILD, JSON.stringify(config), ...(options.probes ? ['--probes'] : [])];
  return spawn(process.execPath, args, { stdio: ['pipe', 'pipe', options.stderr ?? 'ignore'] });
}

/** Starts a broker child with `config` (a broker config, data directory included) and waits until it serves. */
export async function startChildBroker(config: Record<string, unknown>): Promise<ChildBroker> {
  const child = spawnChildBroker(config);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout! });
  const ready = new Promise<number>((resolve) => {
    lines.on('line', (line) => {
      if (line.startsWith('ready ')) resolve(Number(line.slice('ready '.length)));
    });
  });
  const port = await within(
    Promise.race([ready, exited.then((code) => Promise.reject(new Error(`the broker exited with ${code}`)))]),
    30_000,
    'the child broker to start',
  );
  return { process: child, port, lines, exited };
}

/** Stops a broker child (its stdin ends), or kills it if it does not stop in time. */
export async function stopChildBroker(child: ChildBroker | undefined): Promise<void> {
  if (child === undefined || child.process.exitCode !== null || child.process.signalCode !== null) return;
  child.process.stdin!.end();
  await within(child.exited, 30_000, 'the child broker to stop').catch(() => child.process.kill('SIGKILL'));
  await child.exited;
}

/** The child's resident memory and request bytes held by its connections (now and at most). */
export async function memoryOf(child: ChildBroker): Promise<{ rss: number; held: number; peakHeld: number }> {
  const answer = new Promise<string>((resolve) => {
    const onLine = (line: string) => {
      if (!line.startsWith('memory ')) return;
      child.lines.off('line', onLine);
      resolve(line);
    };
    child.lines.on('line', onLine);
  });
  child.process.stdin!.write('memory\n');
  const [, rss, held, peakHeld] = (await within(answer, 10_000, 'the broker to report its memory')).split(
    ' ',
  );
  return { rss: Number(rss), held: Number(held), peakHeld: Number(peakHeld) };
}
