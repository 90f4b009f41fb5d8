import type { WeirDescribeLogCleaner } from '../../messages/apis/internal/weir-describe-log-cleaner';
import type { ResponseOf } from '../../schema/api';
import type { LogCleanerNextClean, LogCleanerOutcome, LogCleanerPartitionState } from './log-cleaner-types';

type Response = ResponseOf<typeof WeirDescribeLogCleaner>;
type Row = Response['partitions'][number];

const OUTCOMES: readonly LogCleanerOutcome[] = ['cleaned', 'not-due', 'abandoned', 'failed'];

/** A wire number the broker sends as -1 when it has none. */
function known(value: bigint): bigint | null {
  return value < 0n ? null : value;
}

function nextCleanFrom(row: Row): LogCleanerNextClean {
  const atMs = row.nextCleanDueAtMs < 0n ? null : Number(row.nextCleanDueAtMs);
  if (row.nextCleanDue === 'now') return { kind: 'now' };
  if (row.nextCleanDue === 'retry' && atMs !== null) return { kind: 'retry', atMs };
  // dirty-ratio, and whatever a newer broker may add: the ratio rule always holds.
  return { kind: 'dirty-ratio', latestAtMs: atMs };
}

/** WeirDescribeLogCleaner's rows, each named by the broker that answered. */
export function logCleanerRowsFrom(response: Response): LogCleanerPartitionState[] {
  return response.partitions.map((row) => ({
    brokerId: response.brokerId,
    topic: row.topic,
    partition: row.partition,
    leader: row.leader,
    cleanedUpToOffset: known(row.cleanedUpToOffset),
    dirtyRatio: row.dirtyRatio,
    minCleanableDirtyRatio: row.minCleanableDirtyRatio,
    lastCleanedAtMs: row.lastCleanedAtMs < 0n ? null : Number(row.lastCleanedAtMs),
    lastOutcome: OUTCOMES.find((outcome) => outcome === row.lastOutcome) ?? 'not-due',
    lastError: row.lastError,
    lastCleanRemovedBytes: known(row.lastCleanRemovedBytes),
    removedBytesTotal: row.removedBytesTotal,
    nextCleanDue: nextCleanFrom(row),
  }));
}
