import { type Command, InvalidArgumentError } from 'commander';
import type { ClientCliDeps } from './client-cli-deps';
import type { ExitReporter } from './global-options';
import {
  type InternalListenerFlags,
  runInternalCommand,
  withInternalOptions,
} from './internal-listener-command';
import { integerAtLeast } from './option-parsers';
import { UsageError } from './usage-error';

interface ReassignFlags extends InternalListenerFlags {
  plan?: string;
  move: string[];
  execute: boolean;
  status: boolean;
  cancel: boolean;
  all: boolean;
  json: boolean;
  timeout: number;
  throttle?: number | 'none';
  wait: boolean;
}

interface DrainFlags extends InternalListenerFlags {
  execute: boolean;
  json: boolean;
  timeout: number;
  throttle?: number | 'none';
  wait: boolean;
}

const THROTTLE_HELP =
  'with --execute: bytes/s each broker may fetch for the replicas being added ("none" lifts it); alone: change it for the moves running';

/**
 * `weir partition reassign` and `weir broker drain` (docs/architecture.md §6.6), through the
 * internal listener, where the reassignment APIs are served. Command modules load when their
 * command runs.
 */
export function registerReassignmentCommands(
  partition: Command,
  broker: Command,
  deps: ClientCliDeps,
  exit: ExitReporter,
): void {
  withInternalOptions(
    partition
      .command('reassign')
      .description(
        'preview, start, follow or cancel partition moves (shows the plan unless --status/--cancel)',
      )
      .option('--plan <file>', 'the moves in Kafka’s reassignment JSON ("-" reads stdin)')
      .option('--move <topic:partition=ids>', 'one move, e.g. orders:0=2,3,4 (repeatable)', collectMove, [])
      .option('--execute', 'submit the moves after showing the plan', false)
      .option('--status', 'the moves in progress, with how far each new replica has copied', false)
      .option('--cancel', 'cancel the named moves (or every one with --all)', false)
      .option('--all', 'with --cancel: every move in progress', false)
      .option('--json', 'the plan as Kafka reassignment JSON; --status as JSON lines', false)
      .option('--timeout <ms>', 'how long the brokers may take to store the moves', integerAtLeast(1), 60_000)
      .option('--throttle <bytes/s>', THROTTLE_HELP, throttleRate)
      .option('--wait', 'with --execute: follow the moves until they complete, with progress', false),
  ).action((flags: ReassignFlags) =>
    runInternalCommand(flags, deps, async (session) => {
      const commands = await import('./partition-reassign-command');
      if (flags.status) return commands.statusCommand(session, flags.json, deps);
      const moves = [...(await planFileMoves(flags.plan, deps)), ...flags.move.map(parseMove)];
      if (flags.cancel) {
        if (flags.all === moves.length > 0) {
          throw new UsageError('--cancel takes the moves to cancel (--plan/--move) or --all, not both');
        }
        return commands.cancelCommand(session.internal, flags.all ? 'all' : moves, deps);
      }
      if (moves.length === 0 && flags.throttle !== undefined) {
        await commands.setReplicationThrottle(session.admin, flags.throttle, deps);
        return undefined;
      }
      if (moves.length === 0) throw new UsageError('name the moves with --plan <file> or --move');
      return commands.reassignCommand(
        session,
        {
          moves,
          execute: flags.execute,
          json: flags.json,
          timeoutMs: flags.timeout,
          ...(flags.throttle === undefined ? {} : { throttle: flags.throttle }),
          wait: flags.wait,
        },
        deps,
      );
    }).then(exit),
  );

  withInternalOptions(
    broker
      .command('drain')
      .description('move every replica off a broker (shows the plan; --execute starts it)')
      .argument('<brokerId>', 'the broker to empty', integerAtLeast(0))
      .option('--execute', 'submit the moves after showing the plan', false)
      .option('--json', 'the plan as Kafka reassignment JSON', false)
      .option('--timeout <ms>', 'how long the brokers may take to store the moves', integerAtLeast(1), 60_000)
      .option('--throttle <bytes/s>', THROTTLE_HELP, throttleRate)
      .option('--wait', 'with --execute: follow the moves until they complete, with progress', false),
  ).action((brokerId: number, flags: DrainFlags) =>
    runInternalCommand(flags, deps, async (session) => {
      const { brokerDrainCommand } = await import('./broker-drain-command');
      return brokerDrainCommand(
        session,
        {
          brokerId,
          execute: flags.execute,
          json: flags.json,
          timeoutMs: flags.timeout,
          ...(flags.throttle === undefined ? {} : { throttle: flags.throttle }),
          wait: flags.wait,
        },
        deps,
      );
    }).then(exit),
  );
}

function throttleRate(text: string): number | 'none' {
  if (text.trim() === 'none') return 'none';
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) {
    throw new InvalidArgumentError('a rate in bytes per second (a whole number ≥ 1), or "none"');
  }
  return Number(text);
}

function collectMove(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `orders:0=2,3,4` as a move; a usage error names what is wrong. */
function parseMove(text: string): { topic: string; partition: number; replicas: number[] } {
  const match = /^(.+):(\d+)=(\d+(?:,\d+)*)$/.exec(text.trim());
  if (match === null) {
    throw new UsageError(`--move ${text}: expected topic:partition=broker,broker,… (e.g. orders:0=2,3,4)`);
  }
  return { topic: match[1]!, partition: Number(match[2]), replicas: match[3]!.split(',').map(Number) };
}

async function planFileMoves(path: string | undefined, deps: ClientCliDeps) {
  if (path === undefined) return [];
  const { readFile } = await import('node:fs/promises');
  const { parseReassignmentJson } = await import('@weir/protocol');
  let text: string;
  try {
    text = path === '-' ? await readAll(deps.stdin) : await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--plan: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    return parseReassignmentJson(text);
  } catch (error) {
    throw new UsageError(`--plan ${path}: ${(error as Error).message}`);
  }
}

async function readAll(stream: AsyncIterable<Buffer | string>): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text;
}
