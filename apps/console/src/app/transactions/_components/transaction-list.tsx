'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { TRANSACTIONAL_ID_STATES } from '@weir/protocol/names';
import {
  Count,
  DataTable,
  type DataTableColumn,
  EmptyState,
  formatCount,
  ListPager,
  Select,
  showBidiControls,
  Toolbar,
} from '@weir/ui';
import type { TransactionRow } from '../../../server/api/schemas/transactions';
import { useTRPC } from '../../../trpc/react';
import { ListPanel } from '../../_components/list-panel';
import { ListSearch } from '../../_components/list-search';
import { producerColumn } from '../../_components/producer-column';
import { RowLink } from '../../_components/row-link';
import { useListParams } from '../../_components/use-list-params';
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
      <RowLink href={`/transactions/${encodeURIComponent(row.transactionalId)}`}>
        {showBidiControls(row.transactionalId)}
      </RowLink>
    ),
  },
  producerColumn(),
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
    cell: (row) => row.topics.join(', ') || <span className="text-zinc-500 dark:text-zinc-400">—</span>,
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
  const { params, filter, sort, paging } = useListParams(transactionListParams, {
    sortKeys: transactionSortKeys,
    isDescending,
  });
  const query = useQuery({
    ...trpc.transactions.list.queryOptions(transactionListInput(params)),
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
  const counts = query.data?.stateCounts ?? {};

  return (
    <>
      <Toolbar label="Transaction filters">
        <ListSearch
          label="Search transactional ids"
          value={params.q}
          onSearch={(q, history) => filter({ q }, history)}
        />
        <Select
          aria-label="Show"
          value={params.show}
          onChange={(event) =>
            filter({ show: transactionScopes.find((scope) => scope === event.target.value) ?? 'open' })
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
            filter({ state: TRANSACTIONAL_ID_STATES.find((state) => state === event.target.value) ?? null })
          }
          options={[
            { value: '', label: 'Any state' },
            ...TRANSACTIONAL_ID_STATES.map((state) => ({
              value: state,
              label: `${state} (${formatCount(counts[state] ?? 0)})`,
            })),
          ]}
        />
      </Toolbar>
      <ListPanel title="Transaction list" query={query} errorTitle="Could not read the transactions">
        {(list) => (
          <>
            <DataTable
              label="Transactions"
              columns={columns}
              rows={list.transactions}
              rowKey={(row) => row.transactionalId}
              {...sort}
              empty={
                <EmptyState title={params.show === 'all' ? 'No transactional ids' : 'No open transactions'}>
                  {params.show === 'all'
                    ? 'Transactional ids appear once a producer initializes transactions.'
                    : 'Nothing is holding back read_committed consumers right now.'}
                </EmptyState>
              }
            />
            <ListPager
              label="Transaction pages"
              emptySummary="No transactions"
              total={list.totalCount}
              {...paging}
            />
          </>
        )}
      </ListPanel>
    </>
  );
}
