import { performance } from 'node:perf_hooks';
import { ownCpuMs } from './proc-stat';

/** What one client run measured: wall time and its own CPU over the timed phase only. */
export interface ClientRun {
  records: number;
  /** Value bytes moved (records × value size); MB/s in the table are computed from these. */
  payloadBytes: number;
  seconds: number;
  clientCpuMs: number;
}

/**
 * Brackets a client's timed phase: tells the parent when it starts and ends (the parent samples
 * the server's CPU at those moments) and measures wall time and this process's CPU in between.
 */
export class TimedPhase {
  #startedMs = 0;
  #startCpuMs = 0;

  start(): void {
    process.send?.({ kind: 'mark', label: 'start' });
    this.#startCpuMs = ownCpuMs();
    this.#startedMs = performance.now();
  }

  end(records: number, payloadBytes: number): ClientRun {
    const seconds = (performance.now() - this.#startedMs) / 1000;
    const clientCpuMs = ownCpuMs() - this.#startCpuMs;
    process.send?.({ kind: 'mark', label: 'end' });
    return { records, payloadBytes, seconds, clientCpuMs };
  }
}

/**
 * Keeps up to `limit` operations in flight: `add` waits for the oldest once the window is full.
 * This is how every client below drives load, so none waits a round trip between requests.
 */
export class Window {
  readonly #pending: Promise<unknown>[] = [];
  constructor(private readonly limit: number) {}

  async add(operation: Promise<unknown>): Promise<void> {
    this.#pending.push(operation);
    if (this.#pending.length >= this.limit) await this.#pending.shift();
  }

  async drain(): Promise<void> {
    while (this.#pending.length > 0) await this.#pending.shift();
  }
}

/** An incompressible value of `bytes` bytes, shared by every record of a run (no client copies it). */
export function benchValue(bytes: number): Buffer {
  const value = Buffer.allocUnsafe(bytes);
  // A fixed xorshift sequence: the same bytes every run, and nothing a codec could shrink.
  let state = 0x9e3779b9;
  for (let index = 0; index < bytes; index++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    value[index] = state & 0xff;
  }
  return value;
}
