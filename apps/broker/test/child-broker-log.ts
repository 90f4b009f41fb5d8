import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** One line of the broker's JSON log (pino: `level`, `time`, `msg` and the line's own fields). */
export type BrokerLogEntry = Record<string, unknown> & { readonly msg?: string };

interface Waiter {
  matches(entry: BrokerLogEntry): boolean;
  resolve(entry: BrokerLogEntry): void;
}

/**
 * The log of a broker in a child process, read from its stderr as it is written (the broker
 * child logs JSON there when its config sets a logging level). A test reads what the broker
 * reports of itself (a replay's record count, a finished clean) instead of guessing from outside.
 * The stream must be read to its end, or the child would block on a full pipe; this does that.
 */
export class ChildBrokerLog {
  readonly #entries: BrokerLogEntry[] = [];
  readonly #waiters = new Set<Waiter>();

  constructor(stderr: Readable) {
    createInterface({ input: stderr }).on('line', (line) => {
      const entry = parseLine(line);
      this.#entries.push(entry);
      for (const waiter of [...this.#waiters]) {
        if (!waiter.matches(entry)) continue;
        this.#waiters.delete(waiter);
        waiter.resolve(entry);
      }
    });
  }

  /** Every line so far whose message is `msg` (every line without it). */
  entries(msg?: string): BrokerLogEntry[] {
    return msg === undefined ? [...this.#entries] : this.#entries.filter((entry) => entry.msg === msg);
  }

  /**
   * The first line, already written or still to come, that `matches`; rejects after `timeoutMs`
   * with `what` and the last lines written, so a failure shows what the broker was doing.
   */
  waitFor(
    matches: (entry: BrokerLogEntry) => boolean,
    what: string,
    timeoutMs = 30_000,
  ): Promise<BrokerLogEntry> {
    const found = this.#entries.find(matches);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        matches,
        resolve: (entry) => {
          clearTimeout(timer);
          resolve(entry);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        const tail = this.#entries.slice(-5).map((entry) => JSON.stringify(entry));
        reject(new Error(`no log line for ${what} within ${timeoutMs} ms; last lines:\n${tail.join('\n')}`));
      }, timeoutMs);
      this.#waiters.add(waiter);
    });
  }
}

function parseLine(line: string): BrokerLogEntry {
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed === 'object' && parsed !== null) return parsed as BrokerLogEntry;
  } catch {
    // Not a log line (a stack trace printed by Node itself): kept as its text.
  }
  return { msg: line };
}
