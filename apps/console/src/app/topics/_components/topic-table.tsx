import {
  Badge,
  ByteSize,
  Count,
  DataTable,
  type DataTableColumn,
  EmptyState,
  type SortDirection,
} from '@weir/ui';
import { useMemo } from 'react';
import type { TopicSummary } from '../../../server/api/schemas/topics';
import { formatPerSecond } from '../../_components/format-rate';
import { RowLink } from '../../_components/row-link';
import { TrendSparkline } from '../../_components/trend-sparkline';
import { GroupLagBadges } from './group-lag-badges';

type TopicTableProps = {
  topics: readonly TopicSummary[];
  sort: { column: string; direction: SortDirection };
  onSortChange: (column: string, direction: SortDirection) => void;
  search: string;
  /** Records produced per second over the last hour, by topic; undefined while being read. */
  trends?: Readonly<Record<string, readonly (number | null)[]>> | undefined;
};

const columnsWith = (trends: TopicTableProps['trends']): readonly DataTableColumn<TopicSummary>[] => [
  {
    id: 'name',
    header: 'Name',
    sortable: true,
    cell: (topic) => (
      <span className="inline-flex items-center gap-2">
        <RowLink href={`/topics/${encodeURIComponent(topic.name)}`}>{topic.name}</RowLink>
        {topic.internal ? <Badge>internal</Badge> : null}
      </span>
    ),
  },
  {
    id: 'partitions',
    header: 'Partitions',
    align: 'right',
    sortable: true,
    cell: (t) => <Count value={t.partitionCount} />,
  },
  {
    id: 'replicationFactor',
    header: 'Replicas',
    align: 'right',
    cell: (t) => <Count value={t.replicationFactor} />,
  },
  {
    id: 'sizeBytes',
    header: 'Size',
    align: 'right',
    sortable: true,
    cell: (t) => <ByteSize bytes={t.sizeBytes} />,
  },
  {
    id: 'messages',
    header: 'Messages',
    align: 'right',
    sortable: true,
    cell: (t) => <Count value={t.messageCount} />,
  },
  {
    id: 'produceTrend',
    header: 'Produced, last hour',
    cell: (t) => (
      <TrendSparkline values={trends?.[t.name]} what="Records produced per second" format={formatPerSecond} />
    ),
  },
  { id: 'groups', header: 'Consumer groups (lag)', cell: (t) => <GroupLagBadges groups={t.groups} /> },
];

/** One row per topic, with the groups that read it and how far behind each is. */
export function TopicTable({ topics, sort, onSortChange, search, trends }: TopicTableProps) {
  const columns = useMemo(() => columnsWith(trends), [trends]);
  return (
    <DataTable
      label="Topics"
      columns={columns}
      rows={topics}
      rowKey={(topic) => topic.name}
      sort={sort}
      onSortChange={onSortChange}
      empty={
        <EmptyState title={search ? `No topic matches "${search}"` : 'No topics yet'}>
          {search ? 'Try a shorter search, or show internal topics.' : 'Create one with the button above.'}
        </EmptyState>
      }
    />
  );
}
