'use client';

import { useQuery } from '@tanstack/react-query';
import { Badge, Count, DataTable, type DataTableColumn } from '@weir/ui';
import type { BrokerRow } from '../../../server/api/schemas/brokers';
import { useTRPC } from '../../../trpc/react';
import { ListPanel } from '../../_components/list-panel';

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
  { id: 'rack', header: 'Rack', cell: (broker) => broker.rack ?? '—' },
  {
    id: 'leaders',
    header: 'Leader of',
    align: 'right',
    cell: (broker) => <Count value={broker.leaderCount} />,
  },
  {
    id: 'replicas',
    header: 'Replicas',
    align: 'right',
    cell: (broker) => <Count value={broker.replicaCount} />,
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
            Cluster <code className="font-mono">{list.clusterId ?? 'unknown'}</code> · controller{' '}
            {list.controllerId}
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
