import { LoadingState, PageHeader } from '@weir/ui';
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { GroupList } from './_components/group-list';

export const metadata: Metadata = { title: 'Consumer groups' };

/** Consumer groups with state and total lag; search, state filter, sort and paging are server-side. */
export default function GroupsPage() {
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Consumer groups" description="Who reads what, and how far behind they are." />
      {/* The list reads its state from the URL, which a static prerender does not have. */}
      <Suspense fallback={<LoadingState />}>
        <GroupList />
      </Suspense>
    </div>
  );
}
