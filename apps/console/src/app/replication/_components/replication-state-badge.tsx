import { Badge, type BadgeTone } from '@weir/ui';
import type { PartitionReplicationState } from '../../../server/api/schemas/replication';

export const STATE_LABELS: Record<PartitionReplicationState, string> = {
  offline: 'offline',
  'under-min-isr': 'under min ISR',
  'at-min-isr': 'at min ISR',
  'under-replicated': 'under-replicated',
  'non-preferred-leader': 'non-preferred leader',
};

const STATE_TONES: Record<PartitionReplicationState, BadgeTone> = {
  offline: 'danger',
  'under-min-isr': 'danger',
  'at-min-isr': 'warning',
  'under-replicated': 'warning',
  'non-preferred-leader': 'neutral',
};

export function ReplicationStateBadge({ state }: { state: PartitionReplicationState }) {
  return <Badge tone={STATE_TONES[state]}>{STATE_LABELS[state]}</Badge>;
}
