'use client';

import { useQuery } from '@tanstack/react-query';
import { StatusBadge, type StatusTone } from '@weir/ui';
import Link from 'next/link';
import { useTRPC } from '../../trpc/react';

const statusText: Record<string, { tone: StatusTone; label: string }> = {
  healthy: { tone: 'ok', label: 'Broker healthy' },
  degraded: { tone: 'warning', label: 'Broker degraded' },
  unreachable: { tone: 'error', label: 'Broker unreachable' },
  restricted: { tone: 'neutral', label: 'Broker health hidden' },
};

/** The broker's health in one badge; the overview lists the reasons behind it. */
export function BrokerStatus() {
  const trpc = useTRPC();
  const overview = useQuery({ ...trpc.cluster.overview.queryOptions({}), refetchInterval: 15_000 });
  const status = overview.data ? statusText[overview.data.health.status] : undefined;
  return (
    <Link href="/" className="rounded-full focus-visible:outline-2 focus-visible:outline-teal-600">
      <StatusBadge tone={status?.tone ?? 'neutral'}>{status?.label ?? 'Checking broker…'}</StatusBadge>
    </Link>
  );
}
