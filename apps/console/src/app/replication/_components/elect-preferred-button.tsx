'use client';

import { Button } from '@weir/ui';
import type { PartitionReplicationRow } from '../../../server/api/schemas/replication';
import { deniedByAcl } from '../../_components/action-gate';
import { useElectPermission, useLeaderElection } from './use-leader-election';

/**
 * A row's "Elect preferred leader": a preferred election of that one partition. Left out when the
 * user's ACLs deny elections (the header's note says why once, rather than a note in every row).
 */
export function ElectPreferredButton({ row }: { row: PartitionReplicationRow }) {
  const permission = useElectPermission();
  const election = useLeaderElection();
  if (deniedByAcl(permission)) return null;
  return (
    <Button
      size="sm"
      disabled={election.isPending}
      aria-label={`Elect the preferred leader of ${row.topic}-${row.partition}`}
      onClick={() =>
        election.mutate({ type: 'preferred', partitions: [{ topic: row.topic, partition: row.partition }] })
      }
    >
      Elect preferred leader
    </Button>
  );
}
