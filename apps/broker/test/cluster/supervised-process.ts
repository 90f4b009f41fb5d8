import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { within } from '../raw-socket';

/** How a supervised process ended: its exit code, or the signal that ended it. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** How long a process may take to exit after SIGTERM before it gets SIGKILL. */
export const DEFAULT_STOP_TIMEOUT_MS = 15_000;

/** The output lines kept for error messages. */
const KEPT_OUTPUT_LINES = 200;

/**
 * Every supervised process still running, so the test process can SIGKILL exactly those it
 * started if it exits without stopping them (a test that crashed the worker, an aborted run).
 */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers must be synchronous; kill() is, and a stopped (SIGSTOP) process dies of SIGKILL too.
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

/**
 * A child process a test fixture started (etcd, a broker), handled by its PID: stopped with
 * SIGTERM and then SIGKILL after a bound, killed with SIGKILL, paused with SIGSTOP and resumed
 * with SIGCONT. Its stdout and stderr lines are kept (the last 200) for the error messages of the
 * fixtures, and each one is also handed to `onLine` if given.
 */
export class SupervisedProcess {
  readonly name: string;
  readonly pid: number;
  readonly exited: Promise<ProcessExit>;
  #child: ChildProcess;
  #lines: string[] = [];
  #paused = false;
  #lineListeners = new Set<(line: string) => void>();

  constructor(name: string, child: ChildProcess) {
    if (child.pid === undefined) throw new Error(`${name} did not start (no PID)`);
    this.name = name;
    this.pid = child.pid;
    this.#child = child;
    installExitHook();
    running.add(child);
    this.exited = new Promise<ProcessExit>((resolve) => {
      child.once('exit', (code, signal) => {
        running.delete(child);
        resolve({ code, signal });
      });
    });
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream }).on('line', (line) => {
        this.#lines.push(line);
        if (this.#lines.length > KEPT_OUTPUT_LINES) this.#lines.shift();
        for (const listener of this.#lineListeners) listener(line);
      });
    }
  }

  /** Whether the process has exited (or been killed). */
  get hasExited(): boolean {
    return this.#child.exitCode !== null || this.#child.signalCode !== null;
  }

  /** Whether it is stopped by `pause()` and not yet resumed. */
  get isPaused(): boolean {
    return this.#paused;
  }

  /** The last lines it wrote (stdout and stderr interleaved as they arrived). */
  output(): string {
    return this.#lines.join('\n');
  }

  /** Calls `listener` with every line written from now on; returns how to stop listening. */
  onLine(listener: (line: string) => void): () => void {
    this.#lineListeners.add(listener);
    return () => this.#lineListeners.delete(listener);
  }

  /** Resolves with the first line from now on that `matches` accepts; rejects if the process exits first. */
  async waitForLine(matches: (line: string) => boolean, timeoutMs: number, what: string): Promise<string> {
    let stop = () => {};
    const found = new Promise<string>((resolve) => {
      stop = this.onLine((line) => {
        if (matches(line)) resolve(line);
      });
    });
    const died = this.exited.then((exit) => {
      throw new Error(`${this.name} exited (${describeExit(exit)}) before ${what}:\n${this.output()}`);
    });
    try {
      return await within(Promise.race([found, died]), timeoutMs, `${this.name}: ${what}`);
    } finally {
      stop();
    }
  }

  /** Sends `signal` to the process by its PID, unless it has exited. */
  signal(signal: NodeJS.Signals): void {
    if (this.hasExited) return;
    process.kill(this.pid, signal);
  }

  /** SIGKILL, and resolves once it has exited (the way a crash or `kill -9` ends a process). */
  async kill9(): Promise<ProcessExit> {
    this.signal('SIGKILL');
    this.#paused = false;
    return this.exited;
  }

  /** SIGSTOP: the process stays alive, holds its sockets and its leases, and does nothing. */
  pause(): void {
    if (this.hasExited) throw new Error(`${this.name} cannot be paused: it has exited`);
    this.signal('SIGSTOP');
    this.#paused = true;
  }

  /** SIGCONT after `pause()`. */
  resume(): void {
    this.signal('SIGCONT');
    this.#paused = false;
  }

  /**
   * SIGTERM (with SIGCONT first if paused, or the signal would wait for it), then SIGKILL if it has
   * not exited after `timeoutMs`; resolves once it has exited.
   */
  async stop(timeoutMs = DEFAULT_STOP_TIMEOUT_MS): Promise<ProcessExit> {
    if (this.hasExited) return this.exited;
    this.signal('SIGTERM');
    if (this.#paused) this.resume();
    const killer = setTimeout(() => this.signal('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(killer);
    }
  }
}

/** `code 1`, `signal SIGKILL`: for messages. */
export function describeExit(exit: ProcessExit): string {
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}
