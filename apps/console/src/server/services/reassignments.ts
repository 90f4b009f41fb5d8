import {
  CLUSTER_RESOURCE_NAME,
  type CurrentPlacement,
  drainPlan,
  errorCodeInfo,
  moveProgress,
  type PartitionMove,
  type PartitionMoveResult,
  planMoves,
  reassignmentJson,
} from '@weir/protocol';
import type {
  MoveResults,
  PlannedMoveRow,
  ReassignmentCancelInput,
  ReassignmentExecuteInput,
  ReassignmentList,
  ReassignmentPlan,
  ReassignmentPlanInput,
  RefusedMoveRow,
} from '../api/schemas/reassignments';
import { type AclPolicyView, withAcls } from './permissions/acl-policy';
import { ALLOWED } from './permissions/action-permission';
import { partitionKey, type ReassignmentSources, readLogSizes, readPlacement } from './replica-placement';

/*
 * Partition reassignment for the console (docs/architecture.md §6.6). The planning is the SDK's
 * (planMoves, drainPlan, moveProgress), so the console previews exactly what `weir partition
 * reassign --plan` would; this module only reads what they need from the cluster and shapes the
 * answers. The broker checks every move again when it is submitted.
 */

/** How long the broker may take to store a submission or cancellation (it retries lost races). */
const ALTER_TIMEOUT_MS = 30_000;

/**
 * The moves in progress, each with its leader and ISR from the metadata and, per adding replica,
 * how much of the leader's log it holds (DescribeLogDirs on every broker).
 */
export async function listReassignments(
  sources: ReassignmentSources,
  acl: AclPolicyView | null | undefined,
  now: () => number,
): Promise<ReassignmentList> {
  const moving = await sources.internal.listPartitionReassignments();
  const allowedActions = {
    reassign: withAcls(ALLOWED, acl, [['ALTER', 'CLUSTER', CLUSTER_RESOURCE_NAME]]),
  };
  if (moving.length === 0) {
    return { asOfMs: now(), reassignments: [], unansweredBrokers: [], allowedActions };
  }
  const { brokers, topics } = await readPlacement(sources, [...new Set(moving.map((move) => move.topic))]);
  const { sizeOf, unanswered } = await readLogSizes(sources, brokers, moving);
  const metadata = new Map(
    topics.flatMap((topic) =>
      topic.partitions.map((partition) => [
        partitionKey({ topic: topic.name, partition: partition.partition }),
        partition,
      ]),
    ),
  );
  const reassignments = [...moving]
    .sort((left, right) => compareText(left.topic, right.topic) || left.partition - right.partition)
    .map((move) => {
      const partition = metadata.get(partitionKey(move));
      const leaderId = partition?.leaderId ?? -1;
      const isr = [...(partition?.isrNodes ?? [])];
      const sizeOnBroker = (brokerId: number) => sizeOf(move.topic, move.partition, brokerId);
      return {
        topic: move.topic,
        partition: move.partition,
        replicas: [...move.replicas],
        targetReplicas: move.replicas.filter((id) => !move.removingReplicas.includes(id)),
        addingReplicas: [...move.addingReplicas],
        removingReplicas: [...move.removingReplicas],
        leaderId,
        isr,
        leaderSizeBytes: leaderId < 0 ? null : (sizeOnBroker(leaderId) ?? null),
        progress: moveProgress(move, leaderId, isr, sizeOnBroker),
      };
    });
  return { asOfMs: now(), reassignments, unansweredBrokers: unanswered, allowedActions };
}

/**
 * The preview of named moves, or of draining a broker (drainPlan picks each target, then the
 * targets are planned like named moves). Nothing is changed. Refused rows say why in words; the
 * other moves can still be submitted.
 */
