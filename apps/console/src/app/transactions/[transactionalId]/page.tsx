import type { Metadata } from 'next';
import { HydrateClient, prefetch, trpc } from '../../../trpc/server';
import { TransactionDetail } from './_components/transaction-detail';

type TransactionPageProps = { params: Promise<{ transactionalId: string }> };

export async function generateMetadata({ params }: TransactionPageProps): Promise<Metadata> {
  return { title: decodeURIComponent((await params).transactionalId) };
}

/** One transactional id: its state, partitions with the LSO gap each holds, and the operator's abort. */
export default async function TransactionPage({ params }: TransactionPageProps) {
  const transactionalId = decodeURIComponent((await params).transactionalId);
  await prefetch(trpc.transactions.get.queryOptions({ transactionalId }));
  return (
    <HydrateClient>
      <TransactionDetail transactionalId={transactionalId} />
    </HydrateClient>
  );
}
