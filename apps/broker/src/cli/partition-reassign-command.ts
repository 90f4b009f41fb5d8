import type { Writable } from 'node:stream';
import {
  type Admin,
  errorCodeInfo,
  type InternalAdmin,
  moveProgress,
  type PartitionMove,
  type PlannedMove,
  planMoves,
  type RefusedMove,
  reassignmentJson,
} from '@weir/protocol';
import { formatBytes } from './byte-size';
import { type ClusterPlacement, readClusterPlacement } from './reassignment-state';
import { type WaitDeps, waitForMoves } from './reassignment-wait';
import { formatTable } from './table';

interface Output extends WaitDeps {
  stdout: Writable;
}

/** Exit code when the broker or the plan refused some partition. */
const EXIT_REFUSED = 1;

export interface ReassignOptions {
  moves: readonly { topic: string; partition: number; replicas: readonly number[] }[];
  execute: boolean;
  json: boolean;
  timeoutMs: number;
  /** With `execute`: the follower throttle (bytes/s) to set first, or 'none' to lift it. */
  throttle?: number | 'none';
  /** With `execute`: follow the moves until they complete. */
  wait?: boolean;
}

/** The dynamic broker config the throttle sets (docs/architecture.md §6.6). */
const THROTTLE_CONFIG = 'follower.replication.throttled.rate';

/**
 * Sets (or with 'none' lifts) the cluster-wide follower throttle: every broker then fetches the
 * replicas a move is adding at no more than this many bytes per second; replicas in sync are never
 * throttled.
 */
export async function setReplicationThrottle(
  admin: Admin,
  throttle: number | 'none',
  deps: Output,
): Promise<void> {
  await admin.incrementalAlterConfigs([
    {
      type: 'broker',
      name: '',
      changes: [
        throttle === 'none'
          ? { name: THROTTLE_CONFIG, operation: 'delete' }
          : { name: THROTTLE_CONFIG, operation: 'set', value: String(throttle) },
      ],
    },
  ]);
  deps.stderr.write(
    throttle === 'none'
      ? 'Replication throttle lifted.\n'
      : `Replicas being added fetch at most ${formatBytes(throttle)}/s on each broker.\n`,
  );
}

/**
 * `weir partition reassign` (and `weir broker drain`, which computes its moves first): the plan
 * first, always — which replicas are added and removed, how much data is copied, whether the leader
 * moves — then, with `--execute`, the moves submitted and each partition's answer. `--json` prints
 * the plan in Kafka's reassignment format, to save, edit and submit later.
 */
export async function reassignCommand(
  session: { admin: Admin; internal: InternalAdmin },
  options: ReassignOptions,
  deps: Output,
  placement?: ClusterPlacement,
): Promise<number | undefined> {
  const state = placement ?? (await readClusterPlacement(session.admin));
  const plan = planMoves(
    state.placements,
    options.moves,
    state.brokers.map((broker) => broker.brokerId),
    state.sizeBytesOf,
  );
  const planned = plan.filter((row): row is PlannedMove => !('problem' in row));
  const refused = plan.filter((row): row is RefusedMove => 'problem' in row);
  if (options.json && !options.execute) {
    deps.stdout.write(`${reassignmentJson(planned)}\n`);
  } else {
    writePlan(planned, refused, deps);
  }
  if (!options.execute) return refused.length > 0 ? EXIT_REFUSED : undefined;
  const toMove = planned.filter((move) => !sameReplicas(move.currentReplicas, move.replicas));
  if (toMove.length === 0) {
    deps.stderr.write('Nothing to move.\n');
    return refused.length > 0 ? EXIT_REFUSED : undefined;
  }
  if (options.throttle !== undefined) await setReplicationThrottle(session.admin, options.throttle, deps);
  const results = await session.internal.alterPartitionReassignments(
    toMove.map(({ topic, partition, replicas }) => ({ topic, partition, replicas })),
    { timeoutMs: options.timeoutMs },
  );
  const failed = writeResults(results, 'started', deps);
  if (options.wait) {
    const started = results.filter((result) => result.errorCode === 0);
    await waitForMoves(session, started, deps);
  }
  return failed || refused.length > 0 ? EXIT_REFUSED : undefined;
}

