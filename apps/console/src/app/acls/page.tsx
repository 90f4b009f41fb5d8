import { LoadingState, PageHeader } from '@weir/ui';
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { HydrateClient, prefetch, trpc } from '../../trpc/server';
import { aclListInput } from './_components/acl-list-input';
import { AclManager } from './_components/acl-manager';

export const metadata: Metadata = { title: 'ACLs' };

type AclsPageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** One value of a search parameter (the first, when repeated). */
function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The broker's ACLs: filter by principal or resource, grant access by intent, create, delete by
 * typing. The list the URL asks for is fetched before rendering, so the first paint has the rows.
 */
export default async function AclsPage({ searchParams }: AclsPageProps) {
  const params = await searchParams;
  await prefetch(
    trpc.acls.list.queryOptions(
      aclListInput({ principal: single(params.principal), resource: single(params.resource) }),
    ),
  );
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title="ACLs"
        description="Who may do what on which topic, group, transactional id or the cluster. DENY wins over ALLOW."
      />
      <HydrateClient>
        {/* useSearchParams needs a Suspense boundary above it. */}
        <Suspense fallback={<LoadingState />}>
          <AclManager />
        </Suspense>
      </HydrateClient>
    </div>
  );
}
