'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  AsOfIndicator,
  Badge,
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
import type { GroupRow } from '../../../server/api/schemas/groups';
import { useTRPC } from '../../../trpc/react';
import { QueryState } from '../../_components/query-state';
import { TransactionAwareNote } from '../../_components/transaction-aware-note';
import { groupListInput, groupListParams, groupSortKeys } from './group-list-params';
import { GroupStateBadge } from './group-state-badge';

const columns: readonly DataTableColumn<GroupRow>[] = [
  {
    id: 'name',
    header: 'Group',
    sortable: true,
    cell: (group) => (
      <Link
        href={`/groups/${encodeURIComponent(group.groupId)}`}
        className="font-medium text-teal-700 hover:underline dark:text-teal-400"
      >
        {group.groupId}
      </Link>
    ),
  },
  { id: 'state', header: 'State', sortable: true, cell: (group) => <GroupStateBadge state={group.state} /> },
  {
    id: 'members',
    header: 'Members',
    align: 'right',
    sortable: true,
    cell: (group) => <Count value={group.memberCount} />,
  },
  {
    id: 'topics',
    header: 'Topics',
    cell: (group) => (
      <span className="inline-flex flex-wrap gap-1">
        {group.topics.map((topic) => (
          <Link key={topic} href={`/topics/${encodeURIComponent(topic)}`}>
            <Badge>{topic}</Badge>
          </Link>
        ))}
      </span>
    ),
  },
  {
    id: 'lag',
    header: 'Total lag',
    align: 'right',
    sortable: true,
    cell: (group) => <Count value={group.totalLag} />,
  },
];

/** The group list; the state counts above it filter by state when clicked. */
export function GroupList() {
  const trpc = useTRPC();
  const [params, setParams] = useQueryStates(groupListParams);
  const query = useQuery({
    ...trpc.groups.list.queryOptions(groupListInput(params)),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  const total = query.data?.totalCount ?? 0;
  const first = params.page * params.size;
  const last = Math.min(first + params.size, total);
  const states = Object.entries(query.data?.stateCounts ?? {});

  return (
    <>
      <Toolbar label="Group filters">
        <Input
          type="search"
          aria-label="Search groups"
          placeholder="Search groups (press /)"
          className="w-72"
          value={params.q}
          onChange={(event) => void setParams({ q: event.target.value, page: 0 })}
        />
        <Select
          aria-label="State"
          value={params.state}
          onChange={(event) => void setParams({ state: event.target.value, page: 0 })}
          options={[
            { value: '', label: 'All states' },
            ...states.map(([state, count]) => ({ value: state, label: `${state} (${formatCount(count)})` })),
          ]}
        />
      </Toolbar>
      <Panel
        title="Group list"
        flush
        actions={
          <span className="inline-flex flex-wrap items-center gap-3">
            <TransactionAwareNote />
            <AsOfIndicator
              asOfMs={query.data?.asOfMs}
              onRefresh={() => void query.refetch()}
              refreshing={query.isFetching}
            />
          </span>
        }
      >
        <QueryState query={query} errorTitle="Could not read the consumer groups">
          {(list) => (
            <div className="flex flex-col gap-2">
              <DataTable
                label="Consumer groups"
                columns={columns}
                rows={list.groups}
                rowKey={(group) => group.groupId}
                sort={{ column: params.sort, direction: params.desc ? 'desc' : 'asc' }}
                onSortChange={(column, direction) =>
                  void setParams({
                    sort: groupSortKeys.find((key) => key === column) ?? 'name',
                    desc: direction === 'desc',
                    page: 0,
                  })
                }
                empty={
                  <EmptyState title="No consumer groups">
                    Groups appear once a consumer joins or commits.
                  </EmptyState>
                }
              />
              <Pager
                label="Group pages"
                summary={
                  total === 0
                    ? 'No groups'
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