/** `weir partition reassign --cancel`: the named moves, or every move in progress. */
export async function cancelCommand(
  internal: InternalAdmin,
  partitions: readonly { topic: string; partition: number }[] | 'all',
  deps: Output,
): Promise<number | undefined> {
  const targets =
    partitions === 'all'
      ? (await internal.listPartitionReassignments()).map(({ topic, partition }) => ({ topic, partition }))
      : partitions;
  if (targets.length === 0) {
    deps.stderr.write('No partition is being moved.\n');
    return undefined;
  }
  const moves: PartitionMove[] = targets.map(({ topic, partition }) => ({
    topic,
    partition,
    replicas: null,
  }));
  const results = await internal.alterPartitionReassignments(moves);
  return writeResults(results, 'cancelled', deps) ? EXIT_REFUSED : undefined;
}

/** `weir partition reassign --status`: each move in progress with its new replicas' progress. */
export async function statusCommand(
  session: { admin: Admin; internal: InternalAdmin },
  json: boolean,
  deps: Output,
): Promise<undefined> {
  const [moves, state] = await Promise.all([
    session.internal.listPartitionReassignments(),
    readClusterPlacement(session.admin),
  ]);
  const leaders = new Map(state.placements.map((p) => [`${p.topic}-${p.partition}`, p.leader]));
  const rows = moves.map((move) => {
    const name = `${move.topic}-${move.partition}`;
    const progress = moveProgress(move, leaders.get(name) ?? -1, state.isrOf.get(name) ?? [], (id) =>
      state.sizeBytesOf(move.topic, move.partition, id),
    );
    return { move, progress };
  });
  if (json) {
    for (const { move, progress } of rows) deps.stdout.write(`${JSON.stringify({ ...move, progress })}\n`);
    return undefined;
  }
  if (rows.length === 0) {
    deps.stderr.write('No partition is being moved.\n');
    return undefined;
  }
  deps.stdout.write(
    formatTable(
      ['PARTITION', 'REPLICAS', 'ADDING', 'REMOVING', 'PROGRESS'],
      rows.map(({ move, progress }) => [
        `${move.topic}-${move.partition}`,
        move.replicas.join(','),
        move.addingReplicas.join(','),
        move.removingReplicas.join(','),
        progress
          .map((p) =>
            p.inSync
              ? `${p.brokerId}: in sync`
              : `${p.brokerId}: ${p.fraction === null ? '?' : `${Math.floor(p.fraction * 100)}%`}${
                  p.copiedBytes === null ? '' : ` (${formatBytes(p.copiedBytes)})`
                }`,
          )
          .join('; '),
      ]),
    ),
  );
  return undefined;
}

function writePlan(planned: readonly PlannedMove[], refused: readonly RefusedMove[], deps: Output): void {
  if (planned.length > 0) {
    deps.stdout.write(
      formatTable(
        ['PARTITION', 'REPLICAS', 'TARGET', 'ADDING', 'REMOVING', 'COPY', 'LEADER'],
        planned.map((move) => [
          `${move.topic}-${move.partition}`,
          move.currentReplicas.join(','),
          move.replicas.join(','),
          move.addingReplicas.join(',') || '-',
          move.removingReplicas.join(',') || '-',
          move.bytesToCopy === null ? '?' : formatBytes(move.bytesToCopy),
          move.leaderMoves ? 'moves' : 'stays',
        ]),
      ),
    );
    const bytes = planned.reduce((sum, move) => sum + (move.bytesToCopy ?? 0), 0);
    const leaders = planned.filter((move) => move.leaderMoves).length;
    deps.stderr.write(
      `${planned.length} partition(s), ${formatBytes(bytes)} to copy, ${leaders} leader(s) moving.\n`,
    );
  }
  for (const row of refused) deps.stderr.write(`${row.topic}-${row.partition}: ${row.problem}\n`);
}

/** Prints each partition's answer; true when any was refused. */
function writeResults(
  results: readonly { topic: string; partition: number; errorCode: number; errorMessage: string | null }[],
  done: string,
  deps: Output,
): boolean {
  let failed = false;
  for (const result of results) {
    const name = `${result.topic}-${result.partition}`;
    if (result.errorCode === 0) {
      deps.stdout.write(`${name}: ${done}\n`);
      continue;
    }
    failed = true;
    const code = errorCodeInfo(result.errorCode)?.name ?? String(result.errorCode);
    deps.stderr.write(`${name}: ${code}${result.errorMessage === null ? '' : `: ${result.errorMessage}`}\n`);
  }
  return failed;
}

function sameReplicas(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, index) => b[index] === id);
}
