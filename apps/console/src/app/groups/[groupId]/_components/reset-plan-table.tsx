import { Badge, Count, DataTable, type DataTableColumn } from '@weir/ui';
import type { ResetOffsetsResult } from '../../../../server/api/schemas/groups';

type PlannedOffset = ResetOffsetsResult['plan'][number];

function delta(row: PlannedOffset): string {
  if (row.currentOffset === null) return '—';
  const difference = BigInt(row.newOffset) - BigInt(row.currentOffset);
  return difference > 0n ? `+${difference}` : String(difference);
}

/** The new offset, and when the target fell outside the log, the bound it was kept at. */
function newOffsetCell(row: PlannedOffset) {
  if (row.clamped === null) return <Count value={row.newOffset} />;
  const bound = row.clamped === 'log-end' ? 'log end' : 'log start';
  return (
    <span className="inline-flex items-center gap-1.5">
      <Badge tone="warning" title={`Asked for ${row.requestedOffset}`}>
        {bound}
      </Badge>
      <Count value={row.newOffset} />
    </span>
  );
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
  { id: 'new', header: 'New offset', align: 'right', cell: newOffsetCell },
  { id: 'delta', header: 'Change', align: 'right', cell: delta },
];

/**
 * The old → new plan of an offset reset; after Apply it is the record of what was committed. A
 * target outside a partition's log is kept at its bound, as Kafka's tool does, and the warnings
 * say so above the table, so an operator sees it in the preview, before applying.
 */
export function ResetPlanTable({ result }: { result: ResetOffsetsResult }) {
  return (
    <div className="flex flex-col gap-2">
      <p role="status" className="text-sm">
        {result.dryRun
          ? `Preview: ${result.plan.length} partition(s) would change. Nothing has been committed yet.`
          : `Offsets reset for ${result.plan.length} partition(s).`}
      </p>
      {result.warnings.length > 0 ? (
        <ul
          aria-label="Reset warnings"
          className="m-0 list-disc rounded border border-amber-300 bg-amber-50 py-2 pr-3 pl-7 text-amber-900 text-sm dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-200"
        >
          {result.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      ) : null}
      <DataTable
        label={result.dryRun ? 'Reset preview' : 'Reset result'}
        columns={columns}
        rows={result.plan}
        rowKey={(row) => `${row.topic}:${row.partition}`}
      />
    </div>
  );
}
