import { LoadingState, PageHeader } from '@weir/ui';
import type { Metadata } from 'next';
import type { SearchParams } from 'nuqs/server';
import { Suspense } from 'react';
import { HydrateClient, prefetch, trpc } from '../../trpc/server';
import { TopicList } from './_components/topic-list';
import { loadTopicListParams, topicListInput } from './_components/topic-list-params';

export const metadata: Metadata = { title: 'Topics' };

type TopicsPageProps = { searchParams: Promise<SearchParams> };

/**
 * The topic list: search, sort and paging happen on the server; the state lives in the URL. The
 * page fetches the list the URL asks for before rendering, so the first paint has the rows.
 */
export default async function TopicsPage({ searchParams }: TopicsPageProps) {
  const params = loadTopicListParams(await searchParams);
  await prefetch(trpc.topics.list.queryOptions(topicListInput(params)));
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Topics" description="Search, sort and page through every topic in the cluster." />
      <HydrateClient>
        {/* useSearchParams (nuqs) needs a Suspense boundary above it. */}
        <Suspense fallback={<LoadingState />}>
          <TopicList />
        </Suspense>
      </HydrateClient>
    </div>
  );
}
