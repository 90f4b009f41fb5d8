import { LoadingState, PageHeader } from '@weir/ui';
import type { Metadata } from 'next';
import Link from 'next/link';
import type { SearchParams } from 'nuqs/server';
import { Suspense } from 'react';
import { HydrateClient, prefetch, trpc } from '../../../trpc/server';
import { loadTimelineParams, timelineInput } from './_components/timeline-params';
import { TimelineView } from './_components/timeline-view';

export const metadata: Metadata = { title: 'Replication timeline' };

type TimelinePageProps = { searchParams: Promise<SearchParams> };

/**
 * The replication timeline the brokers keep (leader changes, offline partitions, ISR changes,
 * reassignments, broker sessions) for the whole cluster, one broker or one partition.
 */
export default async function TimelinePage({ searchParams }: TimelinePageProps) {
  await prefetch(trpc.replication.events.queryOptions(timelineInput(loadTimelineParams(await searchParams))));
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title="Replication timeline"
        eyebrow={
          <Link href="/replication" className="hover:underline">
            Replication
          </Link>
        }
        description="What happened to leaders, ISRs and broker sessions, and why, as the brokers recorded it."
      />
      <HydrateClient>
        {/* useSearchParams (nuqs) needs a Suspense boundary above it. */}
        <Suspense fallback={<LoadingState />}>
          <TimelineView />
        </Suspense>
      </HydrateClient>
    </div>
  );
}
