import type { Writable } from 'node:stream';
import { type Admin, drainPlan, type InternalAdmin } from '@weir/protocol';
import { reassignCommand } from './partition-reassign-command';
import { readClusterPlacement } from './reassignment-state';
import type { WaitDeps } from './reassignment-wait';
import { UsageError } from './usage-error';

export interface DrainOptions {
  brokerId: number;
  execute: boolean;
  json: boolean;
  timeoutMs: number;
  throttle?: number | 'none';
  wait?: boolean;
}

/**
 * `weir broker drain <id>`: moves every replica off the broker (the drain plan in the SDK keeps the
 * rack spread and evens the load), shown as a reassignment plan first and submitted with
 * `--execute`. A partition with nowhere to go is named and left where it is.
 */
export async function brokerDrainCommand(
  session: { admin: Admin; internal: InternalAdmin },
  options: DrainOptions,
  deps: { stdout: Writable } & WaitDeps,
): Promise<number | undefined> {
  const state = await readClusterPlacement(session.admin);
  if (!state.brokers.some((broker) => broker.brokerId === options.brokerId)) {
    throw new UsageError(
      `broker ${options.brokerId} is not in the cluster (brokers: ${state.brokers.map((b) => b.brokerId).join(', ')})`,
    );
  }
  const plan = drainPlan(state.placements, state.brokers, options.brokerId);
  const stuck = plan.filter((move) => 'problem' in move);
  for (const move of stuck) deps.stderr.write(`${move.topic}-${move.partition}: ${move.problem}\n`);
  const moves = plan.flatMap((move) =>
    'replicas' in move ? [{ topic: move.topic, partition: move.partition, replicas: move.replicas }] : [],
  );
  if (moves.length === 0 && stuck.length === 0) {
    deps.stderr.write(`Broker ${options.brokerId} holds no replica.\n`);
    return undefined;
  }
  const exit = await reassignCommand(session, { ...options, moves }, deps, state);
  return stuck.length > 0 ? 1 : exit;
}
