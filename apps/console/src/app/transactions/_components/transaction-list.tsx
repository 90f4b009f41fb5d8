'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  AsOfIndicator,
  Count,
  DataTable,
  type DataTableColumn,
  EmptyState,
  formatCount,
  Input,
  Pager,
  Panel,
  Select,
  Toolbar,
} from '@weir/ui';
import Link from 'next/link';
import { useQueryStates } from 'nuqs';
import { type TransactionRow, transactionStates } from '../../../server/api/schemas/transactions';
import { useTRPC } from '../../../trpc/react';
import { QueryState } from '../../_components/query-state';
import { TransactionAge } from './transaction-age';
import {
  isDescending,
  transactionListInput,
  transactionListParams,
  transactionScopes,
  transactionSortKeys,
} from './transaction-list-params';
import { TransactionStateBadge } from './transaction-state-badge';

const columns: readonly DataTableColumn<TransactionRow>[] = [
  {
    id: 'id',
    header: 'Transactional id',
    sortable: true,
    cell: (row) => (
      <Link
        href={`/transactions/${encodeURIComponent(row.transactionalId)}`}
        className="font-medium text-teal-700 hover:underline dark:text-teal-400"
      >
        {row.transactionalId}
      </Link>
    ),
  },
  {
    id: 'producer',
    header: 'Producer id / epoch',
    align: 'right',
    cell: (row) => (
      <span className="font-mono text-xs tabular-nums">
        {row.producerId} / {row.producerEpoch}
      </span>
    ),
  },
  {
    id: 'state',
    header: 'State',
    sortable: true,
    cell: (row) => <TransactionStateBadge state={row.state} />,
  },
  {
    id: 'partitions',
    header: 'Partitions',
    align: 'right',
    sortable: true,
    cell: (row) => <Count value={row.partitionCount} />,
  },
  {
    id: 'topics',
    header: 'Topics',
    className: 'max-w-64 truncate',
    cell: (row) => row.topics.join(', ') || <span className="text-zinc-400">—</span>,
  },
  { id: 'age', header: 'Age / timeout', sortable: true, cell: (row) => <TransactionAge row={row} /> },
];

const scopeLabels: Record<(typeof transactionScopes)[number], string> = {
  open: 'Open transactions',
  hanging: 'Hanging only',
  all: 'All transactional ids',
};

/** The transaction list: open ones by default, oldest first, with a hanging count to jump to. */
export function TransactionList() {
  const trpc = useTRPC();
  const [params, setParams] = useQueryStates(transactionListParams);
  const query = useQuery({
    ...trpc.transactions.list.queryOptions(transactionListInput(params)),
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
  const total = query.data?.totalCount ?? 0;
  const first = params.page * params.size;
  const last = Math.min(first + params.size, total);
  const counts = query.data?.stateCounts ?? {};

  return (
    <>
      <Toolbar label="Transaction filters">
        <Input
          type="search"
          aria-label="Search transactional ids"
          placeholder="Search transactional ids (press /)"
          className="w-72"
          value={params.q}
          onChange={(event) => void setParams({ q: event.target.value, page: 0 })}
        />
        <Select
          aria-label="Show"
          value={params.show}
          onChange={(event) =>
            void setParams({
              show: transactionScopes.find((scope) => scope === event.target.value) ?? 'open',
              page: 0,
            })
          }
          options={transactionScopes.map((scope) => ({
            value: scope,
            label:
              scope === 'hanging' && query.data
                ? `${scopeLabels[scope]} (${formatCount(query.data.hangingCount)})`
                : scope === 'open' && query.data
                  ? `${scopeLabels[scope]} (${formatCount(query.data.openCount)})`
                  : scopeLabels[scope],
          }))}
        />
        <Select
          aria-label="State"
          value={params.state ?? ''}
          onChange={(event) =>
            void setParams({
              state: transactionStates.find((state) => state === event.target.value) ?? null,
              page: 0,
            })
          }
          options={[
            { value: '', label: 'Any state' },
            ...transactionStates.map((state) => ({
              value: state,
              label: `${state} (${formatCount(counts[state] ?? 0)})`,
            })),
          ]}
        />
      </Toolbar>
      <Panel
        title="Transaction list"
        flush
        actions={
          <AsOfIndicator
            asOfMs={query.data?.asOfMs}
            onRefresh={() => void query.refetch()}
            refreshing={query.isFetching}
          />
        }
      >
        <QueryState query={query} errorTitle="Could not read the transactions">
          {(list) => (
            <div className="flex flex-col gap-2">
              <DataTable
                label="Transactions"
                columns={columns}
                rows={list.transactions}
                rowKey={(row) => row.transactionalId}
                sort={{ column: params.sort, direction: isDescending(params) ? 'desc' : 'asc' }}
                onSortChange={(column, direction) =>
                  void setParams({
                    sort: transactionSortKeys.find((key) => key === column) ?? 'age',
                    desc: direction === 'desc',
                    page: 0,
                  })
                }
                empty={
                  <EmptyState title={params.show === 'all' ? 'No transactional ids' : 'No open transactions'}>
                    {params.show === 'all'
                      ? 'Transactional ids appear once a producer initializes transactions.'
                      : 'Nothing is holding back read_committed consumers right now.'}
                  </EmptyState>
                }
              />
              <Pager
                label="Transaction pages"
                summary={
                  total === 0
                    ? 'No transactions'
                    : `${formatCount(first + 1)}–${formatCount(last)} of ${formatCount(total)}`
                }
                onPrevious={params.page > 0 ? () => void setParams({ page: params.page - 1 }) : undefined}
                onNext={last < total ? () => void setParams({ page: params.page + 1 }) : undefined}
              />
            </div>
          )}
        </QueryState>
      </Panel>
    </>
  );
}
