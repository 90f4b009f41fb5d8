import type { Command } from 'commander';
import type { ClientCliDeps } from './client-cli-deps';
import type { ExitReporter } from './global-options';
import type { InternalSession } from './internal-session';
import { UsageError } from './usage-error';

export const DEFAULT_INTERNAL_LISTENER = '127.0.0.1:9093';

/** Where the internal listener is and how to authenticate to it, as the flags give them. */
export interface InternalListenerFlags {
  internal: string;
  tokenFile?: string;
  token?: string;
  dataDir?: string;
  internalTlsCa?: string;
  internalTlsCert?: string;
  internalTlsKey?: string;
}

/**
 * `weir txn list|describe|abort`. Kafka serves transaction inspection only in flexible versions,
 * which Weir's client listener does not advertise, so these commands talk to the internal
 * listener (SASL WEIR-TOKEN) instead of `--bootstrap-server`. Command modules load when their
 * command runs.
 */
export function registerTxnCommands(program: Command, deps: ClientCliDeps, exit: ExitReporter): void {
  const txn = program
    .command('txn')
    .description('list, describe and abort transactions (through the internal listener)');

  withInternalOptions(
    txn.command('list').description('every transactional id with its producer id and state'),
  ).action((flags: InternalListenerFlags) =>
    runTxnCommand(flags, deps, async (session) =>
      (await import('./txn-commands')).txnListCommand(session.admin, deps),
    ).then(exit),
  );

  withInternalOptions(
    txn
      .command('describe <transactional-id>')
      .description('state, producer id and epoch, timeout, start time and partitions'),
  ).action((transactionalId: string, flags: InternalListenerFlags) =>
    runTxnCommand(flags, deps, async (session) =>
      (await import('./txn-commands')).txnDescribeCommand(session.admin, { transactionalId }, deps),
    ).then(exit),
  );

  withInternalOptions(
    txn
      .command('abort <transactional-id>')
      .description('abort the ongoing transaction (asks to type the id unless --yes)')
      .requiredOption('--reason <text>', 'why (the broker logs it with who asked)')
      .option('--yes', 'do not ask for confirmation', false),
  ).action((transactionalId: string, flags: InternalListenerFlags & { reason: string; yes: boolean }) =>
    runTxnCommand(flags, deps, async (session) => {
      if (flags.reason.trim() === '') throw new UsageError('--reason must not be empty');
      return (await import('./txn-commands')).txnAbortCommand(
        session,
        { transactionalId, reason: flags.reason, yes: flags.yes },
        deps,
      );
    }).then(exit),
  );
}

export function withInternalOptions(command: Command): Command {
  return command
    .option('--internal <host:port>', 'the broker’s internal listener', DEFAULT_INTERNAL_LISTENER)
    .option(
      '--token-file <path>',
      'file holding the internal listener token (default: <data-dir>/internal-listener.token)',
    )
    .option('--token <token>', 'the internal listener token itself (visible in the process list)')
    .option('--data-dir <dir>', 'the broker’s data directory, where its generated token is', './data')
    .option('--internal-tls-ca <file>', 'CA of the internal listener’s certificate (PEM); turns TLS on')
    .option(
      '--internal-tls-cert <file>',
      'client certificate (PEM) for mutual TLS; one the broker trusts stands in for the token',
    )
    .option('--internal-tls-key <file>', 'the client certificate’s private key (PEM)');
}

async function runTxnCommand(
  flags: InternalListenerFlags,
  deps: ClientCliDeps,
  work: (session: InternalSession) => Promise<number | undefined>,
): Promise<number> {
  const { withInternalSession } = await import('./internal-session');
  return withInternalSession(flags, deps, work);
}
