'use client';

import { TimeZoneProvider } from '@weir/ui';
import { NuqsAdapter } from 'nuqs/adapters/next/app';
import type { ReactNode } from 'react';
import { TRPCReactProvider } from '../../trpc/react';
import { SlashToSearch } from './slash-to-search';

/** Everything client components need: queries through tRPC, URL state, and the time-zone choice. */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <NuqsAdapter>
      <TRPCReactProvider>
        <TimeZoneProvider>
          <SlashToSearch />
          {children}
        </TimeZoneProvider>
      </TRPCReactProvider>
    </NuqsAdapter>
  );
}
