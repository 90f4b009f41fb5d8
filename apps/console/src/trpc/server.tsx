import 'server-only';
import { dehydrate, type FetchQueryOptions, HydrationBoundary, type QueryKey } from '@tanstack/react-query';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { connection } from 'next/server';
import { cache, type ReactNode } from 'react';
import { appRouter } from '../server/api/root';
import { createContext } from '../server/api/trpc';
import { makeQueryClient } from './query-client';

/*
 * Server-side prefetch for pages. A page awaits its first query here,
 * calling the router in-process (no HTTP hop), and wraps its client leaves in `HydrateClient`, so
 * the HTML already holds the data and the client's `useQuery` starts from it instead of fetching
 * after hydration.
 */

/** One query client per request: React's `cache` lasts for one server render. */
const getServerQueryClient = cache(makeQueryClient);

/** Query options for server components, with the same keys the client's `useTRPC` produces. */
export const trpc = createTRPCOptionsProxy({
  router: appRouter,
  ctx: createContext,
  queryClient: getServerQueryClient,
});

/**
 * How long a page waits for its first query. The broker answers these from memory in
 * milliseconds; when it is slow or away the page renders without data after this, and the client
 * fetches and shows the error or the loading state as it would have without prefetching.
 */
const PREFETCH_WAIT_MS = 1_500;

/**
 * Runs a query on the server, waiting at most PREFETCH_WAIT_MS. Failures are left to the client:
 * only successful queries are handed over, so an error is fetched again and shown there.
 */
export async function prefetch<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  options: FetchQueryOptions<TQueryFnData, TError, TData, TQueryKey>,
): Promise<void> {
  // Broker state is read per request: this keeps Next from prerendering the page at build time,
  // which would bake a build machine's answer (or its missing broker) into static HTML.
  await connection();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, PREFETCH_WAIT_MS);
  });
  await Promise.race([getServerQueryClient().prefetchQuery(options), waited]);
  clearTimeout(timer);
}

/** Hands the queries this request prefetched to the client's query cache. */
export function HydrateClient({ children }: { children: ReactNode }) {
  return <HydrationBoundary state={dehydrate(getServerQueryClient())}>{children}</HydrationBoundary>;
}
