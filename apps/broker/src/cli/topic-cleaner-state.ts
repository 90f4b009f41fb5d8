import type { LogCleanerNextClean, LogCleanerPartitionState } from '@weir/protocol';
import { formatBytes } from './byte-size';
import type { InternalSession } from './internal-session';
import { formatTable } from './table';

/** The log cleaner's state of a topic, from every broker holding one of its replicas. */
export interface CleanerStateReport {
  rows: LogCleanerPartitionState[];
  /** Brokers that were asked and did not answer, with why. */
  unanswered: { brokerId: number; detail: string }[];
}

/** Reads the cleaner's state of a topic whose replicas live on `brokerIds`. */
export type CleanerStateSource = (topic: string, brokerIds: readonly number[]) => Promise<CleanerStateReport>;

/**
 * Each broker cleans its own replicas (docs/architecture.md §4), so every broker holding one is
 * asked on its internal listener, at the address the metadata advertises there. When none
 * answers, the first failure is the command's.
 */
export function sessionCleanerSource(session: InternalSession): CleanerStateSource {
  return async (topic, brokerIds) => {
    const { brokers } = await session.admin.describeCluster();
    const rows: LogCleanerPartitionState[] = [];
    const unanswered: CleanerStateReport['unanswered'] = [];
    let failure: unknown;
    await Promise.all(
      [...new Set(brokerIds)].map(async (brokerId) => {
        const broker = brokers.find((candidate) => candidate.nodeId === brokerId);
        if (broker === undefined) {
          unanswered.push({ brokerId, detail: 'not among the live brokers' });
          return;
        }
        try {
          rows.push(...(await session.node(broker).describeLogCleaner([topic])));
        } catch (error) {
          failure ??= error;
          unanswered.push({ brokerId, detail: error instanceof Error ? error.message : String(error) });
        }
      }),
    );
    if (rows.length === 0 && failure !== undefined) throw failure;
    rows.sort((left, right) => left.partition - right.partition || left.brokerId - right.brokerId);
    unanswered.sort((left, right) => left.brokerId - right.brokerId);
    return { rows, unanswered };
  };
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

function time(epochMs: number | null): string {
  return epochMs === null ? 'never' : new Date(epochMs).toISOString();
}

/** When the next clean is due, in words. */
export function nextCleanText(due: LogCleanerNextClean, minCleanableDirtyRatio: number): string {
  if (due.kind === 'now') return 'now';
  if (due.kind === 'retry') return `retry at ${time(due.atMs)}`;
  const ratio = `at dirty ratio ${percent(minCleanableDirtyRatio)}`;
  return due.latestAtMs === null ? ratio : `${ratio}, by ${time(due.latestAtMs)} (max.compaction.lag.ms)`;
}

/** The cleaner section of `weir topic describe`: a row per replica, then the errors of the last cleans. */
export function cleanerStateText(report: CleanerStateReport): string {
  const lines: string[] = [];
  if (report.rows.length === 0) {
    lines.push(
      'Log cleaner: no state yet (the cleaner has not looked at this topic since the broker started)\n',
    );
  } else {
    lines.push('Log cleaner:\n');
    lines.push(
      formatTable(
        [
          'PARTITION',
          'BROKER',
          'ROLE',
          'DIRTY',
          'MIN-DIRTY',
          'CLEANED-UP-TO',
          'LAST-CLEANED',
          'LAST-REMOVED',
          'REMOVED-TOTAL',
          'NEXT-CLEAN',
        ],
        report.rows.map((row) => [
          String(row.partition),
          String(row.brokerId),
          row.leader ? 'leader' : 'follower',
          percent(row.dirtyRatio),
          percent(row.minCleanableDirtyRatio),
          row.cleanedUpToOffset === null ? '-' : String(row.cleanedUpToOffset),
          time(row.lastCleanedAtMs),
          row.lastCleanRemovedBytes === null ? '-' : formatBytes(Number(row.lastCleanRemovedBytes)),
          formatBytes(Number(row.removedBytesTotal)),
          nextCleanText(row.nextCleanDue, row.minCleanableDirtyRatio),
        ]),
      ),
    );
  }
  for (const row of report.rows) {
    if (row.lastError !== null)
      lines.push(
        `  partition ${row.partition} on broker ${row.brokerId}: last clean failed: ${row.lastError}\n`,
      );
  }
  for (const silent of report.unanswered)
    lines.push(`  broker ${silent.brokerId} did not answer: ${silent.detail}\n`);
  return lines.join('');
}
