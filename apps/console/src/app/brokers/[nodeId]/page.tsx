import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { HydrateClient, prefetch, trpc } from '../../../trpc/server';
import { BrokerDetail } from './_components/broker-detail';

type BrokerPageProps = { params: Promise<{ nodeId: string }> };

/** The node id in the path, or null when it is not one (a node id is a non-negative integer). */
function nodeIdOf(raw: string): number | null {
  return /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}

export async function generateMetadata({ params }: BrokerPageProps): Promise<Metadata> {
  return { title: `Broker ${(await params).nodeId}` };
}

/** One broker: its state, listeners, partitions and disk, and the configs it does not leave at default. */
export default async function BrokerPage({ params }: BrokerPageProps) {
  const nodeId = nodeIdOf((await params).nodeId);
  if (nodeId === null) notFound();
  await Promise.all([
    prefetch(trpc.brokers.list.queryOptions({})),
    prefetch(trpc.brokers.configs.queryOptions({ nodeId })),
  ]);
  return (
    <HydrateClient>
      <BrokerDetail nodeId={nodeId} />
    </HydrateClient>
  );
}
