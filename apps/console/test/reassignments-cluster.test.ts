import type { PartitionMetadata } from '@weir/protocol';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { BrokerCluster } from '../../broker/test/cluster/broker-cluster';
import { pollUntil } from '../../broker/test/group-fixtures';
import type {
  MoveResults,
  ReassignmentList,
  ReassignmentPlan,
} from '../src/server/api/schemas/reassignments';
import { CLUSTER_TIMEOUT_MS, type ClusterGateway, startClusterGateway } from './cluster-gateway-fixture';

/*
 * Partition reassignment through the console (GET /reassignments, POST /reassignments/plan,
 * POST /reassignments, POST /reassignments/cancel) against a real four-broker cluster: etcd and
 * four child brokers. Sessions are long (60 s), so a broker paused with SIGSTOP stays registered
 * and a move to it waits until it is cancelled, as in the broker's own reassignment test.
 */

const BROKERS = [1, 2, 3, 4];

let fixture: ClusterGateway;
let cluster: BrokerCluster;

beforeAll(async () => {
  fixture = await startClusterGateway({
    brokers: BROKERS.length,
    config: { cluster: { sessionTtlSeconds: 60, controllerTtlSeconds: 3 } },
  });
  ({ cluster } = fixture);
}, CLUSTER_TIMEOUT_MS);

afterAll(() => fixture?.stop(), CLUSTER_TIMEOUT_MS);

function json<T>(method: string, path: string, body?: unknown): Promise<T> {
  return fixture.json<T>(method, path, body);
}

/** A partition as the metadata describes it now. */
async function placement(topic: string, partition: number): Promise<PartitionMetadata> {
  const [described] = await fixture.clients.admin().describeTopics([topic]);
  const found = described?.partitions.find((row) => row.partition === partition);
  if (found === undefined) throw new Error(`${topic}-${partition} is not in the metadata`);
  return found;
}

/** Creates a replication-factor-3 topic and waits until every partition has a leader and a full ISR. */
async function createTopic(name: string, partitions: number): Promise<void> {
  await json('POST', '/topics', { name, partitions, replicationFactor: 3 });
  await pollUntil(
    async () => {
      const [described] = await fixture.clients.admin().describeTopics([name]);
      return (
        described?.partitions.length === partitions &&
        described.partitions.every((row) => row.leaderId >= 0 && row.isrNodes.length === 3)
      );
    },
    `${name} to have leaders and full ISRs`,
    { timeoutMs: 30_000, intervalMs: 250 },
  );
}

/** The one broker of four that holds no replica of the partition. */
function outsider(replicas: readonly number[]): number {
  const free = BROKERS.filter((id) => !replicas.includes(id));
  expect(free).toHaveLength(1);
  return free[0]!;
}

