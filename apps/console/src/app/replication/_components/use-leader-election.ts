'use client';

import { useMutation, useMutationState, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LeaderElectionResult } from '../../../server/api/schemas/leader-elections';
import { gatewayError } from '../../../trpc/errors';
import { useTRPC } from '../../../trpc/react';

/**
 * The preferred-leader election the ISR page runs, from a row's button or the header's. Both use
 * the same mutation key, so the outcome shows in one place (`useLatestElection`) whichever ran it,
 * and the page's data is read again afterwards, success or not.
 */
export function useLeaderElection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.leaders.elect.mutationOptions({
      onSettled: () => queryClient.invalidateQueries(trpc.replication.pathFilter()),
    }),
  );
}

/** What the latest election answered, or why it failed as a whole; null before any ran. */
export type LatestElection =
  | { readonly status: 'pending' }
  | { readonly status: 'success'; readonly result: LeaderElectionResult }
  | { readonly status: 'error'; readonly message: string };

export function useLatestElection(): LatestElection | null {
  const trpc = useTRPC();
  const states = useMutationState({
    filters: { mutationKey: trpc.leaders.elect.mutationKey() },
    select: (mutation) => mutation.state,
  });
  const latest = states.at(-1);
  if (latest === undefined || latest.status === 'idle') return null;
  if (latest.status === 'pending') return { status: 'pending' };
  if (latest.status === 'error') return { status: 'error', message: gatewayError(latest.error).message };
  return { status: 'success', result: latest.data as LeaderElectionResult };
}

/** Whether the user may elect leaders (ALTER on the cluster); undefined while it is read. */
export function useElectPermission() {
  const trpc = useTRPC();
  return useQuery(trpc.leaders.permission.queryOptions({})).data?.allowedActions.elect;
}
