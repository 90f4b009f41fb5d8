import { Readable, type Writable } from 'node:stream';
import type { Environment } from '../config/env-overrides';
import type { CliDeps } from './cli-deps';

/** What the commands that talk to a broker take from their surroundings. */
export interface ClientCliDeps {
  env: Environment;
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean };
  /** Messages, summaries, prompts and the progress line: stdout carries only the data. */
  stderr: Writable & { isTTY?: boolean };
  /** Resolves when the user asks to stop (Ctrl-C): consume and produce then finish cleanly. */
  shutdownSignal: () => Promise<string>;
  /** A monotonic clock for elapsed times and idle timeouts. */
  nowMs: () => number;
}

/** The client commands' dependencies from the CLI's; no stdin means empty input. */
export function clientCliDeps(deps: CliDeps): ClientCliDeps {
  return {
    env: deps.env,
    stdin: deps.stdin ?? Readable.from([]),
    stdout: deps.stdout,
    stderr: deps.stderr,
    shutdownSignal: deps.shutdownSignal,
    nowMs: () => performance.now(),
  };
}