export async function planReassignments(
  sources: ReassignmentSources,
  input: ReassignmentPlanInput,
  now: () => number,
): Promise<ReassignmentPlan> {
  const drainBrokerId = input.drainBrokerId ?? null;
  const names = input.moves === undefined ? undefined : [...new Set(input.moves.map((move) => move.topic))];
  const [{ brokers, topics }, moving] = await Promise.all([
    readPlacement(sources, names),
    sources.internal.listPartitionReassignments(),
  ]);
  const current: CurrentPlacement[] = topics.flatMap((topic) =>
    topic.partitions.map((partition) => ({
      topic: topic.name,
      partition: partition.partition,
      replicas: partition.replicaNodes,
      leader: partition.leaderId,
    })),
  );
  const placement = new Map(current.map((row) => [partitionKey(row), row]));
  const refused: RefusedMoveRow[] = [];
  let wanted: { topic: string; partition: number; replicas: number[] }[];
  if (drainBrokerId === null) wanted = input.moves ?? [];
  else {
    const drain = drainPlan(
      current,
      brokers.map((broker) => ({
        brokerId: broker.nodeId,
        ...(broker.rack === null ? {} : { rack: broker.rack }),
      })),
      drainBrokerId,
    );
    wanted = [];
    for (const row of drain) {
      if ('problem' in row) {
        refused.push({
          topic: row.topic,
          partition: row.partition,
          currentReplicas: [...row.currentReplicas],
          replicas: null,
          problem: row.problem,
        });
      } else wanted.push({ topic: row.topic, partition: row.partition, replicas: row.replicas });
    }
  }
  const { sizeOf, unanswered } = await readLogSizes(
    sources,
    brokers,
    wanted.filter((move) => placement.has(partitionKey(move))),
  );
  const inProgress = new Set(moving.map(partitionKey));
  const planned = planMoves(
    current,
    wanted,
    brokers.map((broker) => broker.nodeId),
    sizeOf,
  );
  const moves: PlannedMoveRow[] = [];
  planned.forEach((row, index) => {
    if ('problem' in row) {
      // planMoves answers one row per move asked, in order, so `index` names the move refused.
      const known = placement.get(partitionKey(row));
      refused.push({
        topic: row.topic,
        partition: row.partition,
        currentReplicas: known === undefined ? null : [...known.replicas],
        replicas: [...(wanted[index]?.replicas ?? [])],
        problem: row.problem,
      });
      return;
    }
    moves.push({
      topic: row.topic,
      partition: row.partition,
      currentReplicas: [...row.currentReplicas],
      replicas: [...row.replicas],
      addingReplicas: [...row.addingReplicas],
      removingReplicas: [...row.removingReplicas],
      bytesToCopy: row.bytesToCopy,
      leaderMoves: row.leaderMoves,
      replacesMoveInProgress: inProgress.has(partitionKey(row)),
    });
  });
  return {
    asOfMs: now(),
    drainBrokerId,
    moves,
    refused,
    totals: {
      // A new order alone (another preferred leader) is a move too: the broker stores it the same way.
      partitionsMoving: moves.filter((move) => move.replicas.join() !== move.currentReplicas.join()).length,
      bytesToCopy: moves.reduce((sum, move) => sum + (move.bytesToCopy ?? 0), 0),
      unknownSizeMoves: moves.filter((move) => move.bytesToCopy === null && move.addingReplicas.length > 0)
        .length,
      leadersMoving: moves.filter((move) => move.leaderMoves).length,
    },
    unansweredBrokers: unanswered,
    kafkaJson: reassignmentJson(moves),
  };
}

/**
 * Sets (or with null lifts) the cluster-wide follower throttle, which applies only to replicas a
 * move is adding (docs/architecture.md §6.6); as the user, so ALTER_CONFIGS on the cluster decides.
 */
async function setReplicationThrottle(
  admin: ReassignmentSources['admin'],
  bytesPerSecond: number | null,
): Promise<void> {
  await admin.incrementalAlterConfigs([
    {
      type: 'broker',
      name: '',
      changes: [
        bytesPerSecond === null
          ? { name: 'follower.replication.throttled.rate', operation: 'delete' }
          : { name: 'follower.replication.throttled.rate', operation: 'set', value: String(bytesPerSecond) },
      ],
    },
  ]);
}

/** Submits the moves (AlterPartitionReassignments); the broker answers each partition. */
export async function executeReassignments(
  sources: ReassignmentSources,
  input: ReassignmentExecuteInput,
  now: () => number,
): Promise<MoveResults> {
  const moves: PartitionMove[] = input.moves.map(({ topic, partition, replicas }) => ({
    topic,
    partition,
    replicas,
  }));
  if (input.throttleBytesPerSecond !== undefined) {
    await setReplicationThrottle(sources.admin, input.throttleBytesPerSecond);
  }
  const results = await sources.internal.alterPartitionReassignments(moves, { timeoutMs: ALTER_TIMEOUT_MS });
  return moveResults(results, now);
}

/**
 * Cancels the named moves, or every move in progress: their replicas go back to the ones before
 * the move, without the adding ones (the broker refuses when no original replica is in sync).
 */
export async function cancelReassignments(
  sources: ReassignmentSources,
  input: ReassignmentCancelInput,
  now: () => number,
): Promise<MoveResults> {
  const partitions =
    input.partitions ??
    (await sources.internal.listPartitionReassignments()).map(({ topic, partition }) => ({
      topic,
      partition,
    }));
  if (partitions.length === 0) return moveResults([], now);
  const results = await sources.internal.alterPartitionReassignments(
    partitions.map(({ topic, partition }) => ({ topic, partition, replicas: null })),
    { timeoutMs: ALTER_TIMEOUT_MS },
  );
  return moveResults(results, now);
}

function moveResults(results: readonly PartitionMoveResult[], now: () => number): MoveResults {
  const rows = results.map((result) => {
    const ok = result.errorCode === 0;
    return {
      topic: result.topic,
      partition: result.partition,
      ok,
      errorCode: result.errorCode,
      error: ok ? null : (errorCodeInfo(result.errorCode)?.name ?? `error ${result.errorCode}`),
      message: ok ? null : (result.errorMessage ?? errorCodeInfo(result.errorCode)?.message ?? null),
    };
  });
  const accepted = rows.filter((row) => row.ok).length;
  return { asOfMs: now(), results: rows, accepted, refused: rows.length - accepted };
}

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
