import type { Metadata } from 'next';
import { HydrateClient, prefetch, trpc } from '../../../trpc/server';
import { GroupDetail } from './_components/group-detail';

type GroupPageProps = { params: Promise<{ groupId: string }> };

export async function generateMetadata({ params }: GroupPageProps): Promise<Metadata> {
  return { title: decodeURIComponent((await params).groupId) };
}

/** One consumer group: members, assignments, lag per partition, offset reset and delete. */
export default async function GroupPage({ params }: GroupPageProps) {
  const groupId = decodeURIComponent((await params).groupId);
  await prefetch(trpc.groups.get.queryOptions({ groupId }));
  return (
    <HydrateClient>
      <GroupDetail groupId={groupId} />
    </HydrateClient>
  );
}
