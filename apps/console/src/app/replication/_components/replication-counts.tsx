'use client';

import { useQuery } from '@tanstack/react-query';
import { formatCount } from '@weir/ui';
import Link from 'next/link';
import type { ReplicationHealth } from '../../../server/api/schemas/replication';
import { useTRPC } from '../../../trpc/react';
import { replicationHref } from './replication-params';

const COUNTED: readonly { key: keyof ReplicationHealth['counts']; state: string; label: string }[] = [
  { key: 'offline', state: 'offline', label: 'offline' },
  { key: 'underMinIsr', state: 'under-min-isr', label: 'under min ISR' },
  { key: 'underReplicated', state: 'under-replicated', label: 'under-replicated' },
  { key: 'nonPreferredLeader', state: 'non-preferred-leader', label: 'non-preferred leader' },
];

/**
 * The replication counts of the cluster (or one topic), each linking to the ISR health page with
 * that state (and topic) filtered, for the Overview and the topic page.
 */
export function ReplicationCounts({ topic }: { topic?: string }) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.replication.health.queryOptions(topic === undefined ? {} : { topic }),
    refetchInterval: 5_000,
  });
  if (query.data === undefined) return null;
  const { counts } = query.data;
  return (
    <nav aria-label="Replication counts" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
      {COUNTED.map((entry) => (
        <Link
          key={entry.key}
          href={replicationHref({ state: entry.state, ...(topic === undefined ? {} : { topic }) })}
          className={`underline-offset-2 hover:underline ${counts[entry.key] > 0 ? 'font-medium text-amber-700 dark:text-amber-400' : 'text-zinc-600 dark:text-zinc-400'}`}
        >
          {formatCount(counts[entry.key])} {entry.label}
        </Link>
      ))}
    </nav>
  );
}
