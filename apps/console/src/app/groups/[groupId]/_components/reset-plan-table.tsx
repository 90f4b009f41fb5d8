import { Count, DataTable, type DataTableColumn } from '@weir/ui';
import type { ResetOffsetsResult } from '../../../../server/api/schemas/groups';

type PlannedOffset = ResetOffsetsResult['plan'][number];

function delta(row: PlannedOffset): string {
  if (row.currentOffset === null) return '—';
  const difference = BigInt(row.newOffset) - BigInt(row.currentOffset);
  return difference > 0n ? `+${difference}` : String(difference);
}

const columns: readonly DataTableColumn<PlannedOffset>[] = [
  { id: 'topic', header: 'Topic', cell: (row) => row.topic },
  { id: 'partition', header: 'Partition', align: 'right', cell: (row) => <Count value={row.partition} /> },
  {
    id: 'current',
    header: 'Current offset',
    align: 'right',
    cell: (row) => (row.currentOffset === null ? 'none' : <Count value={row.currentOffset} />),
  },
  { id: 'new', header: 'New offset', align: 'right', cell: (row) => <Count value={row.newOffset} /> },
  { id: 'delta', header: 'Change', align: 'right', cell: delta },
];

/** The old → new plan of an offset reset; after Apply it is the record of what was committed. */
export function ResetPlanTable({ result }: { result: ResetOffsetsResult }) {
  return (
    <div className="flex flex-col gap-2">
      <p role="status" className="text-sm">
        {result.dryRun
          ? `Preview: ${result.plan.length} partition(s) would change. Nothing has been committed yet.`
          : `Offsets reset for ${result.plan.length} partition(s).`}
      </p>
      <DataTable
        label={result.dryRun ? 'Reset preview' : 'Reset result'}
        columns={columns}
        rows={result.plan}
        rowKey={(row) => `${row.topic}:${row.partition}`}
      />
    </div>
  );
}
