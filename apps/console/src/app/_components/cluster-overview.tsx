'use client';

import { useQuery } from '@tanstack/react-query';
import { Panel } from '@weir/ui';
import { useTRPC } from '../../trpc/react';
import { ReplicationCounts } from '../replication/_components/replication-counts';
import { BrokerPanel } from './broker-panel';
import { CountsPanel } from './counts-panel';
import { HealthPanel } from './health-panel';
import { QueryAsOf } from './query-as-of';
import { QueryState } from './query-state';
import { ThroughputPanel } from './throughput-panel';

/** Reads the overview once for all panels; it refreshes itself every 10 s, as rates move. */
export function ClusterOverview() {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.cluster.overview.queryOptions({}), refetchInterval: 10_000 });
  const asOf = <QueryAsOf query={query} />;
  return (
    <QueryState query={query} errorTitle="Could not read the cluster overview">
      {(overview) => (
        <div className="grid gap-4 lg:grid-cols-2">
          <HealthPanel health={overview.health} brokerAddress={overview.brokerAddress} asOf={asOf} />
          <BrokerPanel broker={overview.broker} asOf={asOf} />
          <CountsPanel counts={overview.counts} logSizeBytes={overview.logSizeBytes} asOf={asOf} />
          <ThroughputPanel throughput={overview.throughput} asOf={asOf} />
          <Panel title="Replication">
            <ReplicationCounts />
          </Panel>
        </div>
      )}
    </QueryState>
  );
}
