import type { PartitionAssignment } from '../metadata/metadata-store';

/** The in-sync replicas and eligible leader replicas a change leaves a partition with. */
export interface InSyncSets {
  isr: readonly number[];
  elr: readonly number[];
}

/**
 * The ISR without `removed`, and the eligible leader replicas that follow from it (KIP-966, strict
 * min-ISR; docs/architecture.md §6.5). While the ISR has at least `minInsyncReplicas` members the
 * high watermark moves, so a member that leaves it may lack records acknowledged after it left and
 * is not eligible, and earlier eligible members stop being complete too: the ELR empties. Once the
 * ISR is below the minimum the high watermark stands still, so the members that leave from then
 * on hold every acknowledged record and become eligible.
 */
export function isrWithout(
  assignment: Pick<PartitionAssignment, 'isr' | 'elr'>,
  removed: readonly number[],
  minInsyncReplicas: number,
): InSyncSets {
  const isr = assignment.isr.filter((id) => !removed.includes(id));
  if (isr.length >= minInsyncReplicas) return { isr, elr: [] };
  const leaving = assignment.isr.filter((id) => removed.includes(id));
  const elr = [...(assignment.elr ?? []).filter((id) => !isr.includes(id))];
  for (const id of leaving) if (!elr.includes(id)) elr.push(id);
  return { isr, elr };
}

/** The ISR with `added` (in replica order), which leaves the ELR; a full enough ISR empties it. */
export function isrWith(
  assignment: Pick<PartitionAssignment, 'isr' | 'elr' | 'replicas'>,
  added: number,
  minInsyncReplicas: number,
): InSyncSets {
  const members = new Set([...assignment.isr, added]);
  const isr = [
    ...assignment.replicas.filter((id) => members.has(id)),
    ...[...members].filter((id) => !assignment.replicas.includes(id)),
  ];
  if (isr.length >= minInsyncReplicas) return { isr, elr: [] };
  return { isr, elr: (assignment.elr ?? []).filter((id) => id !== added) };
}

/** Whether two broker id lists hold the same members (order aside). */
export function sameMembers(left: readonly number[], right: readonly number[]): boolean {
  return left.length === right.length && left.every((id) => right.includes(id));
}
