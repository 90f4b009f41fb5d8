import type { Command } from 'commander';
import type { ClientCliDeps } from './client-cli-deps';
import type { ExitReporter } from './global-options';
import {
  type InternalListenerFlags,
  runInternalCommand,
  withInternalOptions,
} from './internal-listener-command';
import { collectKeyValue, collectText, integerAtLeast } from './option-parsers';
import { runAdminCommand } from './run-client-command';

/** `weir topic create|list|describe|alter|delete`. Command modules load when their command runs. */
export function registerTopicCommands(program: Command, deps: ClientCliDeps, exit: ExitReporter): void {
  const topic = program.command('topic').description('create, list, describe, alter and delete topics');

  topic
    .command('create <name>')
    .description('create a topic')
    .option(
      '--partitions <n>',
      'number of partitions (default: the broker’s num.partitions)',
      integerAtLeast(1),
    )
    .option(
      '--replication-factor <n>',
      'replicas of each partition, at most the live brokers (default: the broker’s default.replication.factor)',
      integerAtLeast(1),
    )
    .option(
      '--config <key=value>',
      'a topic config, e.g. retention.ms=3600000 (repeatable)',
      collectKeyValue,
      [],
    )
    .option('--validate-only', 'only check that the topic could be created', false)
    .action((name: string, options: CreateFlags, command: Command) =>
      runAdminCommand(command, deps, async (admin) =>
        (await import('./topic-create-command')).topicCreateCommand(
          admin,
          {
            name,
            partitions: options.partitions,
            replicationFactor: options.replicationFactor,
            configs: options.config,
            validateOnly: options.validateOnly,
          },
          deps,
        ),
      ).then(exit),
    );

  topic
    .command('list')
    .description('list topics with their partition counts')
    .option('--internal', 'include internal topics such as __consumer_offsets', false)
    .action((options: { internal: boolean }, command: Command) =>
      runAdminCommand(command, deps, async (admin) =>
        (await import('./topic-list-command')).topicListCommand(
          admin,
          { includeInternal: options.internal },
          deps,
        ),
      ).then(exit),
    );

  // The log cleaner's state is a Weir API of the internal listener: with --internal the whole
  // command goes there (it serves the Kafka APIs too), without it the client listener answers.
  withInternalOptions(
    topic
      .command('describe <name>')
      .description(
        'partitions (leader, replicas, ISR, log start/end), configs that differ from the default, and for a compacted topic the log cleaner’s state (with --internal)',
      ),
    { optional: 'to also show the log cleaner’s state of a compacted topic (default: not asked)' },
  ).action((name: string, flags: Partial<InternalListenerFlags>, command: Command) => {
    const { internal } = flags;
    const described =
      internal === undefined
        ? runAdminCommand(command, deps, async (admin) =>
            (await import('./topic-describe-command')).topicDescribeCommand(admin, { name }, deps),
          )
        : runInternalCommand({ ...flags, internal }, deps, async (session) => {
            const [{ topicDescribeCommand }, { sessionCleanerSource }] = await Promise.all([
              import('./topic-describe-command'),
              import('./topic-cleaner-state'),
            ]);
            return topicDescribeCommand(
              session.admin,
              { name, cleaner: sessionCleanerSource(session) },
              deps,
            );
          });
    return described.then(exit);
  });

  topic
    .command('alter <name>')
    .description('change configs (only those named) or add partitions')
    .option('--config <key=value>', 'set a topic config (repeatable)', collectKeyValue, [])
    .option('--delete-config <key>', 'return a config to its default (repeatable)', collectText, [])
    .option('--partitions <n>', 'raise the partition count to n', integerAtLeast(1))
    .action((name: string, options: AlterFlags, command: Command) =>
      runAdminCommand(command, deps, async (admin) =>
        (await import('./topic-alter-command')).topicAlterCommand(
          admin,
          {
            name,
            configs: options.config,
            deleteConfigs: options.deleteConfig,
            partitions: options.partitions,
          },
          deps,
        ),
      ).then(exit),
    );

  topic
    .command('delete <name>')
    .description('delete a topic and all its records (asks to type the name unless --yes)')
    .option('--yes', 'do not ask for confirmation (needed when stdin is not a terminal)', false)
    .action((name: string, options: { yes: boolean }, command: Command) =>
      runAdminCommand(command, deps, async (admin) =>
        (await import('./topic-delete-command')).topicDeleteCommand(admin, { name, yes: options.yes }, deps),
      ).then(exit),
    );
}

interface CreateFlags {
  partitions?: number;
  replicationFactor?: number;
  config: [string, string][];
  validateOnly: boolean;
}

interface AlterFlags {
  config: [string, string][];
  deleteConfig: string[];
  partitions?: number;
}
