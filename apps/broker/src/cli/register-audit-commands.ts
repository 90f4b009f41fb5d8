import { AUDIT_ACTIONS } from '@weir/protocol';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { ClientCliDeps } from './client-cli-deps';
import type { ExitReporter } from './global-options';
import {
  type InternalListenerFlags,
  runInternalCommand,
  withInternalOptions,
} from './internal-listener-command';
import { integerAtLeast } from './option-parsers';

interface AuditListFlags extends InternalListenerFlags {
  principal?: string;
  action?: string;
  resource?: string;
  outcome?: 'ok' | 'failed';
  since?: string;
  until?: string;
  before?: string;
  limit: number;
  json: boolean;
}

/**
 * `weir audit list`: the audit log the brokers keep (docs/architecture.md §8), through the
 * internal listener like `weir cluster events`, with the filters of the console's audit page.
 */
export function registerAuditCommands(program: Command, deps: ClientCliDeps, exit: ExitReporter): void {
  const audit = program.command('audit').description('the audit log of administrative actions');
  withInternalOptions(
    audit
      .command('list')
      .description('who created, deleted or changed what, and how it ended, newest first')
      .option('--principal <text>', 'only principals containing this (case-insensitive)')
      .addOption(new Option('--action <action>', 'only this action').choices([...AUDIT_ACTIONS]))
      .option('--resource <text>', 'only resource names containing this (case-insensitive)')
      .addOption(
        new Option('--outcome <outcome>', 'only succeeded or failed actions').choices(['ok', 'failed']),
      )
      .option(
        '--since <time>',
        'only events this recent (30s, 15m, 1h, 7d) or after this ISO time',
        checkTime,
      )
      .option('--until <time>', 'only events before this ISO time (or this long ago: 1h)', checkTime)
      .option('--before <cursor>', 'only events older than this cursor (printed as "more:" on stderr)')
      .option('--limit <n>', 'at most this many events (1..1000)', integerAtLeast(1), 100)
      .option('--json', 'one JSON object per line', false),
  ).action((flags: AuditListFlags) =>
    runInternalCommand(flags, deps, async (session) => {
      const { auditListCommand } = await import('./audit-list-command');
      const nowMs = Date.now();
      return auditListCommand(
        session,
        {
          query: {
            limit: flags.limit,
            ...(flags.principal === undefined ? {} : { principal: flags.principal }),
            ...(flags.action === undefined ? {} : { action: flags.action }),
            ...(flags.resource === undefined ? {} : { resourceName: flags.resource }),
            ...(flags.outcome === undefined ? {} : { outcome: flags.outcome }),
            ...(flags.since === undefined ? {} : { sinceMs: timeOf(flags.since, nowMs) }),
            ...(flags.until === undefined ? {} : { untilMs: timeOf(flags.until, nowMs) }),
            ...(flags.before === undefined ? {} : { beforeId: flags.before }),
          },
          json: flags.json,
        },
        deps,
      );
    }).then(exit),
  );
}

const DURATION = /^(\d+)(s|m|h|d)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A duration back from now, or an ISO time, as ms since the epoch. */
function timeOf(text: string, nowMs: number): number {
  const match = DURATION.exec(text.trim());
  if (match !== null) return nowMs - Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return Date.parse(text);
}

function checkTime(text: string): string {
  if (!DURATION.test(text.trim()) && Number.isNaN(Date.parse(text))) {
    throw new InvalidArgumentError('a duration (30s, 15m, 1h, 7d) or an ISO time (2026-12-07T12:00:00Z)');
  }
  return text;
}
