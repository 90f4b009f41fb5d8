import type { Metadata } from 'next';
import { HydrateClient, prefetch, trpc } from '../../../trpc/server';
import { TopicDetail } from './_components/topic-detail';

type TopicPageProps = { params: Promise<{ topic: string }> };

export async function generateMetadata({ params }: TopicPageProps): Promise<Metadata> {
  return { title: decodeURIComponent((await params).topic) };
}

/** One topic: partitions, configs, consumers and maintenance, in tabs kept in the URL. */
export default async function TopicPage({ params }: TopicPageProps) {
  const topic = decodeURIComponent((await params).topic);
  await prefetch(trpc.topics.get.queryOptions({ topic }));
  return (
    <HydrateClient>
      <TopicDetail topic={topic} />
    </HydrateClient>
  );
}
