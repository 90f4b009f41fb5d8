import { LoadingState, PageHeader } from '@weir/ui';
import type { Metadata } from 'next';
import type { SearchParams } from 'nuqs/server';
import { Suspense } from 'react';
import { HydrateClient, prefetch, trpc } from '../../trpc/server';
import { AuditList } from './_components/audit-list';
import { auditListInput, loadAuditListParams } from './_components/audit-list-params';

export const metadata: Metadata = { title: 'Audit log' };

type AuditPageProps = { searchParams: Promise<SearchParams> };

/**
 * The audit log: the administrative actions the brokers handled, newest first, with filters and
 * the page's cursor in the URL (the same names as GET /api/v1/audit).
 */
export default async function AuditPage({ searchParams }: AuditPageProps) {
  await prefetch(trpc.audit.list.queryOptions(auditListInput(loadAuditListParams(await searchParams))));
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title="Audit log"
        description="Who created, deleted or changed topics, configs, ACLs, users, records, offsets and transactions, from the console, REST, the CLI or any Kafka client, and how it ended."
      />
      <HydrateClient>
        {/* useSearchParams (nuqs) needs a Suspense boundary above it. */}
        <Suspense fallback={<LoadingState />}>
          <AuditList />
        </Suspense>
      </HydrateClient>
    </div>
  );
}
