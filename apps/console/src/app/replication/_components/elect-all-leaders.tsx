'use client';

import { useQuery } from '@tanstack/react-query';
import { ActionButton, Button, Dialog, formatCount } from '@weir/ui';
import { useState } from 'react';
import { useTRPC } from '../../../trpc/react';
import { ActionGate } from '../../_components/action-gate';
import { useElectPermission, useLeaderElection } from './use-leader-election';

/**
 * The header's "Elect preferred leaders": a preferred election of every partition (Kafka's null),
 * after a confirmation that says how many partitions are led by a non-preferred replica, counted
 * over the whole cluster whatever the page's filters. Leadership moves, so clients of those
 * partitions see a retriable NOT_LEADER_OR_FOLLOWER once.
 */
export function ElectAllLeaders() {
  const trpc = useTRPC();
  const permission = useElectPermission();
  const election = useLeaderElection();
  const [open, setOpen] = useState(false);
  // Read only while the confirmation is open, so the count is the cluster's as of then.
  const whole = useQuery({ ...trpc.replication.health.queryOptions({}), enabled: open });
  const count = whole.data?.counts.nonPreferredLeader;
  return (
    <ActionGate permission={permission}>
      <ActionButton size="sm" onClick={() => setOpen(true)} disabled={election.isPending}>
        Elect preferred leaders
      </ActionButton>
      <Dialog
        open={open}
        title="Elect preferred leaders"
        onClose={() => setOpen(false)}
        footer={
          <>
            <Button onClick={() => setOpen(false)}>Keep the leaders</Button>
            <Button
              variant="primary"
              disabled={election.isPending}
              onClick={() => {
                setOpen(false);
                election.mutate({ type: 'preferred' });
              }}
            >
              Elect
            </Button>
          </>
        }
      >
        <p>
          {count === undefined
            ? 'Counting the partitions led by a non-preferred replica…'
            : count === 0
              ? 'No partition is led by a non-preferred replica now; the election will find nothing to do.'
              : `${formatCount(count)} ${count === 1 ? 'partition is' : 'partitions are'} led by a non-preferred replica.`}{' '}
          Every partition whose preferred (first) replica is live and in sync gets it back as leader; its
          clients are told once to find the new leader.
        </p>
      </Dialog>
    </ActionGate>
  );
}
