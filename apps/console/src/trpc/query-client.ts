import { QueryClient } from '@tanstack/react-query';

/**
 * Query defaults. The broker's state is the truth, so data goes stale quickly (every panel shows
 * its own "as of" time and a refresh button) and is re-read when the window regains focus. Errors
 * that the server classified as client errors (bad input, not found) are not retried: repeating
 * them only delays the message.
 */
const staleTimeMs = 5_000;
const noRetryCodes = new Set(['BAD_REQUEST', 'NOT_FOUND', 'CONFLICT', 'PRECONDITION_FAILED', 'FORBIDDEN']);

function errorCode(error: unknown): string | undefined {
  const data = (error as { data?: { code?: unknown } } | null)?.data;
  return typeof data?.code === 'string' ? data.code : undefined;
}

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: staleTimeMs,
        refetchOnWindowFocus: true,
        retry: (failureCount, error) => failureCount < 2 && !noRetryCodes.has(errorCode(error) ?? ''),
      },
      mutations: { retry: false },
    },
  });
}

let browserQueryClient: QueryClient | undefined;

/**
 * One client per browser tab, but a fresh one for every server render: a module-level client on
 * the server would share one visitor's cache with the next.
 */
export function getQueryClient(): QueryClient {
  if (typeof window === 'undefined') return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}
