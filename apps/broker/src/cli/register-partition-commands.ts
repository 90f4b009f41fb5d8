import { type Command, InvalidArgumentError } from 'commander';
import type { ClientCliDeps } from './client-cli-deps';
import type { ExitReporter } from './global-options';
import { integerAtLeast } from './option-parsers';
import { runAdminCommand } from './run-client-command';

interface ElectFlags {
  topic?: string;
  partition?: number;
  type: 'preferred' | 'unclean';
  json: boolean;
}

/**
 * `weir partition elect-leaders`; returns the `partition` command, which the reassignment commands
 * join. Command modules load when their command runs.
 */
export function registerPartitionCommands(
  program: Command,
  deps: ClientCliDeps,
  exit: ExitReporter,
): Command {
  const partition = program
    .command('partition')
    .description('partitions: leadership and moves between brokers');

  partition
    .command('elect-leaders')
    .description(
      'make the preferred replica lead again (or give a leaderless partition an unclean leader); every partition without --topic',
    )
    .option('--topic <topic>', 'only this topic')
    .option('--partition <n>', 'only this partition of --topic', integerAtLeast(0))
    .option('--type <type>', 'preferred or unclean', electionType, 'preferred')
    .option('--json', 'one JSON object per partition', false)
    .action((flags: ElectFlags, command: Command) =>
      runAdminCommand(command, deps, async (admin) =>
        (await import('./partition-elect-command')).partitionElectCommand(
          admin,
          {
            ...(flags.topic === undefined ? {} : { topic: flags.topic }),
            ...(flags.partition === undefined ? {} : { partition: flags.partition }),
            electionType: flags.type,
            json: flags.json,
          },
          deps,
        ),
      ).then(exit),
    );
  return partition;
}

function electionType(text: string): 'preferred' | 'unclean' {
  if (text !== 'preferred' && text !== 'unclean') throw new InvalidArgumentError('preferred or unclean');
  return text;
}
