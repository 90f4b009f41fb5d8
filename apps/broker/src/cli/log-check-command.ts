import type { Writable } from 'node:stream';
import type { ConfigFlags } from '../config/flag-overrides';
import type { PartitionCheck, SegmentCheck } from '../log/log-check';
import { createStorageIo } from '../log/storage';
import type { CliDeps } from './cli-deps';
import { EXIT_BAD_CONFIG, loadConfigOrReport } from './load-config-or-report';
import { checkOne, openOfflineLogs, selectPartitions } from './log-partitions';
import { reportClientError } from './report-client-error';
import { formatTable } from './table';

/** A check found damage: a failure, so scripts and monitoring notice. */
export const EXIT_DAMAGED = 1;

export interface LogCheckOptions {
  topic?: string;
  partition?: number;
  all: boolean;
}

/**
 * `weir log check`: reads a stopped broker's partition files and reports, per segment, the valid
 * batches, the first damage and why, and what `weir log repair` would cut. Changes nothing.
 */
export async function logCheckCommand(
  flags: ConfigFlags,
  options: LogCheckOptions,
  deps: Pick<CliDeps, 'env' | 'stdout' | 'stderr'>,
): Promise<number> {
  const config = await loadConfigOrReport(flags, deps);
  if (!config) return EXIT_BAD_CONFIG;
  try {
    const logs = await openOfflineLogs(config, createStorageIo());
    const targets = await selectPartitions(logs, options);
    const checks: PartitionCheck[] = [];
    for (const target of targets) checks.push(await checkOne(logs, target));
    if (options.all) printSummary(checks, deps.stdout);
    for (const check of checks) {
      if (!options.all || check.repair !== undefined) printCheck(check, deps.stdout);
    }
    const damaged = checks.filter((check) => check.repair !== undefined);
    if (damaged.length > 0) {
      deps.stdout.write(
        `Dry run: nothing was changed. With the broker stopped, ${damaged
          .map((check) => `\`${repairCommandFor(check, config.dataDir)}\``)
          .join(', ')} cuts what is shown above.\n`,
      );
      return EXIT_DAMAGED;
    }
    return 0;
  } catch (error) {
    return reportClientError(error, deps.stderr);
  }
}

export function repairCommandFor(
  check: Pick<PartitionCheck, 'topic' | 'partition'>,
  dataDir: string,
): string {
  return `weir log repair ${check.topic} ${check.partition} --data-dir ${dataDir}`;
}

function printSummary(checks: readonly PartitionCheck[], out: Writable): void {
  out.write(
    formatTable(
      ['PARTITION', 'SEGMENTS', 'OFFSETS', 'FLUSHED', 'STATUS'],
      checks.map((check) => [
        `${check.topic}-${check.partition}`,
        String(check.segments.length),
        offsetRange(check.segments[0]?.firstOffset ?? 0, check.validEndOffset),
        check.flushedPoint ? String(check.flushedPoint.offset) : '-',
        check.repair === undefined ? 'ok' : `damaged at offset ${check.repair.cutFromOffset}`,
      ]),
    ),
  );
}

/** One partition: a table of its segments, then what is damaged and what a repair would cut. */
export function printCheck(check: PartitionCheck, out: Writable): void {
  out.write(`${check.topic}-${check.partition}  ${check.directory}\n`);
  out.write(
    formatTable(
      ['SEGMENT', 'BYTES', 'BATCHES', 'RECORDS', 'OFFSETS', 'INDEXES', 'DAMAGE'],
      check.segments.map((segment) => [
        String(segment.baseOffset).padStart(20, '0'),
        String(segment.sizeBytes),
        String(segment.validBatchCount),
        String(segment.validRecordCount),
        offsetRange(segment.firstOffset, segment.nextOffset),
        segment.damagedIndexes.length === 0 ? 'ok' : `rebuild ${segment.damagedIndexes.join(',')}`,
        damageCell(segment),
      ]),
    ),
  );
  out.write(
    check.flushedPoint
      ? `Flushed point: offset ${check.flushedPoint.offset} (everything below it was acknowledged as durable).\n`
      : `Flushed point: none recorded; the recovery-point checkpoint says ${check.durableOffset}.\n`,
  );
  const plan = check.repair;
  if (plan === undefined) {
    out.write(`OK: every batch is whole and valid up to offset ${check.validEndOffset}.\n`);
    return;
  }
  const damage = check.firstDamage;
  if (damage) {
    out.write(
      `First damage: ${damage.kind} batch at byte ${damage.positionBytes} of ${damage.file} (offset ${damage.offset}): ${damage.reason}.\n`,
    );
    const range =
      plan.cutToOffset === undefined
        ? `${plan.cutFromOffset}..`
        : offsetRange(plan.cutFromOffset, plan.cutToOffset + 1);
    const later =
      plan.deletedSegmentCount === 0
        ? ''
        : ` and ${plural(plan.deletedSegmentCount, 'later segment')} deleted whole`;
    out.write(
      `A repair would cut offsets ${range} (${plural(plan.cutBatchCount, 'batch', 'batches')}, ${plural(plan.cutRecordCount, 'record')} whose headers still parse), ${plural(plan.cutBytes, 'byte')}: from byte ${damage.positionBytes} of ${damage.file}${later}; the log would end at offset ${plan.cutFromOffset}.\n`,
    );
  } else {
    out.write(
      `The log ends at offset ${check.validEndOffset}, below the flushed point ${check.durableOffset}: records are missing, not damaged. A repair cuts nothing and moves the flushed point down to ${check.validEndOffset}.\n`,
    );
  }
  if (plan.acknowledgedLost) {
    out.write(
      `Offsets ${plan.acknowledgedLost.fromOffset}..${plan.acknowledgedLost.toOffset} were acknowledged as durable: a repair loses them.\n`,
    );
  }
}

function damageCell(segment: SegmentCheck): string {
  if (!segment.damage) return '-';
  return `byte ${segment.damage.positionBytes}: ${segment.damage.reason}`;
}

function offsetRange(from: number, end: number): string {
  return end > from ? `${from}..${end - 1}` : '-';
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}
