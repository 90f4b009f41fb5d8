import type { CompressionType } from '@weir/protocol';
import { type Command, Option } from 'commander';
import type { ClientCliDeps } from './client-cli-deps';
import { COMPRESSION_NAMES } from './compression-names';
import type { ExitReporter } from './global-options';
import { collectKeyValue, integerAtLeast } from './option-parsers';
import type { OutputFormat } from './record-format';
import { runAdminCommand, runClientCommand } from './run-client-command';
import { parseStartPosition, type StartPosition } from './start-position';
import { UsageError } from './usage-error';

/** `--acks` values; `all` is Kafka's other spelling of -1. */
const ACKS: Readonly<Record<string, -1 | 0 | 1>> = { '-1': -1, all: -1, '0': 0, '1': 1 };

/** `--format` values (the formats themselves are in record-format.ts, loaded when consume runs). */
const OUTPUT_FORMATS = ['text', 'json', 'hex'] as const satisfies readonly OutputFormat[];

/** `weir produce`, `weir consume` and `weir offsets`. Command modules load when their command runs. */
export function registerDataCommands(program: Command, deps: ClientCliDeps, exit: ExitReporter): void {
  program
    .command('produce <topic>')
    .description('send one record per line of stdin or --file; a summary goes to stderr')
    .option('--file <path>', 'read this file instead of stdin (shows progress on a terminal)')
    .option('--key-separator <sep>', 'split each line into key and value at the first <sep> (\\t: a tab)')
    .option('--header <key=value>', 'a header for every record (repeatable)', collectKeyValue, [])
    .option('--partition <p>', 'send every record to this partition', integerAtLeast(0))
    .addOption(
      new Option('--compression <codec>', 'batch compression').choices(COMPRESSION_NAMES).default('none'),
    )
    .addOption(
      new Option('--acks <acks>', 'replicas that must have a batch: -1 (all), 0 or 1')
        .choices(Object.keys(ACKS))
        .default('-1'),
    )
    .action((topic: string, options: ProduceFlags, command: Command) =>
      runClientCommand(command, deps, async (client) => {
        const [{ produceCommand }, { openInputFile }, { keySeparatorBytes }] = await Promise.all([
          import('./produce-command'),
          import('./produce-input'),
          import('./produce-line'),
        ]);
        return produceCommand(
          client,
          {
            topic,
            file: options.file,
            keySeparator:
              options.keySeparator === undefined ? undefined : keySeparatorBytes(options.keySeparator),
            headers: options.header,
            partition: options.partition,
            compression: options.compression,
            acks: ACKS[options.acks]!,
          },
          {
            stdin: deps.stdin,
            stderr: deps.stderr,
            openFile: openInputFile,
            nowMs: deps.nowMs,
            stopRequested: deps.shutdownSignal(),
          },
        );
      }).then(exit),
    );

  program
    .command('consume <topic>')
    .description('print records to stdout, one per line; the count goes to stderr')
    .option('--partition <p>', 'only this partition (default: all)', integerAtLeast(0))
    .addOption(
      new Option('--from <position>', 'beginning, end, an offset, or @<timestamp in ms>')
        .argParser(parseStartPosition)
        .default({ kind: 'end' } satisfies StartPosition, 'end'),
    )
    .option('--max-messages <n>', 'stop after n records', integerAtLeast(1))
    .addOption(new Option('--format <format>', 'output format').choices(OUTPUT_FORMATS).default('text'))
    .option('--print-key', 'text and hex: print the key and a tab before the value', false)
    .option('--exit-at-end', 'stop once every partition reaches the end offset it had at the start', false)
    .option('--timeout-ms <ms>', 'stop after this long without a record', integerAtLeast(1))
    .option('--group <group>', 'read as a member of this consumer group, committing as it goes')
    .action((topic: string, options: ConsumeFlags, command: Command) =>
      runClientCommand(command, deps, async (client) => {
        if (options.group === undefined) {
          return (await import('./consume-command')).consumeCommand(
            client,
            { topic, ...options },
            { ...deps, stopRequested: deps.shutdownSignal() },
          );
        }
        // A group decides partitions and positions itself; --from only picks where partitions
        // without a committed offset start.
        if (options.partition !== undefined || options.exitAtEnd)
          throw new UsageError('--group cannot be combined with --partition or --exit-at-end');
        if (options.from.kind !== 'beginning' && options.from.kind !== 'end')
          throw new UsageError(
            'with --group, --from is beginning or end (for partitions without a committed offset)',
          );
        return (await import('./consume-group-command')).consumeGroupCommand(
          client,
          {
            topic,
            groupId: options.group,
            autoOffsetReset: options.from.kind === 'beginning' ? 'earliest' : 'latest',
            maxMessages: options.maxMessages,
            format: options.format,
            printKey: options.printKey,
            timeoutMs: options.timeoutMs,
          },
          { ...deps, stopRequested: deps.shutdownSignal() },
        );
      }).then(exit),
    );

  program
    .command('offsets <topic>')
    .description('earliest and latest offset of each partition')
    .option(
      '--timestamp <ms>',
      'also the first offset at or after this time (ms since the epoch)',
      integerAtLeast(0),
    )
    .action((topic: string, options: { timestamp?: number }, command: Command) =>
      runAdminCommand(command, deps, async (admin) =>
        (await import('./offsets-command')).offsetsCommand(
          admin,
          { topic, timestampMs: options.timestamp },
          deps,
        ),
      ).then(exit),
    );
}

interface ProduceFlags {
  file?: string;
  keySeparator?: string;
  header: [string, string][];
  partition?: number;
  compression: CompressionType;
  acks: string;
}

interface ConsumeFlags {
  partition?: number;
  from: StartPosition;
  maxMessages?: number;
  format: OutputFormat;
  printKey: boolean;
  exitAtEnd: boolean;
  timeoutMs?: number;
  group?: string;
}
