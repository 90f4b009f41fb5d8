'use client';

import { useQuery } from '@tanstack/react-query';
import {
  Badge,
  Count,
  DataTable,
  type DataTableColumn,
  DescriptionList,
  PageHeader,
  Panel,
  Timestamp,
} from '@weir/ui';
import Link from 'next/link';
import type { BrokerConfigs } from '../../../../server/api/schemas/brokers';
import { useTRPC } from '../../../../trpc/react';
import { ListPanel } from '../../../_components/list-panel';
import { QueryState } from '../../../_components/query-state';
import { drainHref } from '../../../reassignments/_components/reassignment-params';
import { timelineHref } from '../../../replication/timeline/_components/timeline-params';
import { BrokerDisk, BrokerListeners, BrokerState, LeaderSkew } from '../../_components/broker-cells';

type ConfigEntry = BrokerConfigs['configs'][number];

const configColumns: readonly DataTableColumn<ConfigEntry>[] = [
  { id: 'name', header: 'Name', className: 'font-mono text-xs', cell: (entry) => entry.name },
  {
    id: 'value',
    header: 'Value',
    className: 'font-mono text-xs break-all',
    cell: (entry) =>
      entry.isSensitive ? <Badge tone="neutral">sensitive, hidden</Badge> : (entry.value ?? '—'),
  },
  { id: 'source', header: 'Source', className: 'text-xs', cell: (entry) => entry.source },
];

/** The broker page's client leaf: the broker's row of the broker list, and its non-default configs. */
export function BrokerDetail({ nodeId }: { nodeId: number }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.brokers.list.queryOptions({}));
  const configs = useQuery(trpc.brokers.configs.queryOptions({ nodeId }));
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title={`Broker ${nodeId}`}
        eyebrow={
          <Link href="/brokers" className="hover:underline">
            Brokers
          </Link>
        }
        actions={
          <div className="flex items-center gap-3">
            <Link
              href={drainHref(nodeId)}
              className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
            >
              Drain broker…
            </Link>
            <Link
              href={timelineHref({ broker: nodeId })}
              className="text-sm underline-offset-2 hover:underline"
            >
              Replication timeline
            </Link>
          </div>
        }
      />
      <QueryState query={list} errorTitle="Could not read the brokers">
        {(data) => {
          const broker = data.brokers.find((candidate) => candidate.nodeId === nodeId);
          if (broker === undefined) {
            return <p className="text-sm">Broker {nodeId} is not in the cluster.</p>;
          }
          return (
            <Panel title="Broker facts">
              <DescriptionList
                items={[
                  {
                    term: 'State',
                    detail: (
                      <span className="inline-flex items-center gap-1.5">
                        <BrokerState broker={broker} />
                        {broker.isController ? <Badge tone="accent">controller</Badge> : null}
                      </span>
                    ),
                  },
                  {
                    term: 'Started',
                    detail: broker.startedAtMs === null ? '—' : <Timestamp epochMs={broker.startedAtMs} />,
                  },
                  { term: 'Listeners', detail: <BrokerListeners broker={broker} /> },
                  { term: 'Rack', detail: broker.rack ?? '—' },
                  { term: 'Version', detail: broker.version ?? '—' },
                  { term: 'Leader skew', detail: <LeaderSkew broker={broker} /> },
                  { term: 'Partitions followed', detail: <Count value={broker.followerCount} /> },
                  { term: 'Disk', detail: <BrokerDisk broker={broker} /> },
                ]}
              />
            </Panel>
          );
        }}
      </QueryState>
      <ListPanel
        title="Non-default configs"
        query={configs}
        errorTitle={`Could not read the configs of broker ${nodeId}`}
      >
        {(data) => (
          <DataTable
            label="Broker configs"
            columns={configColumns}
            rows={data.configs}
            rowKey={(entry) => entry.name}
          />
        )}
      </ListPanel>
    </div>
  );
}
