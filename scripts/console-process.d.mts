// Types of console-process.mjs for the TypeScript tests that import it (the scripts themselves are
// plain JavaScript, run by Node as they are).
import type { SpawnOptions } from 'node:child_process';

/** A child process to spawn: `spawn(command, args, options)`. */
export interface ProcessCommand {
  readonly command: string;
  readonly args: string[];
  readonly options: SpawnOptions & { cwd: string; env: NodeJS.ProcessEnv };
}

export const root: string;
export const CONSOLE_URL: string;
export function freshInternalToken(): string;
export function buildConsole(): void;
export function brokerCommand(
  brokerArgs: readonly string[],
  internalToken: string,
  env?: NodeJS.ProcessEnv,
  spawnOptions?: SpawnOptions,
): ProcessCommand;
export function consoleCommand(
  brokerBootstrap: string,
  token: string,
  spawnOptions?: SpawnOptions,
): ProcessCommand;
