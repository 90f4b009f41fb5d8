import { Badge, ByteSize, Count, DataTable, type DataTableColumn } from '@weir/ui';
import type { PartitionDetail } from '../../../../server/api/schemas/topics';

const offsetColumn = (id: keyof PartitionDetail, header: string): DataTableColumn<PartitionDetail> => ({
  id,
  header,
  align: 'right',
  cell: (partition) =>
    partition[id] === null ? (
      <span className="text-zinc-500 dark:text-zinc-400">—</span>
    ) : (
      <Count value={String(partition[id])} />
    ),
});

const columns: readonly DataTableColumn<PartitionDetail>[] = [
  { id: 'partition', header: 'Partition', align: 'right', cell: (p) => <Count value={p.partition} /> },
  {
    id: 'leader',
    header: 'Leader',
    align: 'right',
    cell: (p) =>
      p.leaderId < 0 ? (
        <Badge tone="danger">none (offline)</Badge>
      ) : p.offline ? (
        <span className="inline-flex items-center gap-1.5">
          {p.leaderId}
          <Badge tone="warning">unreachable</Badge>
        </span>
      ) : (
        p.leaderId
      ),
  },
  { id: 'replicas', header: 'Replicas', cell: (p) => p.replicas.join(', ') },
  {
    id: 'isr',
    header: 'In-sync replicas',
    cell: (p) => (
      <span className="inline-flex items-center gap-1.5">
        {p.isr.join(', ')}
        {p.underReplicated ? <Badge tone="warning">under-replicated</Badge> : null}
      </span>
    ),
  },
  offsetColumn('logStartOffset', 'Log start'),
  offsetColumn('lastStableOffset', 'Last stable'),
  offsetColumn('highWatermark', 'High watermark'),
  {
    id: 'stableGap',
    header: 'LSO gap',
    align: 'right',
    cell: (p) =>
      p.stableGap === null ? (
        <span className="text-zinc-500 dark:text-zinc-400">—</span>
      ) : p.stableGap === '0' ? (
        <Count value={p.stableGap} />
      ) : (
        <span
          className="inline-flex items-center gap-1.5"
          title="High watermark − last stable offset: records of open transactions, not yet readable by read_committed consumers"
        >
          <Badge tone="warning">open transaction</Badge>
          <Count value={p.stableGap} />
        </span>
      ),
  },
  offsetColumn('logEndOffset', 'Log end'),
  { id: 'size', header: 'Size', align: 'right', cell: (p) => <ByteSize bytes={p.sizeBytes} /> },
  { id: 'segments', header: 'Segments', align: 'right', cell: (p) => <Count value={p.segmentCount} /> },
  { id: 'producers', header: 'Producers', align: 'right', cell: (p) => <Count value={p.producerCount} /> },
];

/** Every partition's placement and offsets; offsets are exact (decimal strings), never rounded. */
export function PartitionTable({ partitions }: { partitions: readonly PartitionDetail[] }) {
  return (
    <DataTable
      label="Partitions"
      columns={columns}
      rows={partitions}
      rowKey={(partition) => String(partition.partition)}
    />
  );
}
