'use client';

import { formatCount } from '@weir/ui';
import type { PartitionElection } from '../../../server/api/schemas/leader-elections';
import { useLatestElection } from './use-leader-election';

/** Why a partition's election failed, in words a reader acts on, with the broker's own message. */
function failureInWords(row: PartitionElection): string {
  const why =
    row.errorCode === 'PREFERRED_LEADER_NOT_AVAILABLE'
      ? 'its preferred replica is not live or not in sync'
      : row.errorCode === 'ELIGIBLE_LEADERS_NOT_AVAILABLE'
        ? 'none of its replicas is live'
        : row.errorCode === 'UNKNOWN_TOPIC_OR_PARTITION'
          ? 'the partition does not exist'
          : row.errorCode === 'REQUEST_TIMED_OUT'
            ? 'the new leader did not show in time'
            : row.errorCode;
  return row.message === null ? why : `${why} (${row.message})`;
}

/**
 * The outcome of the latest election on this page: how many partitions were elected and needed
 * none, then each failure with its reason. It stays until the next election.
 */
export function ElectionOutcome() {
  const latest = useLatestElection();
  if (latest === null) return null;
  if (latest.status === 'pending') {
    return (
      <p role="status" className="text-sm text-zinc-600 dark:text-zinc-300">
        Electing preferred leaders…
      </p>
    );
  }
  if (latest.status === 'error') {
    return (
      <p role="alert" className="text-rose-700 text-sm dark:text-rose-400">
        The election was refused: {latest.message}
      </p>
    );
  }
  const { result } = latest;
  const failures = result.results.filter((row) => row.result === 'failed');
  const elected = result.results.filter((row) => row.result === 'elected');
  return (
    <div role="status" aria-label="Election outcome" className="flex flex-col gap-1 text-sm">
      <p>
        {formatCount(result.elected)} elected, {formatCount(result.notNeeded)} not needed
        {failures.length === 0 ? '.' : `, ${formatCount(result.failed)} failed:`}
      </p>
      {failures.length === 0 ? null : (
        <ul className="flex flex-col gap-0.5 text-rose-700 dark:text-rose-400">
          {failures.map((row) => (
            <li key={`${row.topic}\u0000${row.partition}`}>
              {row.topic}-{row.partition}: {failureInWords(row)}
            </li>
          ))}
        </ul>
      )}
      {elected.length === 0 ? null : (
        <p className="text-xs text-zinc-600 dark:text-zinc-300">
          Now led by their preferred replica:{' '}
          {elected
            .map(
              (row) =>
                `${row.topic}-${row.partition}${row.newLeader === null ? '' : ` (broker ${row.newLeader})`}`,
            )
            .join(', ')}
          .
        </p>
      )}
    </div>
  );
}
