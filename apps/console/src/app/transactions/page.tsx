import { LoadingState, PageHeader } from '@weir/ui';
import type { Metadata } from 'next';
import type { SearchParams } from 'nuqs/server';
import { Suspense } from 'react';
import { HydrateClient, prefetch, trpc } from '../../trpc/server';
import { TransactionList } from './_components/transaction-list';
import { loadTransactionListParams, transactionListInput } from './_components/transaction-list-params';

export const metadata: Metadata = { title: 'Transactions' };

type TransactionsPageProps = { searchParams: Promise<SearchParams> };

/**
 * Transactional ids with their coordinator state: open and hanging transactions first. Filters,
 * sort and paging are in the URL and applied by the server.
 */
export default async function TransactionsPage({ searchParams }: TransactionsPageProps) {
  await prefetch(
    trpc.transactions.list.queryOptions(transactionListInput(loadTransactionListParams(await searchParams))),
  );
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title="Transactions"
        description="Open and hanging transactions: who holds them, on which partitions, and for how long."
      />
      <HydrateClient>
        {/* useSearchParams (nuqs) needs a Suspense boundary above it. */}
        <Suspense fallback={<LoadingState />}>
          <TransactionList />
        </Suspense>
      </HydrateClient>
    </div>
  );
}
