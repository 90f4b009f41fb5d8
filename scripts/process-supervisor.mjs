// Runs several long-lived processes for `npm run cluster`: each line they write is prefixed with
// the process's name, a process that dies on its own stops all the others with a message saying
// which one and how, and a stop (Ctrl-C, SIGTERM) ends them by PID in stages, so the brokers can
// unregister from etcd before etcd itself goes. The children get their own process groups so that
// Ctrl-C in the terminal reaches only this supervisor, which then decides the order.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export class ProcessSupervisor {
  /** @type {{ name: string, child: import('node:child_process').ChildProcess, exited: Promise<void> }[]} */
  #processes = [];
  #stopping = false;
  #failed = false;
  #labelWidth;
  #stopLast;

  /**
   * @param {{ labelWidth: number, stopLast?: string[] }} options `labelWidth`: the width names are
   *   padded to in the prefixes; `stopLast`: the processes stopped only once all others have exited
   */
  constructor({ labelWidth, stopLast = [] }) {
    this.#labelWidth = labelWidth;
    this.#stopLast = stopLast;
    // A synchronous last resort: whatever is still running when this process exits is killed.
    process.once('exit', () => {
      for (const { child } of this.#processes) if (isRunning(child)) child.kill('SIGKILL');
    });
  }

  get stopping() {
    return this.#stopping;
  }

  /** Starts `command` as `name`, its output prefixed, and returns the child. */
  start(name, command, args, options = {}) {
    const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const label = `[${name}]`.padEnd(this.#labelWidth + 2);
    createInterface({ input: child.stdout }).on('line', (line) => process.stdout.write(`${label} ${line}\n`));
    createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`${label} ${line}\n`));
    // A child that could not start at all emits 'error' and never 'exit'.
    const exited = new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    });
    child.once('error', (error) => {
      console.error(`${name} could not start: ${error.message}`);
      void this.stop(1);
    });
    child.once('exit', (code, signal) => {
      if (this.#stopping) return;
      console.error(
        `\n${name} exited on its own (${signal ? `signal ${signal}` : `exit code ${code}`}); stopping everything.`,
      );
      void this.stop(1);
    });
    this.#processes.push({ name, child, exited });
    return child;
  }

  /** Whether the process called `name` is still running. */
  isRunning(name) {
    const entry = this.#processes.find((candidate) => candidate.name === name);
    return entry !== undefined && isRunning(entry.child);
  }

  /**
   * Stops everything: first every process not named in `stopLast` (SIGTERM, SIGKILL after
   * `timeoutMs`), then those, the same way; then exits with `exitCode` (1 if a process had died).
   * A second call while stopping (a second Ctrl-C) SIGKILLs whatever is left at once.
   */
  async stop(exitCode = 0, timeoutMs = 35_000) {
    if (exitCode !== 0) this.#failed = true;
    if (this.#stopping) {
      console.error('Killing what is still running (SIGKILL).');
      for (const { child } of this.#processes) if (isRunning(child)) child.kill('SIGKILL');
      return;
    }
    this.#stopping = true;
    const first = this.#processes.filter(({ name }) => !this.#stopLast.includes(name));
    const last = this.#processes.filter(({ name }) => this.#stopLast.includes(name));
    await stopAll(first, timeoutMs);
    await stopAll(last, timeoutMs);
    process.exit(this.#failed ? 1 : exitCode);
  }
}

function isRunning(child) {
  return child.exitCode === null && child.signalCode === null;
}

async function stopAll(entries, timeoutMs) {
  await Promise.all(
    entries.map(async ({ name, child, exited }) => {
      if (!isRunning(child)) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => {
        console.error(`${name} did not stop within ${timeoutMs} ms; killing it (SIGKILL).`);
        child.kill('SIGKILL');
      }, timeoutMs);
      await exited;
      clearTimeout(killer);
    }),
  );
}
