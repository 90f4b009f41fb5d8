import { LoadingState, PageHeader } from '@weir/ui';
import type { Metadata } from 'next';
import Link from 'next/link';
import type { SearchParams } from 'nuqs/server';
import { Suspense } from 'react';
import { HydrateClient, prefetch, trpc } from '../../trpc/server';
import { ElectAllLeaders } from './_components/elect-all-leaders';
import { ReplicationHealthView } from './_components/replication-health-view';
import { loadReplicationParams, replicationHealthInput } from './_components/replication-params';
import { timelineHref } from './timeline/_components/timeline-params';

export const metadata: Metadata = { title: 'Replication' };

type ReplicationPageProps = { searchParams: Promise<SearchParams> };

/**
 * Every partition that is offline, under or at min ISR, under-replicated or led by a non-preferred
 * replica, with why in words, merged from the metadata and every broker's answer.
 */
export default async function ReplicationPage({ searchParams }: ReplicationPageProps) {
  await prefetch(
    trpc.replication.health.queryOptions(replicationHealthInput(loadReplicationParams(await searchParams))),
  );
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title="Replication"
        description="Partitions whose replicas are not all in sync, that have no leader, or that are led by a non-preferred replica."
        actions={
          <>
            <Link href={timelineHref()} className="text-sm underline-offset-2 hover:underline">
              Replication timeline
            </Link>
            <ElectAllLeaders />
          </>
        }
      />
      <HydrateClient>
        {/* useSearchParams (nuqs) needs a Suspense boundary above it. */}
        <Suspense fallback={<LoadingState />}>
          <ReplicationHealthView />
        </Suspense>
      </HydrateClient>
    </div>
  );
}
