import { LoadingState, PageHeader } from '@weir/ui';
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { HydrateClient, prefetch, trpc } from '../../trpc/server';
import { DrainPanel } from './_components/drain-panel';
import { MoveForm } from './_components/move-form';
import { MovesInProgress } from './_components/moves-in-progress';

export const metadata: Metadata = { title: 'Reassignments' };

/**
 * Partition reassignment: the moves in progress with each new replica's progress, a form to move
 * chosen partitions and the drain of a broker, each previewed before it is executed.
 */
export default async function ReassignmentsPage() {
  await prefetch(trpc.reassignments.list.queryOptions({}));
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title="Reassignments"
        description="Move partition replicas between brokers, or drain a broker; new replicas copy the leader's log and join the ISR before old ones leave."
      />
      <HydrateClient>
        {/* useSearchParams (nuqs) needs a Suspense boundary above it. */}
        <Suspense fallback={<LoadingState />}>
          <MovesInProgress />
          <MoveForm />
          <DrainPanel />
        </Suspense>
      </HydrateClient>
    </div>
  );
}
