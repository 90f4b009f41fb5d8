'use client';

import { useQuery } from '@tanstack/react-query';
import { Badge, Count, DataTable, type DataTableColumn, showBidiControls, Timestamp } from '@weir/ui';
import Link from 'next/link';
import type { BrokerRow } from '../../../server/api/schemas/brokers';
import { useTRPC } from '../../../trpc/react';
import { ListPanel } from '../../_components/list-panel';
import { drainHref } from '../../reassignments/_components/reassignment-params';
import { replicationHref } from '../../replication/_components/replication-params';
import { timelineHref } from '../../replication/timeline/_components/timeline-params';
import { BrokerDisk, BrokerListeners, BrokerState, LeaderSkew } from './broker-cells';

const columns: readonly DataTableColumn<BrokerRow>[] = [
  {
    id: 'node',
    header: 'Node id',
    align: 'right',
    cell: (broker) => (
      <span className="inline-flex items-center gap-1.5">
        {broker.isController ? <Badge tone="accent">controller</Badge> : null}
        <Link className="underline-offset-2 hover:underline" href={`/brokers/${broker.nodeId}`}>
          <Count value={broker.nodeId} />
        </Link>
      </span>
    ),
  },
  {
    id: 'state',
    header: 'State',
    cell: (broker) => (
      <span className="flex flex-col items-start gap-0.5">
        <BrokerState broker={broker} />
        {broker.startedAtMs === null ? null : (
          <span className="text-xs text-zinc-500 dark:text-zinc-400">
            since <Timestamp epochMs={broker.startedAtMs} />
          </span>
        )}
      </span>
    ),
  },
  { id: 'listeners', header: 'Listeners', cell: (broker) => <BrokerListeners broker={broker} /> },
  { id: 'rack', header: 'Rack', cell: (broker) => broker.rack ?? '—' },
  {
    id: 'version',
    header: 'Version',
    className: 'font-mono text-xs',
    cell: (broker) => broker.version ?? '—',
  },
  {
    id: 'leaders',
    header: 'Leader skew',
    className: 'min-w-32 whitespace-normal',
    cell: (broker) => <LeaderSkew broker={broker} />,
  },
  {
    id: 'followed',
    header: 'Followed',
    align: 'right',
    cell: (broker) => <Count value={broker.followerCount} />,
  },
  {
    id: 'disk',
    header: 'Disk',
    className: 'min-w-40 whitespace-normal',
    cell: (broker) => <BrokerDisk broker={broker} />,
  },
  // Last and bounded: an internal topic alone lists 50 partitions.
  {
    id: 'led',
    header: 'Partitions led',
    className: 'min-w-48 max-w-md whitespace-normal',
    cell: (broker) =>
      broker.ledTopics.length === 0 ? (
        '—'
      ) : (
        <span className="flex flex-wrap gap-x-3 gap-y-1 text-xs">
          {broker.ledTopics.map((entry) => (
            <Link
              key={entry.topic}
              className="underline-offset-2 hover:underline"
              href={`/topics/${encodeURIComponent(entry.topic)}`}
            >
              {showBidiControls(entry.topic)}{' '}
              <span className="text-zinc-500 dark:text-zinc-400">[{entry.partitions.join(', ')}]</span>
            </Link>
          ))}
        </span>
      ),
  },
  {
    id: 'replication',
    header: 'Replication',
    cell: (broker) => (
      <Link
        className="text-xs underline-offset-2 hover:underline"
        href={replicationHref({ broker: broker.nodeId })}
        aria-label={`Replication of broker ${broker.nodeId}'s partitions`}
      >
        partitions needing attention
      </Link>
    ),
  },
  {
    id: 'timeline',
    header: 'History',
    cell: (broker) => (
      <Link
        className="text-xs underline-offset-2 hover:underline"
        href={timelineHref({ broker: broker.nodeId })}
        aria-label={`Replication timeline of broker ${broker.nodeId}`}
      >
        timeline
      </Link>
    ),
  },
  {
    id: 'drain',
    header: 'Drain',
    cell: (broker) => (
      <Link
        className="text-xs underline-offset-2 hover:underline"
        href={drainHref(broker.nodeId)}
        aria-label={`Drain broker ${broker.nodeId}`}
      >
        preview drain
      </Link>
    ),
  },
];

export function BrokerTable() {
  const trpc = useTRPC();
  const query = useQuery(trpc.brokers.list.queryOptions({}));
  return (
    <ListPanel title="Broker list" query={query} errorTitle="Could not read the brokers">
      {(list) => (
        <>
          <p className="px-2 text-xs text-zinc-500 dark:text-zinc-400">
            Cluster <code className="font-mono">{list.clusterId ?? 'unknown'}</code> ·{' '}
            {list.controllerId < 0 ? (
              <span className="text-red-600 dark:text-red-400">no controller</span>
            ) : (
              <>controller {list.controllerId}</>
            )}
            {list.offlinePartitions.length > 0 ? (
              <>
                {' '}
                ·{' '}
                <span className="text-red-600 dark:text-red-400">
                  {list.offlinePartitions.length} offline partitions
                </span>
              </>
            ) : null}
          </p>
          <DataTable
            label="Brokers"
            columns={columns}
            rows={list.brokers}
            rowKey={(broker) => String(broker.nodeId)}
          />
        </>
      )}
    </ListPanel>
  );
}
