import type { ConfigFlags } from '../config/flag-overrides';
import { repairPartitionLog } from '../log/log-repair';
import { createStorageIo } from '../log/storage';
import type { CliDeps } from './cli-deps';
import { confirmByTyping } from './confirm-by-typing';
import { EXIT_BAD_CONFIG, loadConfigOrReport } from './load-config-or-report';
import { printCheck } from './log-check-command';
import { checkOne, openOfflineLogs, selectPartitions } from './log-partitions';
import { reportClientError } from './report-client-error';
import { UsageError } from './usage-error';

/** The user did not confirm, so nothing was cut. */
const EXIT_NOT_CONFIRMED = 1;

/**
 * `weir log repair`: shows what `weir log check` shows, asks for confirmation (typing the partition
 * name on a terminal, or `--yes`), then cuts the damaged tail, rebuilds indexes and producer
 * state, and moves the partition's flushed point down to what survives, so the next start serves
 * it again. The broker must be stopped: it is not asked, and a running one would go on writing.
 */
export async function logRepairCommand(
  flags: ConfigFlags,
  options: { topic: string; partition: number; yes: boolean },
  deps: Pick<CliDeps, 'env' | 'stdout' | 'stderr' | 'stdin'>,
): Promise<number> {
  const config = await loadConfigOrReport(flags, deps);
  if (!config) return EXIT_BAD_CONFIG;
  try {
    const io = createStorageIo();
    const logs = await openOfflineLogs(config, io);
    const [target] = await selectPartitions(logs, { ...options, all: false });
    const check = await checkOne(logs, target!);
    printCheck(check, deps.stdout);
    if (check.repair === undefined) {
      deps.stdout.write('Nothing to repair.\n');
      return 0;
    }
    const name = `${options.topic}-${options.partition}`;
    if (!options.yes) {
      const stdin = deps.stdin;
      if (stdin?.isTTY !== true) {
        throw new UsageError(
          `refusing to repair ${name} without --yes (stdin is not a terminal to confirm on)`,
        );
      }
      const confirmed = await confirmByTyping(
        `Repairing ${name} cuts what is shown above. Type the partition name (${name}) to confirm: `,
        name,
        { input: stdin, output: deps.stderr },
      );
      if (!confirmed) {
        deps.stderr.write(`${name} was not repaired.\n`);
        return EXIT_NOT_CONFIRMED;
      }
    }
    const result = await repairPartitionLog({ io, check, config: logs.configFor(options.topic) });
    deps.stdout.write(
      `Repaired ${name}: cut ${result.truncatedBytes} bytes; the log ends at offset ${result.logEndOffset}, and the flushed point is there too, so the next start serves the partition.\n`,
    );
    const after = await checkOne(logs, target!);
    if (after.repair !== undefined) {
      deps.stderr.write(`${name} still shows damage after the repair; run \`weir log check\` to see it.\n`);
      return 1;
    }
    return 0;
  } catch (error) {
    return reportClientError(error, deps.stderr);
  }
}
