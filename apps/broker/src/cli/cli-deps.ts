import type { Readable, Writable } from 'node:stream';
import type { Environment } from '../config/env-overrides';
import type { BrokerFactory } from './broker-factory';

/** Everything the CLI takes from its surroundings; `main.ts` passes the real process's. */
export interface CliDeps {
  env: Environment;
  /** Command output and, for `broker start`, the log lines. */
  stdout: Writable & { isTTY?: boolean };
  /** Messages and, for client commands, summaries, prompts and progress. */
  stderr: Writable & { isTTY?: boolean };
  /** Input for `produce` and the `topic delete` confirmation; absent means empty input. */
  stdin?: Readable & { isTTY?: boolean };
  createBroker: BrokerFactory;
  /** Resolves with the signal's name when the process is asked to stop (SIGTERM or SIGINT). */
  shutdownSignal: () => Promise<string>;
}
