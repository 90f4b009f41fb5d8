'use client';

import { useQuery } from '@tanstack/react-query';
import { Badge, Count, DataTable, type DataTableColumn, showBidiControls } from '@weir/ui';
import Link from 'next/link';
import type { BrokerRow } from '../../../server/api/schemas/brokers';
import { useTRPC } from '../../../trpc/react';
import { ListPanel } from '../../_components/list-panel';
import { replicationHref } from '../../replication/_components/replication-params';

const STATE_TONES = { live: 'success', unreachable: 'warning', gone: 'danger' } as const;

const columns: readonly DataTableColumn<BrokerRow>[] = [
  {
    id: 'node',
    header: 'Node id',
    align: 'right',
    cell: (broker) => (
      <span className="inline-flex items-center gap-1.5">
        {broker.isController ? <Badge tone="accent">controller</Badge> : null}
        <Count value={broker.nodeId} />
      </span>
    ),
  },
  {
    id: 'address',
    header: 'Address',
    className: 'font-mono text-xs',
    cell: (broker) => `${broker.host}:${broker.port}`,
  },
  {
    id: 'state',
    header: 'State',
    cell: (broker) => (
      <Badge
        tone={STATE_TONES[broker.state]}
        {...(broker.stateDetail === null ? {} : { title: broker.stateDetail })}
      >
        {broker.state}
      </Badge>
    ),
  },
  { id: 'rack', header: 'Rack', cell: (broker) => broker.rack ?? '—' },
  {
    id: 'leaders',
    header: 'Leader of',
    align: 'right',
    cell: (broker) => <Count value={broker.leaderCount} />,
  },
  {
    id: 'led',
    header: 'Partitions led',
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
    id: 'replicas',
    header: 'Replicas',
    align: 'right',
    cell: (broker) => <Count value={broker.replicaCount} />,
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
