import { Badge, type BadgeTone } from '@weir/ui';

const stateTones: Record<string, BadgeTone> = {
  Stable: 'success',
  Empty: 'neutral',
  PreparingRebalance: 'warning',
  CompletingRebalance: 'warning',
  Dead: 'danger',
};

/** A group's coordinator state, coloured by how much attention it needs. */
export function GroupStateBadge({ state }: { state: string }) {
  return <Badge tone={stateTones[state] ?? 'neutral'}>{state}</Badge>;
}
