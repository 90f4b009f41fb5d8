import type { PartitionReassignment } from '../internal/reassignment-types';
import type { PlacedPartition } from './drain-plan';

/** A partition's replicas now, with its leader, as a plan reads them from the metadata. */
export interface CurrentPlacement extends PlacedPartition {
  /** -1 while the partition has no leader. */
  leader: number;
}

/** One move as it would run: which replicas are added and removed, and how much data is copied. */
export interface PlannedMove {
  topic: string;
  partition: number;
  currentReplicas: readonly number[];
  /** The target, the first the preferred leader. */
  replicas: readonly number[];
  addingReplicas: readonly number[];
  removingReplicas: readonly number[];
  /**
   * The bytes the new replicas copy from the leader (its log's size times the adding replicas);
   * null when the leader's size is not known.
   */
  bytesToCopy: number | null;
  /** Whether the current leader is removed, so leadership moves when the move completes. */
  leaderMoves: boolean;
}

/** A move the plan cannot make, with the reason in words. */
export interface RefusedMove {
  topic: string;
  partition: number;
  problem: string;
}

/**
 * The preview of a set of moves (`weir partition reassign --plan`, the console's move form): each
 * move checked against the current placement and the known brokers, with what it adds, removes and
 * copies. The broker checks again when the moves are submitted; this only shows the plan first.
 */
export function planMoves(
  current: readonly CurrentPlacement[],
  moves: readonly { topic: string; partition: number; replicas: readonly number[] }[],
  brokerIds: readonly number[],
  sizeBytesOf: (topic: string, partition: number, brokerId: number) => number | undefined,
): (PlannedMove | RefusedMove)[] {
  const byPartition = new Map(current.map((placement) => [key(placement), placement]));
  const named = new Map<string, number>();
  for (const move of moves) named.set(key(move), (named.get(key(move)) ?? 0) + 1);
  return moves.map((move) => {
    const { topic, partition, replicas } = move;
    const placement = byPartition.get(key(move));
    if (placement === undefined) return { topic, partition, problem: `${topic}-${partition} does not exist` };
    if ((named.get(key(move)) ?? 0) > 1) {
      return { topic, partition, problem: `${topic}-${partition} is named more than once` };
    }
    if (replicas.length === 0) return { topic, partition, problem: 'the target replica list is empty' };
    const twice = replicas.filter((id, index) => replicas.indexOf(id) !== index);
    if (twice.length > 0) return { topic, partition, problem: `broker ${twice[0]} is named twice` };
    const unknown = replicas.filter((id) => !brokerIds.includes(id));
    if (unknown.length > 0) {
      return { topic, partition, problem: `broker ${unknown.join(', ')} is not in the cluster` };
    }
    const addingReplicas = replicas.filter((id) => !placement.replicas.includes(id));
    const removingReplicas = placement.replicas.filter((id) => !replicas.includes(id));
    const leaderSize = placement.leader < 0 ? undefined : sizeBytesOf(topic, partition, placement.leader);
    return {
      topic,
      partition,
      currentReplicas: placement.replicas,
      replicas,
      addingReplicas,
      removingReplicas,
      bytesToCopy: leaderSize === undefined ? null : leaderSize * addingReplicas.length,
      leaderMoves: placement.leader >= 0 && !replicas.includes(placement.leader),
    };
  });
}

/** How far one adding replica of a move in progress has copied the leader's log. */
export interface AddingReplicaProgress {
  brokerId: number;
  copiedBytes: number | null;
  /** copiedBytes over the leader's size, 0..1; null when either is unknown. */
  fraction: number | null;
  inSync: boolean;
}

/**
 * The progress of a move in progress, from the log sizes each broker reports (DescribeLogDirs):
 * each adding replica's size against the leader's, and whether it joined the ISR (which is what
 * completes the move).
 */
export function moveProgress(
  move: PartitionReassignment,
  leader: number,
  isr: readonly number[],
  sizeBytesOf: (brokerId: number) => number | undefined,
): AddingReplicaProgress[] {
  const leaderSize = leader < 0 ? undefined : sizeBytesOf(leader);
  return move.addingReplicas.map((brokerId) => {
    const copied = sizeBytesOf(brokerId);
    const inSync = isr.includes(brokerId);
    const fraction = inSync
      ? 1
      : copied === undefined || leaderSize === undefined
        ? null
        : leaderSize === 0
          ? 1
          : Math.min(1, copied / leaderSize);
    return { brokerId, copiedBytes: copied ?? null, fraction, inSync };
  });
}

/**
 * Reads a reassignment plan in Kafka's JSON format (what `kafka-reassign-partitions.sh` takes):
 * `{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1,2,3]}]}`; the error names the
 * field that is wrong.
 */
export function parseReassignmentJson(
  text: string,
): { topic: string; partition: number; replicas: number[] }[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`the plan is not JSON: ${(error as Error).message}`);
  }
  const partitions = (parsed as { partitions?: unknown } | null)?.partitions;
  if (!Array.isArray(partitions)) throw new Error('the plan needs a "partitions" array');
  return partitions.map((entry, index) => {
    const where = `partitions[${index}]`;
    const { topic, partition, replicas } = (entry ?? {}) as Record<string, unknown>;
    if (typeof topic !== 'string' || topic === '') throw new Error(`${where}.topic must be a topic name`);
    if (!Number.isInteger(partition) || (partition as number) < 0) {
      throw new Error(`${where}.partition must be a partition number`);
    }
    if (!Array.isArray(replicas) || !replicas.every((id) => Number.isInteger(id) && id >= 0)) {
      throw new Error(`${where}.replicas must be a list of broker ids`);
    }
    return { topic, partition: partition as number, replicas: replicas as number[] };
  });
}

/** Moves in Kafka's reassignment JSON, so a plan can be saved, edited and submitted later. */
export function reassignmentJson(
  moves: readonly { topic: string; partition: number; replicas: readonly number[] }[],
): string {
  return JSON.stringify({
    version: 1,
    partitions: moves.map(({ topic, partition, replicas }) => ({ topic, partition, replicas })),
  });
}

function key(partition: { topic: string; partition: number }): string {
  return `${partition.topic}\u0000${partition.partition}`;
}
