'use client';

import { useQuery } from '@tanstack/react-query';
import { Badge, ByteSize, Count, PageHeader, Tabs } from '@weir/ui';
import Link from 'next/link';
import { parseAsStringLiteral, useQueryState } from 'nuqs';
import { Suspense } from 'react';
import { useTRPC } from '../../../../trpc/react';
import { ActionGates } from '../../../_components/action-gate';
import { QueryAsOf } from '../../../_components/query-as-of';
import { QueryState } from '../../../_components/query-state';
import { TransactionAwareNote } from '../../../_components/transaction-aware-note';
import { ReplicationCounts } from '../../../replication/_components/replication-counts';
import { GroupLagBadges } from '../../_components/group-lag-badges';
import { DeleteTopicButton } from './delete-topic-button';
import { PartitionTable } from './partition-table';
import { ThroughputHistoryPanel } from './throughput-history-panel';
import { TopicConfigs } from './topic-configs';
import { TopicLogCleaner } from './topic-log-cleaner';
import { TopicMaintenance } from './topic-maintenance';
import { TopicProducers } from './topic-producers';
import { TopicSchemas } from './topic-schemas';

const tabIds = ['partitions', 'producers', 'configs', 'schemas', 'maintenance'] as const;

const linkClassName =
  'inline-flex h-8 items-center rounded-md border border-zinc-300 bg-white px-3 font-medium text-sm hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:bg-zinc-800';

/** The topic page's client leaf: one read of the topic feeds the header and the partitions tab. */
export function TopicDetail({ topic }: { topic: string }) {
  const trpc = useTRPC();
  const [tab, setTab] = useQueryState('tab', parseAsStringLiteral(tabIds).withDefault('partitions'));
  const query = useQuery(trpc.topics.get.queryOptions({ topic }));
  const base = `/topics/${encodeURIComponent(topic)}`;
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title={topic}
        eyebrow={
          <Link href="/topics" className="hover:underline">
            Topics
          </Link>
        }
        // Actions on the topic appear once it has been read: a topic that does not exist (or
        // cannot be read now) offers nothing to browse, produce to or delete.
        actions={
          query.data === undefined ? null : (
            <>
              <Link href={`${base}/messages`} className={linkClassName}>
                Browse messages
              </Link>
              {/* A read-only user gets one compact line here, not a long reason per action. The
                operations are those the server checks (TOPIC_OPERATION in topic-permissions.ts). */}
              <ActionGates
                resource={topic}
                actions={[
                  {
                    operation: 'WRITE',
                    permission: query.data.allowedActions.produce,
                    control:
                      query.data.allowedActions.produce.allowed === false ? null : (
                        <Link href={`${base}/produce`} className={linkClassName}>
                          Produce
                        </Link>
                      ),
                  },
                  {
                    operation: 'DELETE',
                    permission: query.data.allowedActions.delete,
                    control: (
                      <DeleteTopicButton topic={topic} permission={query.data.allowedActions.delete} />
                    ),
                  },
                ]}
              />
            </>
          )
        }
      />
      <QueryState query={query} errorTitle={`Could not read topic ${topic}`}>
        {(detail) => (
          <>
            <div className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
              <dl className="flex flex-wrap items-center gap-x-6 gap-y-2">
                <Fact label="Partitions" value={<Count value={detail.partitionCount} />} />
                <Fact label="Replication factor" value={<Count value={detail.replicationFactor} />} />
                <Fact label="Size" value={<ByteSize bytes={detail.sizeBytes} />} />
                <Fact label="Messages" value={<Count value={detail.messageCount} />} />
                <Fact
                  label="Consumer groups"
                  value={
                    <span className="inline-flex flex-wrap items-center gap-1.5">
                      <GroupLagBadges groups={detail.groups} />
                      {detail.groups.length > 0 ? <TransactionAwareNote /> : null}
                    </span>
                  }
                />
                <Fact label="Replication" value={<ReplicationCounts topic={topic} />} />
              </dl>
              {/* Only dt/dd groups may sit inside the dl, so the badge and the as-of time follow it. */}
              {detail.internal ? <Badge>internal</Badge> : null}
              <div className="ml-auto">
                <QueryAsOf query={query} />
              </div>
            </div>
            {/* useQueryStates (nuqs) needs a Suspense boundary above it. */}
            <Suspense fallback={null}>
              <ThroughputHistoryPanel topic={topic} />
            </Suspense>
            <Tabs
              label="Topic sections"
              selected={tab}
              onSelect={(id) => void setTab(id as (typeof tabIds)[number])}
              items={[
                { id: 'partitions', label: 'Partitions', count: String(detail.partitionCount) },
                { id: 'producers', label: 'Producers' },
                { id: 'configs', label: 'Configuration' },
                { id: 'schemas', label: 'Schemas' },
                { id: 'maintenance', label: 'Maintenance' },
              ]}
            >
              {tab === 'partitions' ? (
                <div className="flex flex-col gap-4">
                  <PartitionTable partitions={detail.partitions} />
                  <TopicLogCleaner topic={topic} />
                </div>
              ) : null}
              {tab === 'producers' ? <TopicProducers topic={topic} /> : null}
              {tab === 'configs' ? (
                <TopicConfigs topic={topic} permission={detail.allowedActions.editConfigs} />
              ) : null}
              {tab === 'schemas' ? (
                <TopicSchemas topic={topic} permission={detail.allowedActions.editConfigs} />
              ) : null}
              {tab === 'maintenance' ? (
                <TopicMaintenance
                  topic={topic}
                  partitions={detail.partitions}
                  allowedActions={detail.allowedActions}
                />
              ) : null}
            </Tabs>
          </>
        )}
      </QueryState>
    </div>
  );
}

function Fact({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="flex items-baseline gap-1.5">
      <dt className="text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className="font-medium">{value}</dd>
    </div>
  );
}
