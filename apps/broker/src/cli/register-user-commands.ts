import type { UserScramMechanism } from '@weir/protocol';
import { type Command, InvalidArgumentError } from 'commander';
import type { ClientCliDeps } from './client-cli-deps';
import type { ExitReporter } from './global-options';
import {
  type InternalListenerFlags,
  runInternalCommand,
  withInternalOptions,
} from './internal-listener-command';

const MECHANISMS: readonly UserScramMechanism[] = ['SCRAM-SHA-256', 'SCRAM-SHA-512'];

interface CredentialFlags extends InternalListenerFlags {
  mechanism: readonly UserScramMechanism[];
  iterations?: number;
  passwordStdin: boolean;
}

/**
 * `weir user create|list|delete|passwd`: SASL users, through the internal listener (Kafka's
 * user-credential APIs are flexible-only, which the client listener does not serve). Uses the
 * same `--internal`/`--token-file`/`--token`/`--data-dir` options as `weir txn`. Command modules
 * load when their command runs.
 */
export function registerUserCommands(program: Command, deps: ClientCliDeps, exit: ExitReporter): void {
  const user = program
    .command('user')
    .description(
      'create, list, delete SASL users and change their passwords (through the internal listener)',
    );

  withCredentialOptions(
    withInternalOptions(user.command('create <name>').description('create a SCRAM user')),
  ).action((name: string, flags: CredentialFlags) =>
    runInternalCommand(flags, deps, async (session) =>
      (await import('./user-commands')).userCreateCommand(
        session.internal,
        credentialOptions(name, flags),
        deps,
      ),
    ).then(exit),
  );

  withCredentialOptions(
    withInternalOptions(user.command('passwd <name>').description("replace a user's password")),
  ).action((name: string, flags: CredentialFlags) =>
    runInternalCommand(flags, deps, async (session) =>
      (await import('./user-commands')).userPasswdCommand(
        session.internal,
        credentialOptions(name, flags),
        deps,
      ),
    ).then(exit),
  );

  withInternalOptions(
    user.command('list').description('every user with its mechanisms and iterations'),
  ).action((flags: InternalListenerFlags) =>
    runInternalCommand(flags, deps, async (session) =>
      (await import('./user-commands')).userListCommand(session.internal, deps),
    ).then(exit),
  );

  withInternalOptions(
    user
      .command('delete <name>')
      .description('delete a user (or with --mechanism only that credential)')
      .option('--mechanism <mechanism>', 'SCRAM-SHA-256 or SCRAM-SHA-512', parseMechanism),
  ).action((name: string, flags: InternalListenerFlags & { mechanism?: UserScramMechanism }) =>
    runInternalCommand(flags, deps, async (session) =>
      (await import('./user-commands')).userDeleteCommand(
        session.internal,
        { name, ...(flags.mechanism === undefined ? {} : { mechanism: flags.mechanism }) },
        deps,
      ),
    ).then(exit),
  );
}

function withCredentialOptions(command: Command): Command {
  return command
    .option(
      '--mechanism <list>',
      'SCRAM mechanisms to give the user, comma-separated',
      (value: string) => value.split(',').map((part) => parseMechanism(part.trim())),
      [...MECHANISMS],
    )
    .option('--iterations <n>', 'PBKDF2 iterations, 4096-16384 (default: 8192)', parseIterations)
    .option('--password-stdin', 'read the password from stdin (default: generate and print one)', false);
}

function credentialOptions(name: string, flags: CredentialFlags) {
  return {
    name,
    mechanisms: [...new Set(flags.mechanism)],
    ...(flags.iterations === undefined ? {} : { iterations: flags.iterations }),
    passwordStdin: flags.passwordStdin,
  };
}

function parseMechanism(value: string): UserScramMechanism {
  const upper = value.toUpperCase();
  const found = MECHANISMS.find((mechanism) => mechanism === upper);
  if (found === undefined) throw new InvalidArgumentError(`expected ${MECHANISMS.join(' or ')}`);
  return found;
}

function parseIterations(value: string): number {
  const iterations = Number(value);
  if (!Number.isInteger(iterations) || iterations < 4096 || iterations > 16_384) {
    throw new InvalidArgumentError('expected an integer from 4096 to 16384');
  }
  return iterations;
}
