'use client';

import { useQuery } from '@tanstack/react-query';
import { Badge, Count, DataTable, type DataTableColumn, showBidiControls, Timestamp } from '@weir/ui';
import Link from 'next/link';
import type { TopicProducers as TopicProducersData } from '../../../../server/api/schemas/transactions';
import { useTRPC } from '../../../../trpc/react';
import { producerColumn } from '../../../_components/producer-column';
import { QueryAsOf } from '../../../_components/query-as-of';
import { QueryState } from '../../../_components/query-state';

type PartitionRow = TopicProducersData['partitions'][number];
type ProducerRow = PartitionRow['producers'][number] & {
  partition: number;
  gap: string;
  /** The first row of its partition shows the partition's offsets. */
  firstOfPartition: boolean;
  lastStableOffset: string;
  highWatermark: string;
};

const none = <span className="text-zinc-500 dark:text-zinc-400">—</span>;

const columns: readonly DataTableColumn<ProducerRow>[] = [
  { id: 'partition', header: 'Partition', align: 'right', cell: (row) => <Count value={row.partition} /> },
  producerColumn(),
  {
    id: 'transactionalId',
    header: 'Transactional id',
    cell: (row) =>
      row.transactionalId === null ? (
        <span className="text-zinc-500 dark:text-zinc-400">idempotent</span>
      ) : (
        <Link
          href={`/transactions/${encodeURIComponent(row.transactionalId)}`}
          className="text-teal-700 hover:underline dark:text-teal-400"
        >
          {showBidiControls(row.transactionalId)}
        </Link>
      ),
  },
  {
    id: 'open',
    header: 'Open transaction from',
    align: 'right',
    cell: (row) =>
      row.openTransactionFirstOffset === null ? (
        none
      ) : (
        <span className="inline-flex items-center gap-1.5">
          {row.openTransactionFirstOffset === row.lastStableOffset ? (
            <Badge
              tone="warning"
              title="This transaction's first offset is the partition's last stable offset"
            >
              holds LSO
            </Badge>
          ) : null}
          <Count value={row.openTransactionFirstOffset} />
        </span>
      ),
  },
  {
    id: 'sequence',
    header: 'Last sequence',
    align: 'right',
    cell: (row) => <Count value={row.lastSequence} />,
  },
  { id: 'written', header: 'Last write', cell: (row) => <Timestamp epochMs={row.lastTimestampMs} /> },
  {
    id: 'lso',
    header: 'Last stable',
    align: 'right',
    cell: (row) => (row.firstOfPartition ? <Count value={row.lastStableOffset} /> : null),
  },
  {
    id: 'gap',
    header: 'LSO gap',
    align: 'right',
    cell: (row) => (row.firstOfPartition ? <Count value={row.gap} /> : null),
  },
];

/** One row per producer and partition; partitions without producers are left out. */
function producerRows(partitions: readonly PartitionRow[]): ProducerRow[] {
  return partitions.flatMap((partition) =>
    partition.producers.map((producer, index) => ({
      ...producer,
      partition: partition.partition,
      gap: partition.gap,
      lastStableOffset: partition.lastStableOffset,
      highWatermark: partition.highWatermark,
      firstOfPartition: index === 0,
    })),
  );
}

/**
 * The producers each partition of the topic keeps state for (idempotent and transactional), with
 * where each one's open transaction begins and the partition's LSO–HWM gap.
 */
export function TopicProducers({ topic }: { topic: string }) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.transactions.topicProducers.queryOptions({ topic }),
    refetchInterval: 5_000,
  });
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Producers with state on each partition. An open transaction holds the last stable offset at its
          first offset; read_committed consumers stop there.
        </p>
        <QueryAsOf query={query} />
      </div>
      <QueryState query={query} errorTitle="Could not read the topic's producers">
        {(data) => (
          <DataTable
            label="Producers"
            columns={columns}
            rows={producerRows(data.partitions)}
            rowKey={(row) => `${row.partition}:${row.producerId}`}
            empty="No producer has state on this topic's partitions."
          />
        )}
      </QueryState>
    </div>
  );
}
