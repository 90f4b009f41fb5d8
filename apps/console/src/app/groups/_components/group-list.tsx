'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Badge,
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
import Link from 'next/link';
import { useMemo } from 'react';
import type { GroupRow } from '../../../server/api/schemas/groups';
import { useTRPC } from '../../../trpc/react';
import { ListPanel } from '../../_components/list-panel';
import { ListSearch } from '../../_components/list-search';
import { RowLink } from '../../_components/row-link';
import { TransactionAwareNote } from '../../_components/transaction-aware-note';
import { TrendSparkline } from '../../_components/trend-sparkline';
import { useListParams } from '../../_components/use-list-params';
import { groupListInput, groupListParams, groupSortKeys } from './group-list-params';
import { GroupStateBadge } from './group-state-badge';

type LagTrends = Readonly<Record<string, readonly (number | null)[]>> | undefined;

const columnsWith = (trends: LagTrends): readonly DataTableColumn<GroupRow>[] => [
  {
    id: 'name',
    header: 'Group',
    sortable: true,
    cell: (group) => (
      <RowLink href={`/groups/${encodeURIComponent(group.groupId)}`}>
        {showBidiControls(group.groupId)}
      </RowLink>
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
  {
    id: 'lagTrend',
    header: 'Lag, last hour',
    cell: (group) => (
      <TrendSparkline values={trends?.[group.groupId]} what="Lag over the last hour" format={formatCount} />
    ),
  },
];

/** The group list; the state counts above it filter by state when clicked. */
export function GroupList() {
  const trpc = useTRPC();
  const { params, filter, sort, paging } = useListParams(groupListParams, { sortKeys: groupSortKeys });
  const query = useQuery({
    ...trpc.groups.list.queryOptions(groupListInput(params)),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  const states = Object.entries(query.data?.stateCounts ?? {});
  // The page's groups only: the broker samples every group, the list shows a page of them.
  const groupIds = useMemo(() => query.data?.groups.map((group) => group.groupId) ?? [], [query.data]);
  const trends = useQuery({
    ...trpc.groups.lagTrends.queryOptions({ groupIds }),
    enabled: groupIds.length > 0,
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  const columns = useMemo(() => columnsWith(trends.data?.trends), [trends.data]);

  return (
    <>
      <Toolbar label="Group filters">
        <ListSearch
          label="Search groups"
          value={params.q}
          onSearch={(q, history) => filter({ q }, history)}
        />
        <Select
          aria-label="State"
          value={params.state}
          onChange={(event) => filter({ state: event.target.value })}
          options={[
            { value: '', label: 'All states' },
            ...states.map(([state, count]) => ({ value: state, label: `${state} (${formatCount(count)})` })),
          ]}
        />
      </Toolbar>
      <ListPanel
        title="Group list"
        query={query}
        errorTitle="Could not read the consumer groups"
        note={<TransactionAwareNote />}
      >
        {(list) => (
          <>
            <DataTable
              label="Consumer groups"
              columns={columns}
              rows={list.groups}
              rowKey={(group) => group.groupId}
              {...sort}
              empty={
                <EmptyState title="No consumer groups">
                  Groups appear once a consumer joins or commits.
                </EmptyState>
              }
            />
            <ListPager label="Group pages" emptySummary="No groups" total={list.totalCount} {...paging} />
          </>
        )}
      </ListPanel>
    </>
  );
}
