import type { Command } from 'commander';
import type { Environment } from '../config/env-overrides';

export const DEFAULT_BOOTSTRAP_SERVER = '127.0.0.1:9092';
export const BOOTSTRAP_SERVER_ENV_VAR = 'WEIR_BOOTSTRAP_SERVER';

/** Reports a command's exit status to `runCli`. */
export type ExitReporter = (exitCode: number) => void;

/**
 * Adds `-b, --bootstrap-server` to the program, where every subcommand accepts it (before or
 * after the subcommand's name). No commander default: the environment variable must be able to
 * fill in when the flag is absent, and the injected environment is read in `bootstrapServersFrom`.
 */
export function addGlobalOptions(program: Command): Command {
  return program.option(
    '-b, --bootstrap-server <host:port,...>',
    `brokers to connect to (default: $${BOOTSTRAP_SERVER_ENV_VAR}, else ${DEFAULT_BOOTSTRAP_SERVER})`,
  );
}

/** The global `--bootstrap-server` as a command sees it (commander keeps it on the program). */
export function bootstrapFlag(command: Command): string | undefined {
  const value = command.optsWithGlobals().bootstrapServer;
  return typeof value === 'string' ? value : undefined;
}

/** The environment without the client commands' own variables, for the broker configuration loader. */
export function withoutClientVariables(env: Environment): Environment {
  const { [BOOTSTRAP_SERVER_ENV_VAR]: _clientOnly, ...rest } = env;
  return rest;
}
