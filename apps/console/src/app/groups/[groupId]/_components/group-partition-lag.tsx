'use client';

import { Checkbox, Count, DataTable, type DataTableColumn, Panel } from '@weir/ui';
import Link from 'next/link';
import { parseAsBoolean, useQueryState } from 'nuqs';
import type { GroupDetail } from '../../../../server/api/schemas/groups';
import { TransactionAwareNote } from '../../../_components/transaction-aware-note';

type PartitionLag = GroupDetail['partitions'][number];

const columns: readonly DataTableColumn<PartitionLag>[] = [
  {
    id: 'topic',
    header: 'Topic',
    cell: (row) => (
      <Link
        href={`/topics/${encodeURIComponent(row.topic)}`}
        className="text-teal-700 hover:underline dark:text-teal-400"
      >
        {row.topic}
      </Link>
    ),
  },
  { id: 'partition', header: 'Partition', align: 'right', cell: (row) => <Count value={row.partition} /> },
  {
    id: 'committed',
    header: 'Committed offset',
    align: 'right',
    cell: (row) =>
      row.committedOffset === null ? (
        <span className="text-zinc-500 dark:text-zinc-400">none</span>
      ) : (
        <Count value={row.committedOffset} />
      ),
  },
  {
    id: 'end',
    header: 'High watermark',
    align: 'right',
    cell: (row) =>
      row.logEndOffset === null ? (
        <span className="text-zinc-500 dark:text-zinc-400">—</span>
      ) : (
        <Count value={row.logEndOffset} />
      ),
  },
  {
    id: 'stable',
    header: 'Last stable',
    align: 'right',
    cell: (row) =>
      row.lastStableOffset === null ? (
        <span className="text-zinc-500 dark:text-zinc-400">—</span>
      ) : (
        <Count value={row.lastStableOffset} />
      ),
  },
  { id: 'lag', header: 'Lag', align: 'right', cell: (row) => <Count value={row.lag} /> },
  {
    id: 'member',
    header: 'Member',
    className: 'max-w-64 truncate font-mono text-xs',
    cell: (row) => row.memberId ?? <span className="text-zinc-500 dark:text-zinc-400">unassigned</span>,
  },
];

/** Lag per partition, optionally only the partitions that are behind. */
export function GroupPartitionLag({ partitions }: { partitions: readonly PartitionLag[] }) {
  const [onlyLagging, setOnlyLagging] = useQueryState('lagging', parseAsBoolean.withDefault(false));
  const rows = onlyLagging ? partitions.filter((row) => row.lag !== '0') : partitions;
  return (
    <Panel
      title="Lag per partition"
      actions={
        <span className="inline-flex flex-wrap items-center gap-3">
          <TransactionAwareNote />
          <Checkbox
            label="Only lagging"
            checked={onlyLagging}
            onChange={(e) => void setOnlyLagging(e.target.checked)}
          />
        </span>
      }
    >
      <DataTable
        label="Partition lag"
        columns={columns}
        rows={rows}
        rowKey={(row) => `${row.topic}:${row.partition}`}
        empty={onlyLagging ? 'No partition is behind.' : 'The group has no committed offsets.'}
      />
    </Panel>
  );
}
