import { PageHeader } from '@weir/ui';
import { ClusterOverview } from './_components/cluster-overview';

/** The overview: health with its reasons, the broker, counts and throughput. */
export default function OverviewPage() {
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Overview" description="The state of the cluster, with the reasons behind it." />
      <ClusterOverview />
    </div>
  );
}
