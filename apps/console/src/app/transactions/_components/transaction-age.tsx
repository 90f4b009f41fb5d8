import { Badge } from '@weir/ui';
import type { TransactionRow } from '../../../server/api/schemas/transactions';
import { formatDuration } from './format-duration';

/**
 * An open transaction's age against its timeout ("42 s / 1 min"), with a "hanging" badge once it
 * has been open longer than the timeout: the coordinator should have aborted it by then.
 */
export function TransactionAge({ row }: { row: Pick<TransactionRow, 'ageMs' | 'timeoutMs' | 'hanging'> }) {
  if (row.ageMs === null) {
    return <span className="text-zinc-500 dark:text-zinc-400">not open</span>;
  }
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap tabular-nums">
      <span title={`${row.ageMs} ms of a ${row.timeoutMs} ms timeout`}>
        {formatDuration(row.ageMs)} / {formatDuration(row.timeoutMs)}
      </span>
      {row.hanging ? (
        <Badge tone="danger" title="Open longer than its timeout">
          hanging
        </Badge>
      ) : null}
    </span>
  );
}
