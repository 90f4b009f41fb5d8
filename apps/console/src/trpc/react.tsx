'use client';

import { QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { type ReactNode, useState } from 'react';
import type { AppRouter } from '../server/api/root';
import { csrfHeaders } from './csrf';
import { getQueryClient } from './query-client';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** The gateway's endpoint, relative: the browser talks to the origin that served the page. */
const trpcPath = '/api/trpc';

/**
 * Provides TanStack Query and the typed tRPC proxy to client components. Queries and mutations go
 * through the batching HTTP link; the message search, a subscription, streams over server-sent
 * events so progress and rows arrive while the broker scans.
 */
export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        splitLink({
          condition: (operation) => operation.type === 'subscription',
          true: httpSubscriptionLink({ url: trpcPath }),
          false: httpBatchLink({ url: trpcPath, headers: csrfHeaders }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
