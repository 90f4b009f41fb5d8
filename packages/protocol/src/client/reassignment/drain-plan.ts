/** A partition and where its replicas are, the first the preferred leader. */
export interface PlacedPartition {
  topic: string;
  partition: number;
  replicas: readonly number[];
}

/** A broker a drain may move replicas to. */
export interface DrainCandidate {
  brokerId: number;
  rack?: string;
}

/** One partition's move in a drain: its target replicas, or why it cannot move. */
export type DrainMove =
  | { topic: string; partition: number; currentReplicas: readonly number[]; replicas: number[] }
  | { topic: string; partition: number; currentReplicas: readonly number[]; problem: string };

/**
 * The moves that take every replica off `drainedId` (`weir broker drain`). Each replacement is a
 * broker not yet a replica, on the drained broker's rack when one is free (so the rack spread
 * stays), else on any rack, and the one holding the fewest replicas so far (counting the moves
 * already planned), so the load spreads evenly. The replacement goes last: the first remaining
 * replica becomes the preferred leader, so leadership moves to a broker that is already in sync.
 */
export function drainPlan(
  assignments: Iterable<PlacedPartition>,
  candidates: readonly DrainCandidate[],
  drainedId: number,
): DrainMove[] {
  const all = [...assignments];
  const rackOf = new Map(candidates.map((candidate) => [candidate.brokerId, candidate.rack]));
  const drainedRack = rackOf.get(drainedId);
  const load = new Map<number, number>();
  for (const candidate of candidates) load.set(candidate.brokerId, 0);
  for (const assignment of all) {
    for (const id of assignment.replicas) if (load.has(id)) load.set(id, load.get(id)! + 1);
  }
  const moves: DrainMove[] = [];
  for (const assignment of all) {
    if (!assignment.replicas.includes(drainedId)) continue;
    const { topic, partition, replicas: currentReplicas } = assignment;
    const free = candidates
      .map((candidate) => candidate.brokerId)
      .filter((id) => id !== drainedId && !currentReplicas.includes(id));
    if (free.length === 0) {
      moves.push({
        topic,
        partition,
        currentReplicas,
        problem: `no broker outside replicas ${currentReplicas.join(',')} can take broker ${drainedId}'s replica`,
      });
      continue;
    }
    const sameRack = free.filter((id) => drainedRack !== undefined && rackOf.get(id) === drainedRack);
    const pool = sameRack.length > 0 ? sameRack : free;
    const chosen = pool.reduce((best, id) => (load.get(id)! < load.get(best)! ? id : best));
    load.set(chosen, load.get(chosen)! + 1);
    moves.push({
      topic,
      partition,
      currentReplicas,
      replicas: [...currentReplicas.filter((id) => id !== drainedId), chosen],
    });
  }
  return moves;
}
