'use client';

import { useQuery } from '@tanstack/react-query';
import { Count, PageHeader, showBidiControls } from '@weir/ui';
import Link from 'next/link';
import { Suspense } from 'react';
import { useTRPC } from '../../../../trpc/react';
import { QueryAsOf } from '../../../_components/query-as-of';
import { QueryState } from '../../../_components/query-state';
import { GroupStateBadge } from '../../_components/group-state-badge';
import { DeleteGroupButton } from './delete-group-button';
import { GroupMembers } from './group-members';
import { GroupPartitionLag } from './group-partition-lag';
import { LagHistoryPanel } from './lag-history-panel';
import { ResetOffsetsPanel } from './reset-offsets-panel';

/** Re-read every few seconds: lag is the number operators watch move. */
const refreshIntervalMs = 5_000;

export function GroupDetail({ groupId }: { groupId: string }) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.groups.get.queryOptions({ groupId }),
    refetchInterval: refreshIntervalMs,
  });
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title={showBidiControls(groupId)}
        eyebrow={
          <Link href="/groups" className="hover:underline">
            Consumer groups
          </Link>
        }
        actions={
          query.data ? (
            <DeleteGroupButton groupId={groupId} permission={query.data.allowedActions.delete} />
          ) : null
        }
      />
      <QueryState query={query} errorTitle={`Could not read group ${groupId}`}>
        {(group) => (
          <>
            <div className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
              <dl className="flex flex-wrap items-center gap-x-6 gap-y-2">
                <div className="flex items-baseline gap-1.5">
                  <dt className="text-zinc-500 dark:text-zinc-400">State</dt>
                  <dd>
                    <GroupStateBadge state={group.state} />
                  </dd>
                </div>
                <div className="flex items-baseline gap-1.5">
                  <dt className="text-zinc-500 dark:text-zinc-400">Members</dt>
                  <dd className="font-medium">
                    <Count value={group.memberCount} />
                  </dd>
                </div>
                <div className="flex items-baseline gap-1.5">
                  <dt className="text-zinc-500 dark:text-zinc-400">Total lag</dt>
                  <dd className="font-medium" data-testid="total-lag">
                    <Count value={group.totalLag} />
                  </dd>
                </div>
                <div className="flex items-baseline gap-1.5">
                  <dt className="text-zinc-500 dark:text-zinc-400">Protocol</dt>
                  <dd className="font-medium">{group.protocol || '—'}</dd>
                </div>
              </dl>
              {/* Only dt/dd groups may sit inside the dl, so the as-of time follows it. */}
              <div className="ml-auto">
                <QueryAsOf query={query} />
              </div>
            </div>
            {/* useQueryStates (nuqs) needs a Suspense boundary above it. */}
            <Suspense fallback={null}>
              <LagHistoryPanel groupId={groupId} />
            </Suspense>
            <GroupPartitionLag partitions={group.partitions} />
            <GroupMembers members={group.members} />
            <ResetOffsetsPanel group={group} />
          </>
        )}
      </QueryState>
    </div>
  );
}
