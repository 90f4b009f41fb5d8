'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Badge,
  DataTable,
  type DataTableColumn,
  EmptyState,
  Input,
  Select,
  showBidiControls,
  Timestamp,
  Toolbar,
} from '@weir/ui';
import { useQueryStates } from 'nuqs';
import type { ClusterEventView, ReplicationEvents } from '../../../../server/api/schemas/replication-events';
import { useTRPC } from '../../../../trpc/react';
import { ListPanel } from '../../../_components/list-panel';
import { ListSearch } from '../../../_components/list-search';
import { EVENT_KIND_STYLES, KIND_CHOICES } from './event-kinds';
import { TimelineChart } from './timeline-chart';
import { timelineInput, timelineParams } from './timeline-params';

const RANGE_LABELS: Readonly<Record<string, string>> = {
  '15m': 'Last 15 minutes',
  '1h': 'Last hour',
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
};

function brokersOf(event: ClusterEventView): string {
  if (event.replicasChanged.length > 0) return event.replicasChanged.join(', ');
  if (event.kind === 'leader-change' || event.kind === 'partition-offline') {
    const from = event.previousLeader === undefined || event.previousLeader < 0 ? '–' : event.previousLeader;
    const to = event.leader === undefined || event.leader < 0 ? '–' : event.leader;
    return `${from} → ${to}`;
  }
  return event.brokerId === undefined ? '' : String(event.brokerId);
}

function isrOf(event: ClusterEventView): string {
  if (event.isr === undefined) return '';
  return event.previousIsr === undefined
    ? `[${event.isr.join(', ')}]`
    : `[${event.previousIsr.join(', ')}] → [${event.isr.join(', ')}]`;
}

const columns: readonly DataTableColumn<ClusterEventView>[] = [
  {
    id: 'time',
    header: 'Time',
    // The date and the time may wrap onto two lines, so the reasons stay in view without scrolling.
    cell: (event) => <Timestamp epochMs={event.atMs} className="block w-36 whitespace-normal tabular-nums" />,
  },
  {
    id: 'kind',
    header: 'Kind',
    cell: (event) => (
      <span className="inline-flex items-center gap-1.5">
        <svg aria-hidden="true" width="10" height="10" viewBox="0 0 10 10">
          <circle cx="5" cy="5" r="5" fill={EVENT_KIND_STYLES[event.kind].colour} />
        </svg>
        {EVENT_KIND_STYLES[event.kind].label}
      </span>
    ),
  },
  {
    id: 'partition',
    header: 'Partition',
    cell: (event) =>
      event.topic === undefined ? '' : `${showBidiControls(event.topic)}-${event.partition ?? '?'}`,
  },
  { id: 'brokers', header: 'Broker(s)', className: 'font-mono text-xs', cell: brokersOf },
  {
    id: 'epoch',
    header: 'Epoch',
    align: 'right',
    cell: (event) => (event.leaderEpoch === undefined ? '' : String(event.leaderEpoch)),
  },
  { id: 'isr', header: 'ISR before → after', className: 'font-mono text-xs', cell: isrOf },
  {
    id: 'why',
    header: 'Why',
    // The reason wraps (the table's cells do not); the whole sentence is its hover title.
    cell: (event) => (
      <span className="block w-52 whitespace-normal text-xs" title={event.description}>
        {event.reason ?? <span className="text-zinc-500 dark:text-zinc-400">not recorded</span>}
      </span>
    ),
  },
];

/** What the timeline covers, in words: the whole cluster, one broker or one partition. */
function scopeOf(topic: string, partition: number | null, broker: number | null): string {
  const parts = [
    topic === '' ? null : partition === null ? `topic ${topic}` : `partition ${topic}-${partition}`,
    broker === null ? null : `broker ${broker}`,
  ].filter((part) => part !== null);
  return parts.length === 0 ? 'the whole cluster' : parts.join(', ');
}

function RangeRead({ data }: { data: ReplicationEvents }) {
  return (
    <>
      <Timestamp epochMs={data.sinceMs} /> to <Timestamp epochMs={data.untilMs} />
    </>
  );
}

/** The replication timeline: filters in the URL, a chart of the events and the same events listed. */
export function TimelineView() {
  const trpc = useTRPC();
  const [params, setParams] = useQueryStates(timelineParams);
  const input = timelineInput(params);
  const query = useQuery({
    ...trpc.replication.events.queryOptions(input),
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
  const kindChoice = KIND_CHOICES.find(
    (choice) => params.kinds !== null && choice.kinds.join(',') === params.kinds.join(','),
  );
  const scope = scopeOf(input.topic ?? '', input.partition ?? null, input.brokerId ?? null);
  return (
    <>
      <Toolbar label="Timeline filters">
        <ListSearch
          label="Topic"
          value={params.topic}
          onSearch={(topic) => void setParams({ topic, ...(topic === '' ? { partition: null } : {}) })}
        />
        <Input
          type="number"
          min={0}
          aria-label="Partition"
          placeholder="Partition"
          className="w-28"
          disabled={params.topic.trim() === ''}
          title={params.topic.trim() === '' ? 'Choose a topic first' : undefined}
          value={params.partition ?? ''}
          onChange={(event) =>
            void setParams({ partition: event.target.value === '' ? null : Number(event.target.value) })
          }
        />
        <Input
          type="number"
          min={0}
          aria-label="Broker"
          placeholder="Broker id"
          className="w-28"
          value={params.broker ?? ''}
          onChange={(event) =>
            void setParams({ broker: event.target.value === '' ? null : Number(event.target.value) })
          }
        />
        <Select
          aria-label="Range"
          value={params.range}
          onChange={(event) =>
            void setParams({
              range:
                (['15m', '1h', '24h', '7d'] as const).find((range) => range === event.target.value) ?? '24h',
            })
          }
          options={Object.entries(RANGE_LABELS).map(([value, label]) => ({ value, label }))}
        />
        <Select
          aria-label="Kinds"
          value={kindChoice?.value ?? ''}
          onChange={(event) => {
            const choice = KIND_CHOICES.find((candidate) => candidate.value === event.target.value);
            void setParams({ kinds: choice === undefined ? null : [...choice.kinds] });
          }}
          options={[
            { value: '', label: 'Every kind' },
            ...KIND_CHOICES.map((choice) => ({ value: choice.value, label: choice.label })),
          ]}
        />
      </Toolbar>
      <ListPanel
        title={`Timeline of ${scope}`}
        query={query}
        errorTitle="Could not read the replication timeline"
      >
        {(data) =>
          data.events.length === 0 ? (
            <EmptyState title={`No replication events for ${scope} in the range`}>
              Read the events from <RangeRead data={data} />
              {params.kinds === null ? '' : ` of the kinds ${params.kinds.join(', ')}`}.
            </EmptyState>
          ) : (
            <>
              <p className="border-b border-zinc-200 px-4 py-2 text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
                {data.events.length} event{data.events.length === 1 ? '' : 's'} from <RangeRead data={data} />
                , newest first.{' '}
                {data.truncated ? (
                  <Badge tone="warning">the newest {data.limit} only: narrow the range or the filters</Badge>
                ) : null}
              </p>
              <div className="border-b border-zinc-200 px-2 py-2 dark:border-zinc-800">
                <TimelineChart events={data.events} onePartition={input.partition !== undefined} />
              </div>
              <DataTable
                label="Replication events"
                columns={columns}
                rows={data.events}
                rowKey={(event) => event.id}
              />
            </>
          )
        }
      </ListPanel>
    </>
  );
}
