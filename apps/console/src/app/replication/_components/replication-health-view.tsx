'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Count,
  DataTable,
  type DataTableColumn,
  EmptyState,
  formatCount,
  Input,
  Select,
  showBidiControls,
  Timestamp,
  Toolbar,
} from '@weir/ui';
import Link from 'next/link';
import { useQueryStates } from 'nuqs';
import {
  type PartitionReplicationRow,
  partitionReplicationStates,
  type ReplicationHealth,
} from '../../../server/api/schemas/replication';
import { useTRPC } from '../../../trpc/react';
import { ListPanel } from '../../_components/list-panel';
import { ListSearch } from '../../_components/list-search';
import { timelineHref } from '../timeline/_components/timeline-params';
import { ElectPreferredButton } from './elect-preferred-button';
import { ElectionOutcome } from './election-outcome';
import { replicationHealthInput, replicationParams } from './replication-params';
import { ReplicationStateBadge, STATE_LABELS } from './replication-state-badge';

function since(row: PartitionReplicationRow): number | null {
  if (row.states.includes('non-preferred-leader') && row.states.length === 1) return row.leaderChangedAtMs;
  return row.isrChangedAtMs ?? row.leaderChangedAtMs;
}

const columns: readonly DataTableColumn<PartitionReplicationRow>[] = [
  {
    id: 'partition',
    header: 'Partition',
    cell: (row) => (
      <Link
        className="font-medium underline-offset-2 hover:underline"
        href={`/topics/${encodeURIComponent(row.topic)}`}
      >
        {showBidiControls(row.topic)}-{row.partition}
      </Link>
    ),
  },
  {
    id: 'state',
    header: 'State',
    cell: (row) => (
      <span className="flex flex-col items-start gap-1">
        <span className="flex flex-wrap gap-1">
          {row.states.map((state) => (
            <ReplicationStateBadge key={state} state={state} />
          ))}
        </span>
        {/* Beside the state it remedies, which stays in view where the wide table scrolls; only a
            partition led by a non-preferred replica has an election to run. */}
        {row.states.includes('non-preferred-leader') ? <ElectPreferredButton row={row} /> : null}
      </span>
    ),
  },
  {
    id: 'leader',
    header: 'Leader',
    align: 'right',
    cell: (row) =>
      row.leaderId < 0 ? <span className="text-red-600">none</span> : <Count value={row.leaderId} />,
  },
  {
    id: 'isr',
    header: 'ISR of replicas',
    className: 'font-mono text-xs',
    cell: (row) => `${row.isr.join(',')} of ${row.replicas.join(',')}, min ${row.minInsyncReplicas}`,
  },
  {
    id: 'followers',
    header: 'Lagging followers',
    className: 'text-xs',
    cell: (row) =>
      row.laggingFollowers.length === 0
        ? '—'
        : row.laggingFollowers
            .map(
              (follower) =>
                `broker ${follower.brokerId}${follower.registered ? '' : ' (session ended)'}${follower.lagRecords === null ? '' : `: ${formatCount(BigInt(follower.lagRecords))} records`}${follower.lagMs === null ? '' : `, ${Math.round(follower.lagMs / 1000)} s`}`,
            )
            .join('; '),
  },
  {
    id: 'since',
    header: 'Since',
    cell: (row) => {
      const atMs = since(row);
      return atMs === null ? (
        <span className="text-zinc-500 dark:text-zinc-400">unknown</span>
      ) : (
        <Timestamp epochMs={atMs} />
      );
    },
  },
  {
    id: 'reasons',
    header: 'Why',
    cell: (row) => (
      // Reasons are sentences: they wrap (the table's cells do not), so the lag and time columns stay in view.
      <ul className="flex w-48 flex-col gap-0.5 whitespace-normal text-xs">
        {row.reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
    ),
  },
  {
    id: 'timeline',
    header: 'History',
    cell: (row) => (
      <Link
        className="text-xs underline-offset-2 hover:underline"
        href={timelineHref({ topic: row.topic, partition: row.partition })}
        aria-label={`Timeline of ${row.topic}-${row.partition}`}
      >
        timeline
      </Link>
    ),
  },
];

/** What was found healthy: the whole cluster, or the topic and broker the filters name. */
function healthyTitle(topic: string, broker: number | null): string {
  if (topic === '' && broker === null) return 'The cluster is healthy';
  const scope = [topic === '' ? null : `topic ${topic}`, broker === null ? null : `broker ${broker}`]
    .filter((part) => part !== null)
    .join(' on ');
  return `Healthy: every partition of ${scope} is in sync, led by its preferred replica`;
}

function plural(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}

/** How the check was made, in words, for the empty state and the panel's note. */
function howChecked(health: ReplicationHealth): string {
  const ids = health.answeredBrokers;
  const answered =
    ids.length === 0 ? 'no broker' : `${ids.length === 1 ? 'broker' : 'brokers'} ${ids.join(', ')}`;
  return `${plural(health.partitionCount, 'partition')} of ${plural(health.topicCount, 'topic')} on ${plural(health.registeredBrokers.length, 'broker')} checked; answered: ${answered}.`;
}

/** The partitions whose replication needs attention, filtered by topic, broker and state in the URL. */
export function ReplicationHealthView() {
  const trpc = useTRPC();
  const [params, setParams] = useQueryStates(replicationParams);
  const query = useQuery({
    ...trpc.replication.health.queryOptions(replicationHealthInput(params)),
    placeholderData: keepPreviousData,
    refetchInterval: 3_000,
  });
  const counts = query.data?.counts;
  const countOf = (state: (typeof partitionReplicationStates)[number]): number | undefined =>
    counts === undefined
      ? undefined
      : {
          offline: counts.offline,
          'under-min-isr': counts.underMinIsr,
          'at-min-isr': counts.atMinIsr,
          'under-replicated': counts.underReplicated,
          'non-preferred-leader': counts.nonPreferredLeader,
        }[state];
  return (
    <>
      <Toolbar label="Replication filters">
        <ListSearch label="Topic" value={params.topic} onSearch={(topic) => void setParams({ topic })} />
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
          aria-label="State"
          value={params.state ?? ''}
          onChange={(event) =>
            void setParams({
              state: partitionReplicationStates.find((state) => state === event.target.value) ?? null,
            })
          }
          options={[
            { value: '', label: 'Any state' },
            ...partitionReplicationStates.map((state) => {
              const count = countOf(state);
              return {
                value: state,
                label:
                  count === undefined
                    ? STATE_LABELS[state]
                    : `${STATE_LABELS[state]} (${formatCount(count)})`,
              };
            }),
          ]}
        />
      </Toolbar>
      <ElectionOutcome />
      <ListPanel
        title="Partition replication"
        query={query}
        errorTitle="Could not read the replication state"
      >
        {(health) => (
          <>
            {health.unansweredBrokers.length === 0 ? null : (
              <div
                role="alert"
                className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm dark:bg-amber-950"
              >
                {health.unansweredBrokers.map((broker) => (
                  <p key={broker.brokerId}>
                    Broker {broker.brokerId} did not answer: {broker.detail}
                  </p>
                ))}
              </div>
            )}
            <DataTable
              label="Partitions needing attention"
              columns={columns}
              rows={health.partitions}
              rowKey={(row) => `${row.topic}\u0000${row.partition}`}
              empty={
                params.state === null ? (
                  <EmptyState title={healthyTitle(params.topic.trim(), params.broker)}>
                    {howChecked(health)} Metadata as of <Timestamp epochMs={health.asOfMs} />.
                  </EmptyState>
                ) : (
                  <EmptyState title="No partition matches the filters">{howChecked(health)}</EmptyState>
                )
              }
            />
          </>
        )}
      </ListPanel>
    </>
  );
}
