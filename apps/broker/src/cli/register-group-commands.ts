import type { OffsetResetTarget } from '@weir/protocol';
import type { Command } from 'commander';
import type { ClientCliDeps } from './client-cli-deps';
import type { ExitReporter } from './global-options';
import { parseResetTarget, parseShiftBy } from './group-reset-target';
import {
  type InternalListenerFlags,
  runInternalCommand,
  withInternalOptions,
} from './internal-listener-command';
import { runAdminCommand } from './run-client-command';
import { UsageError } from './usage-error';

/** `weir group list|describe|lag|reset-offsets|delete`. Command modules load when their command runs. */
export function registerGroupCommands(program: Command, deps: ClientCliDeps, exit: ExitReporter): void {
  const group = program
    .command('group')
    .description('list, describe, inspect lag of, reset and delete consumer groups');

  group
    .command('list')
    .description('every consumer group with its state and member count')
    .action((_options: unknown, command: Command) =>
      runAdminCommand(command, deps, async (admin) =>
        (await import('./group-commands')).groupListCommand(admin, deps),
      ).then(exit),
    );

  group
    .command('describe <group>')
    .description('state, assignor and members with their partitions')
    .action((groupId: string, _options: unknown, command: Command) =>
      runAdminCommand(command, deps, async (admin) =>
        (await import('./group-commands')).groupDescribeCommand(admin, { groupId }, deps),
      ).then(exit),
    );

  // Lag is computed by the broker, one way for the console, the metrics and this command; that
  // view is a Weir API of the internal listener (docs/architecture.md §8).
  withInternalOptions(
    group
      .command('lag <group>')
      .description('committed offset, log end offset and lag per partition (through the internal listener)'),
  ).action((groupId: string, flags: InternalListenerFlags) =>
    runInternalCommand(flags, deps, async (session) =>
      (await import('./group-commands')).groupLagCommand(session.internal, { groupId }, deps),
    ).then(exit),
  );

  group
    .command('reset-offsets <group>')
    .description('plan (and with --execute, apply) new committed offsets; the group must have no members')
    .option('--to <target>', 'earliest, latest, an offset, or @<timestamp in ms>', parseResetTarget)
    .option('--shift-by <n>', 'move each committed offset by n (negative: back)', parseShiftBy)
    .option('--topic <topic>', 'every partition of this topic (default: the topics the group committed)')
    .option('--execute', 'apply the plan (default: only print it)', false)
    .action((groupId: string, options: ResetFlags, command: Command) =>
      runAdminCommand(command, deps, async (admin) => {
        if ((options.to === undefined) === (options.shiftBy === undefined))
          throw new UsageError('reset-offsets needs exactly one of --to and --shift-by');
        return (await import('./group-commands')).groupResetOffsetsCommand(
          admin,
          {
            groupId,
            target: (options.to ?? options.shiftBy)!,
            topic: options.topic,
            execute: options.execute,
          },
          deps,
        );
      }).then(exit),
    );

  group
    .command('delete <group>')
    .description('delete an empty group and its committed offsets')
    .action((groupId: string, _options: unknown, command: Command) =>
      runAdminCommand(command, deps, async (admin) =>
        (await import('./group-commands')).groupDeleteCommand(admin, { groupId }, deps),
      ).then(exit),
    );
}

interface ResetFlags {
  to?: OffsetResetTarget;
  shiftBy?: OffsetResetTarget;
  topic?: string;
  execute: boolean;
}
