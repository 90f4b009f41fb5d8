'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../../trpc/react';

/**
 * Why the user may not execute moves (their ACLs lack ALTER on the cluster), or null: read from
 * the moves-in-progress list, which the page reads anyway. The broker refuses regardless.
 */
export function useReassignDeniedReason(): string | null {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.reassignments.list.queryOptions({}));
  const permission = data?.allowedActions.reassign;
  return permission === undefined || permission.allowed ? null : (permission.reason ?? 'Not allowed.');
}
