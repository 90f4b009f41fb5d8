import { LoadingState, PageHeader } from '@weir/ui';
import type { Metadata } from 'next';
import type { SearchParams } from 'nuqs/server';
import { Suspense } from 'react';
import { HydrateClient, prefetch, trpc } from '../../trpc/server';
import { GroupList } from './_components/group-list';
import { groupListInput, loadGroupListParams } from './_components/group-list-params';

export const metadata: Metadata = { title: 'Consumer groups' };

type GroupsPageProps = { searchParams: Promise<SearchParams> };

/**
 * Consumer groups with state and total lag; search, state filter, sort and paging are server-side.
 * The page fetches the page of groups the URL asks for before rendering (see trpc/server.tsx).
 */
export default async function GroupsPage({ searchParams }: GroupsPageProps) {
  await prefetch(trpc.groups.list.queryOptions(groupListInput(loadGroupListParams(await searchParams))));
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Consumer groups" description="Who reads what, and how far behind they are." />
      <HydrateClient>
        {/* useSearchParams (nuqs) needs a Suspense boundary above it. */}
        <Suspense fallback={<LoadingState />}>
          <GroupList />
        </Suspense>
      </HydrateClient>
    </div>
  );
}
