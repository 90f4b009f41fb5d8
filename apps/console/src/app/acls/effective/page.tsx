import { LoadingState, PageHeader } from '@weir/ui';
import type { Metadata } from 'next';
import Link from 'next/link';
import type { SearchParams } from 'nuqs/server';
import { Suspense } from 'react';
import { currentViewer } from '../../../server/auth/viewer';
import { HydrateClient, prefetch, trpc } from '../../../trpc/server';
import { effectivePermissionsInput, loadEffectivePermissionsParams } from './_components/effective-params';
import { EffectivePermissionsView } from './_components/effective-permissions-view';

export const metadata: Metadata = { title: 'Effective permissions' };

type EffectivePermissionsPageProps = { searchParams: Promise<SearchParams> };

/**
 * What one principal may do on every resource, decided by the broker's own authorizer. Without a
 * principal in the URL a logged-in user sees their own. The answer is fetched before rendering.
 */
export default async function EffectivePermissionsPage({ searchParams }: EffectivePermissionsPageProps) {
  const viewer = await currentViewer();
  const viewerPrincipal = viewer.username === null ? null : `User:${viewer.username}`;
  const input = effectivePermissionsInput(
    loadEffectivePermissionsParams(await searchParams),
    viewerPrincipal,
  );
  if (input !== null) await prefetch(trpc.acls.effective.queryOptions(input));
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title="Effective permissions"
        eyebrow={
          <Link href="/acls" className="hover:underline">
            ACLs
          </Link>
        }
        description="What a principal may do on each resource, as the broker decides it. Hover over or click an operation for the reason and the deciding ACLs."
      />
      <HydrateClient>
        {/* useSearchParams (nuqs) needs a Suspense boundary above it. */}
        <Suspense fallback={<LoadingState />}>
          <EffectivePermissionsView viewerPrincipal={viewerPrincipal} />
        </Suspense>
      </HydrateClient>
    </div>
  );
}
