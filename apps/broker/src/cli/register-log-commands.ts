import type { Command } from 'commander';
import type { CliDeps } from './cli-deps';
import { configFlagsFrom } from './config-options';
import type { ExitReporter } from './global-options';
import { parsePartition } from './log-partitions';
import { reportClientError } from './report-client-error';

/** The options that find the data directory, as `broker start` reads them. */
function addDataDirectoryOptions(command: Command): Command {
  return command
    .option('--config <file>', 'YAML configuration file (default: $WEIR_CONFIG)')
    .option(
      '--set <key=value>',
      'override one setting, e.g. --set dataDir=/srv/weir (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option('--data-dir <dir>', 'the broker’s data directory (dataDir; default ./data)');
}

/**
 * `weir log check|repair`: offline commands on a stopped broker's data directory. Modules load
 * when their command runs.
 */
export function registerLogCommands(
  program: Command,
  deps: Pick<CliDeps, 'env' | 'stdout' | 'stderr' | 'stdin'>,
  exit: ExitReporter,
): void {
  const log = program
    .command('log')
    .description('check and repair partition logs on disk (with the broker stopped)');

  addDataDirectoryOptions(
    log
      .command('check [topic] [partition]')
      .description(
        'check a partition’s segments and indexes; show the first damage and what a repair would cut (changes nothing)',
      )
      .option('--all', 'check every partition in the data directory', false),
  ).action(
    async (topic: string | undefined, partition: string | undefined, options: Record<string, unknown>) => {
      try {
        const { logCheckCommand } = await import('./log-check-command');
        exit(
          await logCheckCommand(
            configFlagsFrom(options),
            { topic, partition: parsePartition(partition), all: options.all === true },
            deps,
          ),
        );
      } catch (error) {
        exit(reportClientError(error, deps.stderr));
      }
    },
  );

  addDataDirectoryOptions(
    log
      .command('repair <topic> <partition>')
      .description(
        'cut a damaged partition log at its first bad batch, rebuild its indexes and producer state, and let the broker serve it again',
      )
      .option('--yes', 'do not ask for confirmation', false),
  ).action(async (topic: string, partition: string, options: Record<string, unknown>) => {
    try {
      const { logRepairCommand } = await import('./log-repair-command');
      exit(
        await logRepairCommand(
          configFlagsFrom(options),
          { topic, partition: parsePartition(partition)!, yes: options.yes === true },
          deps,
        ),
      );
    } catch (error) {
      exit(reportClientError(error, deps.stderr));
    }
  });
}
