import { Badge, type BadgeTone } from '@weir/ui';

const stateTones: Record<string, BadgeTone> = {
  Ongoing: 'accent',
  PrepareCommit: 'warning',
  PrepareAbort: 'warning',
  PrepareEpochFence: 'warning',
  CompleteCommit: 'success',
  CompleteAbort: 'neutral',
  Empty: 'neutral',
  Dead: 'danger',
};

/** A transactional id's coordinator state, coloured by how much attention it needs. */
export function TransactionStateBadge({ state }: { state: string }) {
  return <Badge tone={stateTones[state] ?? 'neutral'}>{state}</Badge>;
}
