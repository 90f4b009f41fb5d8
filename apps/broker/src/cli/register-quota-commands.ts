import type { Command } from 'commander';
import type { ClientCliDeps } from './client-cli-deps';
import type { ExitReporter } from './global-options';
import { collectText } from './option-parsers';
import type { QuotaEntityFlags } from './quota-commands';
import { runAdminCommand } from './run-client-command';

function entityOptions(command: Command): Command {
  return command
    .option('--user <name>', 'a user (the principal name without "User:"); <default> for the default user')
    .option('--client-id <id>', 'a client id; <default> for the default client id');
}

/**
 * `weir quota list|set|delete`: Kafka's client quotas (DescribeClientQuotas, AlterClientQuotas) on
 * `--bootstrap-server`. Command modules load when their command runs.
 */
export function registerQuotaCommands(program: Command, deps: ClientCliDeps, exit: ExitReporter): void {
  const quota = program
    .command('quota')
    .description(
      'list, set and delete client quotas (producer_byte_rate, consumer_byte_rate, request_percentage)',
    );

  entityOptions(quota.command('list'))
    .description('every client quota, or those of the named user and/or client id')
    .action((options: QuotaEntityFlags, command: Command) =>
      runAdminCommand(command, deps, async (admin) =>
        (await import('./quota-commands')).quotaListCommand(admin, options, deps),
      ).then(exit),
    );

  entityOptions(quota.command('set'))
    .description('set quotas of a user, a client id, or both')
    .option('--quota <key=value>', 'e.g. producer_byte_rate=1048576 (repeatable)', collectText, [])
    .option('--validate-only', 'check with the broker without changing anything', false)
    .action((options: QuotaEntityFlags & { quota: string[]; validateOnly: boolean }, command: Command) =>
      runAdminCommand(command, deps, async (admin) =>
        (await import('./quota-commands')).quotaSetCommand(admin, options, deps),
      ).then(exit),
    );

  entityOptions(quota.command('delete'))
    .description('remove quotas of an entity: the keys given, or all of them')
    .option('--key <key>', 'a quota key to remove (repeatable; all when none)', collectText, [])
    .action((options: QuotaEntityFlags & { key: string[] }, command: Command) =>
      runAdminCommand(command, deps, async (admin) =>
        (await import('./quota-commands')).quotaDeleteCommand(admin, options, deps),
      ).then(exit),
    );
}
