'use client';

import { useQuery } from '@tanstack/react-query';
import {
  Badge,
  Count,
  DataTable,
  type DataTableColumn,
  PageHeader,
  Panel,
  showBidiControls,
  Timestamp,
} from '@weir/ui';
import Link from 'next/link';
import type { ReactNode } from 'react';
import type { TransactionPartition } from '../../../../server/api/schemas/transactions';
import { useTRPC } from '../../../../trpc/react';
import { QueryAsOf } from '../../../_components/query-as-of';
import { QueryState } from '../../../_components/query-state';
import { formatDuration } from '../../_components/format-duration';
import { TransactionAge } from '../../_components/transaction-age';
import { TransactionStateBadge } from '../../_components/transaction-state-badge';
import { AbortTransactionButton } from './abort-transaction-button';

const unknown = <span className="text-zinc-500 dark:text-zinc-400">—</span>;

const offset = (value: string | null) => (value === null ? unknown : <Count value={value} />);

const columns: readonly DataTableColumn<TransactionPartition>[] = [
  {
    id: 'topic',
    header: 'Topic',
    cell: (row) => (
      <Link
        href={`/topics/${encodeURIComponent(row.topic)}?tab=producers`}
        className="text-teal-700 hover:underline dark:text-teal-400"
      >
        {row.topic}
      </Link>
    ),
  },
  { id: 'partition', header: 'Partition', align: 'right', cell: (row) => <Count value={row.partition} /> },
  { id: 'first', header: 'First offset', align: 'right', cell: (row) => offset(row.firstOffset) },
  { id: 'lso', header: 'Last stable', align: 'right', cell: (row) => offset(row.lastStableOffset) },
  { id: 'hwm', header: 'High watermark', align: 'right', cell: (row) => offset(row.highWatermark) },
  {
    id: 'gap',
    header: 'LSO gap',
    align: 'right',
    cell: (row) => (
      <span className="inline-flex items-center gap-1.5">
        {row.holdsStableOffset ? (
          <Badge tone="warning" title="This transaction's first offset is the partition's last stable offset">
            holds LSO
          </Badge>
        ) : null}
        {offset(row.gap)}
      </span>
    ),
  },
  {
    id: 'sequence',
    header: 'Last sequence',
    align: 'right',
    cell: (row) => (row.lastSequence === null ? unknown : <Count value={row.lastSequence} />),
  },
  {
    id: 'written',
    header: 'Last write',
    cell: (row) => (row.lastTimestampMs === null ? unknown : <Timestamp epochMs={row.lastTimestampMs} />),
  },
];

/** Re-read every few seconds: an open transaction's age is what operators watch. */
const refreshIntervalMs = 5_000;

export function TransactionDetail({ transactionalId }: { transactionalId: string }) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.transactions.get.queryOptions({ transactionalId }),
    refetchInterval: refreshIntervalMs,
  });
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title={showBidiControls(transactionalId)}
        eyebrow={
          <Link href="/transactions" className="hover:underline">
            Transactions
          </Link>
        }
        actions={
          query.data ? (
            <AbortTransactionButton
              transactionalId={transactionalId}
              permission={query.data.allowedActions.abort}
            />
          ) : null
        }
      />
      <QueryState query={query} errorTitle={`Could not read transaction ${transactionalId}`}>
        {(detail) => (
          <>
            <dl className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
              <Fact label="State" testId="transaction-state">
                <TransactionStateBadge state={detail.state} />
              </Fact>
              <Fact label="Producer id">
                <span className="font-mono">{detail.producerId}</span>
              </Fact>
              <Fact label="Epoch">
                <Count value={detail.producerEpoch} />
              </Fact>
              <Fact label="Timeout">{formatDuration(detail.timeoutMs)}</Fact>
              <Fact label="Started">
                {detail.startTimeMs === null ? unknown : <Timestamp epochMs={detail.startTimeMs} />}
              </Fact>
              <Fact label="Age / timeout">
                <TransactionAge row={detail} />
              </Fact>
              <div className="ml-auto">
                <QueryAsOf query={query} />
              </div>
            </dl>
            <Panel title="Partitions">
              <DataTable
                label="Transaction partitions"
                columns={columns}
                rows={detail.partitions}
                rowKey={(row) => `${row.topic}:${row.partition}`}
                empty={
                  detail.open
                    ? 'The transaction has not added a partition yet.'
                    : 'No transaction is open: this id holds no partition.'
                }
              />
            </Panel>
          </>
        )}
      </QueryState>
    </div>
  );
}

function Fact({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline gap-1.5">
      <dt className="text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className="font-medium" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
