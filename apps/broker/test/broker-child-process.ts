import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import { ChildBrokerLog } from './child-broker-log';
import { within } from './raw-socket';

const CHILD = new URL('./fixtures/broker-child.ts', import.meta.url).pathname;

/** A broker in a child process (fixtures/broker-child.ts): its port, its stdout lines, its exit. */
export interface ChildBroker {
  process: ChildProcess;
  port: number;
  lines: Interface;
  exited: Promise<number | null>;
  /** Its log, when started with `log: true`. */
  log: ChildBrokerLog | undefined;
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

export interface StartChildBrokerOptions {
  /**
   * Read the broker's log (its stderr) into {@link ChildBroker.log}; the config's logging level
   * says what it writes (the child is silent without one).
   */
  log?: boolean;
  /** How long the start may take, recovery and coordinator loads included (default 30 s). */
  startTimeoutMs?: number;
}

/** Starts a broker child with `config` (a broker config, data directory included) and waits until it serves. */
export async function startChildBroker(
  config: Record<string, unknown>,
  options: StartChildBrokerOptions = {},
): Promise<ChildBroker> {
  const child = spawnChildBroker(config, options.log ? { stderr: 'pipe' } : {});
  const log = options.log ? new ChildBrokerLog(child.stderr!) : undefined;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout! });
  const ready = new Promise<number>((resolve) => {
    lines.on('line', (line) => {
      if (line.startsWith('ready ')) resolve(Number(line.slice('ready '.length)));
    });
  });
  let port: number;
  try {
    port = await within(
      Promise.race([
        ready,
        exited.then((code) => Promise.reject(new Error(`the broker exited with ${code}`))),
      ]),
      options.startTimeoutMs ?? 30_000,
      'the child broker to start',
    );
  } catch (error) {
    // A start that hangs must not leave the process writing into a directory the test removes.
    child.kill('SIGKILL');
    await exited;
    throw error;
  }
  return { process: child, port, lines, exited, log };
}

/** SIGKILLs a broker child (no chance to flush or close anything) and waits until it is gone. */
export async function killChildBroker(child: ChildBroker | undefined): Promise<void> {
  if (child === undefined) return;
  if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
  await child.exited;
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
