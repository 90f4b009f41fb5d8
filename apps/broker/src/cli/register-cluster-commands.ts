import { type Command, InvalidArgumentError } from 'commander';
import type { ClientCliDeps } from './client-cli-deps';
import type { ExitReporter } from './global-options';
import {
  type InternalListenerFlags,
  runInternalCommand,
  withInternalOptions,
} from './internal-listener-command';
import { integerAtLeast } from './option-parsers';

interface EventsFlags extends InternalListenerFlags {
  topic?: string;
  partition?: number;
  broker?: number;
  since?: string;
  limit: number;
  json: boolean;
}

interface StatusFlags extends InternalListenerFlags {
  json: boolean;
  timeout: number;
}

/**
 * `weir cluster status`: the brokers and the replication health the console's ISR page shows,
 * judged by the same SDK code; `weir cluster events`: the replication timeline the brokers keep
 * (docs/architecture.md §6.7). Both go through the internal listener like `weir user`. Command
 * modules load when their command runs.
 */
export function registerClusterCommands(program: Command, deps: ClientCliDeps, exit: ExitReporter): void {
  const cluster = program
    .command('cluster')
    .description('the cluster: its brokers and replication health, its replication timeline');

  withInternalOptions(
    cluster
      .command('status')
      .description('the cluster id, the controller, the brokers and the partitions needing attention')
      .option('--json', 'one JSON document', false)
      .option('--timeout <ms>', 'how long each broker has to say what it leads', integerAtLeast(1), 3_000)
      .addHelpText(
        'after',
        [
          '',
          'Exit status: 0 when healthy (no partition offline, under or at min ISR, under-replicated',
          'or led by a non-preferred replica, and every broker answered); 1 when anything needs',
          'attention or the cluster could not be read; 2 for a usage error.',
        ].join('\n'),
      ),
  ).action((flags: StatusFlags) =>
    runInternalCommand(flags, deps, async (session) => {
      const { clusterStatusCommand } = await import('./cluster-status-command');
      return clusterStatusCommand(session, { json: flags.json, timeoutMs: flags.timeout }, deps);
    }).then(exit),
  );

  withInternalOptions(
    cluster
      .command('events')
      .description('leader changes, ISR changes, reassignments and broker sessions, newest first')
      .option('--topic <topic>', 'only events of this topic')
      .option('--partition <n>', 'only events of this partition', integerAtLeast(0))
      .option('--broker <id>', 'only events naming this broker', integerAtLeast(0))
      .option('--since <duration>', 'only events this recent (30s, 15m, 1h, 7d)', checkSince)
      .option('--limit <n>', 'at most this many events (1..5000)', integerAtLeast(1), 100)
      .option('--json', 'one JSON object per line', false),
  ).action((flags: EventsFlags) =>
    runInternalCommand(flags, deps, async (session) => {
      const { clusterEventsCommand, parseSince } = await import('./cluster-events-command');
      return clusterEventsCommand(
        session.internal,
        {
          query: {
            limit: flags.limit,
            ...(flags.topic === undefined ? {} : { topic: flags.topic }),
            ...(flags.partition === undefined ? {} : { partition: flags.partition }),
            ...(flags.broker === undefined ? {} : { brokerId: flags.broker }),
            ...(flags.since === undefined ? {} : { sinceMs: Date.now() - parseSince(flags.since) }),
          },
          json: flags.json,
        },
        deps,
      );
    }).then(exit),
  );
}

function checkSince(text: string): string {
  if (!/^\d+(s|m|h|d)$/.test(text.trim())) {
    throw new InvalidArgumentError('a number and a unit: 30s, 15m, 1h, 7d');
  }
  return text;
}
