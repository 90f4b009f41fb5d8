import type { Command } from 'commander';
import type { ClientCliDeps } from './client-cli-deps';
import type { ExitReporter } from './global-options';
import {
  type InternalListenerFlags,
  runInternalCommand,
  withInternalOptions,
} from './internal-listener-command';
import { UsageError } from './usage-error';

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
    runInternalCommand(flags, deps, async (session) =>
      (await import('./txn-commands')).txnListCommand(session.admin, deps),
    ).then(exit),
  );

  withInternalOptions(
    txn
      .command('describe <transactional-id>')
      .description('state, producer id and epoch, timeout, start time and partitions'),
  ).action((transactionalId: string, flags: InternalListenerFlags) =>
    runInternalCommand(flags, deps, async (session) =>
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
    runInternalCommand(flags, deps, async (session) => {
      if (flags.reason.trim() === '') throw new UsageError('--reason must not be empty');
      return (await import('./txn-commands')).txnAbortCommand(
        session,
        { transactionalId, reason: flags.reason, yes: flags.yes },
        deps,
      );
    }).then(exit),
  );
}
