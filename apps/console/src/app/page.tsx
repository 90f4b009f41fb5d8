import { PageHeader } from '@weir/ui';
import { HydrateClient, prefetch, trpc } from '../trpc/server';
import { ClusterOverview } from './_components/cluster-overview';

/** The overview: health with its reasons, the broker, counts and throughput. */
export default async function OverviewPage() {
  await prefetch(trpc.cluster.overview.queryOptions({}));
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Overview" description="The state of the cluster, with the reasons behind it." />
      <HydrateClient>
        <ClusterOverview />
      </HydrateClient>
    </div>
  );
}