describe('partition reassignment in the console on a four-broker cluster', {
  timeout: CLUSTER_TIMEOUT_MS,
}, () => {
  /** The follower throttle a broker reports, with where its value comes from. */
  async function throttleOfBroker(brokerId: number) {
    const [described] = await fixture.clients
      .admin()
      .describeConfigs([{ type: 'broker', name: String(brokerId) }]);
    const entry = described?.configs.find((e) => e.name === 'follower.replication.throttled.rate');
    return { value: entry?.value, source: entry?.source };
  }

  it('previews a move with the bytes it copies, executes it and sees it finish on the target replicas', async () => {
    await createTopic('moves', 2);
    for (let index = 0; index < 40; index += 1) {
      await json('POST', '/topics/moves/messages', {
        topic: 'moves',
        partition: 0,
        value: { data: `record-${index}-${'x'.repeat(200)}` },
      });
    }
    const before = await placement('moves', 0);
    const added = outsider(before.replicaNodes);
    const removed = before.replicaNodes[0]!;
    const target = [...before.replicaNodes.slice(1), added];

    // The leader's log size comes from DescribeLogDirs, which may trail the produce by a moment.
    const plan = await pollUntil(
      async () => {
        const answer = await json<ReassignmentPlan>('POST', '/reassignments/plan', {
          moves: [
            { topic: 'moves', partition: 0, replicas: target },
            { topic: 'moves', partition: 9, replicas: [1, 2, 3] },
          ],
        });
        return (answer.moves[0]?.bytesToCopy ?? 0) > 0 ? answer : undefined;
      },
      'the plan to know the leader’s log size',
      { timeoutMs: 20_000, intervalMs: 250 },
    );
    expect(plan.drainBrokerId).toBeNull();
    expect(plan.moves).toHaveLength(1);
    expect(plan.moves[0]).toMatchObject({
      topic: 'moves',
      partition: 0,
      currentReplicas: [...before.replicaNodes],
      replicas: target,
      addingReplicas: [added],
      removingReplicas: [removed],
      leaderMoves: before.leaderId === removed,
      replacesMoveInProgress: false,
    });
    expect(plan.totals).toMatchObject({ partitionsMoving: 1, unknownSizeMoves: 0 });
    expect(plan.totals.bytesToCopy).toBe(plan.moves[0]!.bytesToCopy);
    expect(plan.refused).toEqual([
      {
        topic: 'moves',
        partition: 9,
        currentReplicas: null,
        replicas: [1, 2, 3],
        problem: 'moves-9 does not exist',
      },
    ]);
    expect(JSON.parse(plan.kafkaJson)).toEqual({
      version: 1,
      partitions: [{ topic: 'moves', partition: 0, replicas: target }],
    });
    // Previewing changed nothing.
    expect((await placement('moves', 0)).replicaNodes).toEqual(before.replicaNodes);

    // With a throttle: the cluster default is set before the move (high enough not to slow it here).
    const throttle = 256 * 1024 * 1024;
    const executed = await json<MoveResults>('POST', '/reassignments', {
      moves: [{ topic: 'moves', partition: 0, replicas: target }],
      throttleBytesPerSecond: throttle,
    });
    expect(executed).toMatchObject({
      accepted: 1,
      refused: 0,
      results: [{ topic: 'moves', partition: 0, ok: true, errorCode: 0, error: null, message: null }],
    });
    await pollUntil(
      async () => {
        const list = await json<ReassignmentList>('GET', '/reassignments');
        const now = await placement('moves', 0);
        return list.reassignments.length === 0 && now.replicaNodes.join() === target.join();
      },
      'the move to complete on the target replicas',
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    const after = await placement('moves', 0);
    expect(after.isrNodes).toContain(added);
    expect(after.isrNodes).not.toContain(removed);
    expect(target).toContain(after.leaderId);
    expect(await throttleOfBroker(1)).toEqual({ value: String(throttle), source: 'dynamic-default-broker' });
  });

  it('answers a move the broker refuses with its error name and message, beside the ones it starts', async () => {
    // Null lifts the throttle, even when the broker then refuses the move.
    const executed = await json<MoveResults>('POST', '/reassignments', {
      moves: [{ topic: 'moves', partition: 1, replicas: [1, 9] }],
      throttleBytesPerSecond: null,
    });
    expect((await throttleOfBroker(1)).source).toBe('default');
    expect(executed.accepted).toBe(0);
    expect(executed.refused).toBe(1);
    expect(executed.results[0]).toMatchObject({ ok: false, error: 'INVALID_REPLICA_ASSIGNMENT' });
    expect(executed.results[0]!.message).toContain('broker 9');
  });

  it('plans a drain that moves every partition the broker holds and targets none to it', async () => {
    const drained = 2;
    const admin = fixture.clients.admin();
    const topics = await admin.describeTopics(await admin.listTopics({ includeInternal: true }));
    const held = topics
      .flatMap((topic) =>
        topic.partitions
          .filter((partition) => partition.replicaNodes.includes(drained))
          .map((partition) => `${topic.name}-${partition.partition}`),
      )
      .sort();
    expect(held.length).toBeGreaterThan(0);

    const plan = await json<ReassignmentPlan>('POST', '/reassignments/plan', { drainBrokerId: drained });
    expect(plan.drainBrokerId).toBe(drained);
    // Four brokers, three replicas: one broker is always free to take the drained one's place.
    expect(plan.refused).toEqual([]);
    expect(plan.moves.map((move) => `${move.topic}-${move.partition}`).sort()).toEqual(held);
    for (const move of plan.moves) {
      expect(move.replicas).not.toContain(drained);
      expect(move.removingReplicas).toEqual([drained]);
      expect(move.addingReplicas).toHaveLength(1);
    }
    expect(plan.totals.partitionsMoving).toBe(held.length);
    expect(plan.totals.leadersMoving).toBe(plan.moves.filter((move) => move.leaderMoves).length);
  });

  it('cancels a move to a paused broker, putting the replicas back', async () => {
    await createTopic('cancelled', 1);
    const before = await placement('cancelled', 0);
    const pausedId = outsider(before.replicaNodes);
    const target = [...before.replicaNodes.slice(0, 2), pausedId];
    const paused = cluster.broker(pausedId);
    paused.pause();
    let resumed = false;
    onTestFinished(() => {
      if (!resumed) paused.resume();
    });

    const executed = await json<MoveResults>('POST', '/reassignments', {
      moves: [{ topic: 'cancelled', partition: 0, replicas: target }],
    });
    expect(executed.accepted).toBe(1);
    const moving = await json<ReassignmentList>('GET', '/reassignments');
    const row = moving.reassignments.find((candidate) => candidate.topic === 'cancelled');
    expect(row).toMatchObject({
      partition: 0,
      targetReplicas: target,
      addingReplicas: [pausedId],
      removingReplicas: [before.replicaNodes[2]],
    });
    // The paused broker cannot report its log, and its replica is not in sync.
    expect(row!.progress).toEqual([expect.objectContaining({ brokerId: pausedId, inSync: false })]);
    expect(moving.unansweredBrokers.map((broker) => broker.brokerId)).toContain(pausedId);
    expect(moving.allowedActions.reassign.allowed).toBe(true);

    // Planning the same partition again says a move of it already runs.
    const replan = await json<ReassignmentPlan>('POST', '/reassignments/plan', {
      moves: [{ topic: 'cancelled', partition: 0, replicas: [...before.replicaNodes] }],
    });
    expect(replan.moves[0]?.replacesMoveInProgress).toBe(true);

    const cancelled = await json<MoveResults>('POST', '/reassignments/cancel', {
      partitions: [{ topic: 'cancelled', partition: 0 }],
    });
    expect(cancelled).toMatchObject({ accepted: 1, refused: 0 });
    await pollUntil(
      async () => {
        const list = await json<ReassignmentList>('GET', '/reassignments');
        const now = await placement('cancelled', 0);
        return (
          list.reassignments.length === 0 &&
          [...now.replicaNodes].sort().join() === [...before.replicaNodes].sort().join()
        );
      },
      'the cancelled move to put the replicas back',
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    paused.resume();
    resumed = true;

    // Nothing in progress: cancelling every move answers no rows.
    expect(await json<MoveResults>('POST', '/reassignments/cancel', {})).toMatchObject({
      results: [],
      accepted: 0,
      refused: 0,
    });
  });

  it('refuses bad input with 400, naming the field', async () => {
    const cases: [string, unknown, string][] = [
      ['/reassignments/plan', {}, 'moves'],
      [
        '/reassignments/plan',
        { moves: [{ topic: 'moves', partition: 0, replicas: [1] }], drainBrokerId: 1 },
        'drainBrokerId',
      ],
      ['/reassignments/plan', { drainBrokerId: -1 }, 'drainBrokerId'],
      ['/reassignments', { moves: [{ topic: 'moves', partition: -1, replicas: [1] }] }, 'partition'],
      ['/reassignments', { moves: [{ topic: 'moves', partition: 0, replicas: [] }] }, 'replicas'],
      ['/reassignments', { moves: [] }, 'moves'],
      [
        '/reassignments',
        { moves: [{ topic: 'moves', partition: 0, replicas: [1] }], throttleBytesPerSecond: 0 },
        'throttleBytesPerSecond',
      ],
      ['/reassignments/cancel', { partitions: [{ topic: 'bad name!', partition: 0 }] }, 'topic'],
    ];
    for (const [path, body, field] of cases) {
      const response = await fixture.gateway.rest('POST', path, body);
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(JSON.stringify(await response.json())).toContain(field);
    }
    // A change without the CSRF header (and no same-origin Origin) is refused before it runs.
    const unprotected = await fetch(`${fixture.gateway.origin}/api/v1/reassignments/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unprotected.status).toBe(403);
  });
});
