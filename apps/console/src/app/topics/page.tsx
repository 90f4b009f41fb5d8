import { LoadingState, PageHeader } from '@weir/ui';
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { TopicList } from './_components/topic-list';

export const metadata: Metadata = { title: 'Topics' };

/** The topic list: search, sort and paging happen on the server; the state lives in the URL. */
export default function TopicsPage() {
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Topics" description="Search, sort and page through every topic in the cluster." />
      {/* The list reads its state from the URL, which a static prerender does not have. */}
      <Suspense fallback={<LoadingState />}>
        <TopicList />
      </Suspense>
    </div>
  );
}
