import { PageHeader } from '@weir/ui';
import type { Metadata } from 'next';
import { HydrateClient, prefetch, trpc } from '../../trpc/server';
import { BrokerTable } from './_components/broker-table';

export const metadata: Metadata = { title: 'Brokers' };

/** The cluster's brokers with the controller marked and their leader and replica counts. */
export default async function BrokersPage() {
  await prefetch(trpc.brokers.list.queryOptions({}));
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title="Brokers"
        description="Every broker in the cluster, where it listens and what it leads."
      />
      <HydrateClient>
        <BrokerTable />
      </HydrateClient>
    </div>
  );
}
