import { access, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, ErrorCode, InternalAdmin } from '@weir/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { partitionDirectoryName } from '../../src/log/log-files';
import { expectExitCode, weir } from '../cli-runner';
import { pollUntil } from '../group-fixtures';
import type { BrokerCluster, ClusterBroker } from './broker-cluster';
import { kafkaOf, kcatProduce, storedAssignment, storedClusterEvents } from './cluster-clients';
import { startReplicatedCluster } from './replicated-cluster';
import { anomalyCounts, assignmentWhere, finalRead, startReplicationWorkload } from './replication-workload';

// Partition moves (AlterPartitionReassignments) on a four-broker cluster: the new replica joins the
// ISR before the old one leaves, nothing acknowledged is lost when a broker dies mid-move, a move
// can be cancelled, and a replica that leaves has its log deleted.

const TIMEOUT_MS = 300_000;

/** An internal-listener admin on `broker`, closed when the test finishes. */
function internalAdminOf(cluster: BrokerCluster, broker: ClusterBroker): InternalAdmin {
  const client = new Client({
    bootstrapServers: [broker.internalAddress],
    clientId: 'reassignment-test',
    sasl: { mechanism: 'WEIR-TOKEN', token: cluster.internalToken },
  });
  onTestFinished(() => client.close());
  return new InternalAdmin(client);
}

/** Creates `topic` with one partition on exactly `replicas` (the first preferred), min ISR 2. */
async function createPlacedTopic(cluster: BrokerCluster, topic: string, replicas: number[]): Promise<void> {
  const admin = kafkaOf(cluster).admin();
  await admin.connect();
  try {
    await admin.createTopics({
      topics: [
        {
          topic,
          replicaAssignment: [{ partition: 0, replicas }],
          configEntries: [{ name: 'min.insync.replicas', value: '2' }],
        },
      ],
      waitForLeaders: true,
    });
  } finally {
    await admin.disconnect();
  }
}

async function hasLog(broker: ClusterBroker, topic: string): Promise<boolean> {
  try {
    await access(join(broker.dataDir, 'logs', partitionDirectoryName(topic, 0)));
    return true;
  } catch {
    return false;
  }
}

/** The bytes of a partition's segment files on a broker's disk (0 when it has no log yet). */
async function logBytes(broker: ClusterBroker, topic: string): Promise<number> {
  const directory = join(broker.dataDir, 'logs', partitionDirectoryName(topic, 0));
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return 0;
  }
  let total = 0;
  for (const name of names.filter((file) => file.endsWith('.log')))
    total += (await stat(join(directory, name))).size;
  return total;
}

describe('partition reassignment', { timeout: TIMEOUT_MS }, () => {
  it('moves a partition off a broker under acks=all load while its leader is killed mid-move, losing nothing', async () => {
    const cluster = await startReplicatedCluster({ brokers: 4 });
    await createPlacedTopic(cluster, 'moving', [1, 2, 3]);
    const start = await assignmentWhere(cluster, 'moving', 0, 'a full ISR', (a) => a.isr.length === 3);
    const workload = await startReplicationWorkload(cluster, { topic: 'moving', partitions: [0] });
    onTestFinished(() => workload.stop());
    await pollUntil(() => workload.acknowledged() >= 20, 'acknowledgements before the move');

    const admin = internalAdminOf(cluster, cluster.broker(4));
    expect(
      await admin.alterPartitionReassignments([{ topic: 'moving', partition: 0, replicas: [2, 3, 4] }]),
    ).toEqual([{ topic: 'moving', partition: 0, errorCode: 0, errorMessage: null }]);
    const victim = cluster.broker(start.leader);
    await victim.kill9();

    const moved = await assignmentWhere(
      cluster,
      'moving',
      0,
      'the move completed',
      (a) => (a.addingReplicas ?? []).length === 0 && a.replicas.join() === '2,3,4',
    );
    // Completion needs the new replica in sync; the old ones left only then.
    expect(moved.isr).toContain(4);
    expect(moved.isr).not.toContain(1);
    expect(moved.leader).not.toBe(victim.nodeId);
    expect(await admin.listPartitionReassignments()).toEqual([]);
    const acknowledged = workload.acknowledged();
    await pollUntil(() => workload.acknowledged() >= acknowledged + 20, 'acknowledgements after the move', {
      timeoutMs: 60_000,
    });

    await victim.restart();
    await workload.stop();
    const report = await finalRead(cluster, 'moving', [0], workload.recorder);
    expect(anomalyCounts(report), JSON.stringify(report.anomalies.slice(0, 5))).toEqual({});
    // Broker 1 is no replica any more: its copy of the log is deleted once it has seen that.
    await pollUntil(async () => !(await hasLog(cluster.broker(1), 'moving')), 'broker 1 deleting its log');
    expect(await hasLog(cluster.broker(4), 'moving')).toBe(true);

    const events = (await storedClusterEvents(cluster)).filter((e) => e.topic === 'moving');
    const kinds = events.map((e) => e.kind);
    expect(kinds).toContain('reassignment-started');
    expect(kinds).toContain('reassignment-completed');
    expect(kinds.indexOf('reassignment-started')).toBeLessThan(kinds.indexOf('reassignment-completed'));
  });

  it('refuses bad moves with Kafka’s codes, and cancels one in progress, putting the replicas back', async () => {
    // Long sessions: the paused broker stays registered, so the move to it waits, and can be cancelled.
    const cluster = await startReplicatedCluster({
      brokers: 4,
      config: { cluster: { sessionTtlSeconds: 60, controllerTtlSeconds: 3 } },
    });
    await createPlacedTopic(cluster, 'cancelled', [1, 2, 3]);
    await assignmentWhere(cluster, 'cancelled', 0, 'a full ISR', (a) => a.isr.length === 3);
    const admin = internalAdminOf(cluster, cluster.broker(2));

    const refused = await admin.alterPartitionReassignments([
      { topic: 'cancelled', partition: 0, replicas: [1, 2, 9] },
      { topic: 'cancelled', partition: 7, replicas: [1, 2, 3] },
      { topic: 'nowhere', partition: 0, replicas: [1, 2, 3] },
    ]);
    expect(refused.map((r) => [r.topic, r.partition, r.errorCode])).toEqual([
      ['cancelled', 0, ErrorCode.INVALID_REPLICA_ASSIGNMENT],
      ['cancelled', 7, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION],
      ['nowhere', 0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION],
    ]);
    expect(refused[0]!.errorMessage).toContain('broker 9');
    const [nothingToCancel] = await admin.alterPartitionReassignments([
      { topic: 'cancelled', partition: 0, replicas: null },
    ]);
    expect(nothingToCancel!.errorCode).toBe(ErrorCode.NO_REASSIGNMENT_IN_PROGRESS);
    const twice = await admin.alterPartitionReassignments([
      { topic: 'cancelled', partition: 0, replicas: [1, 2, 4] },
      { topic: 'cancelled', partition: 0, replicas: [2, 3, 4] },
    ]);
    expect(twice.map((r) => r.errorCode)).toEqual([ErrorCode.INVALID_REQUEST, ErrorCode.INVALID_REQUEST]);

    const paused = cluster.broker(4);
    paused.pause();
    let resumed = false;
    onTestFinished(() => {
      if (!resumed) paused.resume();
    });
    const [started] = await admin.alterPartitionReassignments([
      { topic: 'cancelled', partition: 0, replicas: [1, 2, 4] },
    ]);
    expect(started!.errorCode).toBe(ErrorCode.NONE);
    expect(await admin.listPartitionReassignments()).toEqual([
      {
        topic: 'cancelled',
        partition: 0,
        replicas: [1, 2, 4, 3],
        addingReplicas: [4],
        removingReplicas: [3],
      },
    ]);
    const moving = await assignmentWhere(cluster, 'cancelled', 0, 'the move stored', (a) =>
      (a.addingReplicas ?? []).includes(4),
    );
    // The paused broker cannot catch up, so it is not in sync, and broker 3 has not left.
    expect(moving.isr).not.toContain(4);
    expect(moving.isr).toContain(3);

    const [cancelled] = await admin.alterPartitionReassignments([
      { topic: 'cancelled', partition: 0, replicas: null },
    ]);
    expect(cancelled!.errorCode).toBe(ErrorCode.NONE);
    const back = await assignmentWhere(
      cluster,
      'cancelled',
      0,
      'the replicas back',
      (a) => (a.addingReplicas ?? []).length === 0 && (a.removingReplicas ?? []).length === 0,
    );
    expect([...back.replicas].sort()).toEqual([1, 2, 3]);
    expect(await admin.listPartitionReassignments()).toEqual([]);

    paused.resume();
    resumed = true;
    await paused.waitReady();
    await pollUntil(
      async () => !(await hasLog(paused, 'cancelled')),
      'broker 4 holding no log of the partition',
    );
    const kinds = (await storedClusterEvents(cluster))
      .filter((e) => e.topic === 'cancelled')
      .map((e) => e.kind);
    expect(kinds).toContain('reassignment-started');
    expect(kinds).toContain('reassignment-cancelled');
  });

  it('`weir broker drain` previews and empties a broker, `weir partition reassign` reports and refuses', async () => {
    const cluster = await startReplicatedCluster({ brokers: 4 });
    const admin = kafkaOf(cluster).admin();
    await admin.connect();
    try {
      await admin.createTopics({
        topics: [
          {
            topic: 'drained',
            replicaAssignment: [
              { partition: 0, replicas: [1, 2, 4] },
              { partition: 1, replicas: [4, 3, 1] },
              { partition: 2, replicas: [2, 3, 1] },
            ],
          },
        ],
        waitForLeaders: true,
      });
    } finally {
      await admin.disconnect();
    }
    for (const partition of [0, 1, 2]) {
      await kcatProduce(cluster.bootstrap, 'drained', [`k:before-${partition}`], partition);
    }
    const flags = ['--internal', cluster.broker(2).internalAddress, '--token', cluster.internalToken];

    const preview = expectExitCode(await weir(['broker', 'drain', '4', ...flags]), 0);
    const lines = preview.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^PARTITION\s+REPLICAS\s+TARGET\s+ADDING\s+REMOVING\s+COPY\s+LEADER/);
    // Only the partitions broker 4 holds move; broker 4 leads drained-1, so that leader moves.
    expect(lines.slice(1).map((line) => line.split(/\s+/)[0])).toEqual(['drained-0', 'drained-1']);
    expect(lines.find((line) => line.startsWith('drained-1'))).toMatch(/moves$/);
    expect(preview.stderr).toContain('2 partition(s)');
    const planJson = expectExitCode(await weir(['broker', 'drain', '4', '--json', ...flags]), 0).stdout;
    const plan = JSON.parse(planJson) as {
      partitions: { topic: string; partition: number; replicas: number[] }[];
    };
    expect(plan.partitions.every((move) => !move.replicas.includes(4))).toBe(true);
    // Nothing moved by a preview.
    expect((await storedAssignment(cluster, 'drained', 0)).replicas).toEqual([1, 2, 4]);

    const refused = await weir(['partition', 'reassign', '--move', 'drained:2=1,2,9', ...flags]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('drained-2: broker 9 is not in the cluster');
    expectExitCode(await weir(['partition', 'reassign', '--move', 'drained-2', ...flags]), 2);

    // The saved plan, submitted through `weir partition reassign --plan -`, drains the broker.
    // --wait follows the moves until they complete (a pipe gets a line per partition).
    const executed = expectExitCode(
      await weir(['partition', 'reassign', '--plan', '-', '--execute', '--wait', ...flags], {
        input: planJson,
        timeoutMs: 90_000,
      }),
      0,
    );
    expect(executed.stdout).toContain('drained-0: started');
    expect(executed.stdout).toContain('drained-1: started');
    expect(executed.stderr).toContain('drained-0: completed');
    expect(executed.stderr).toContain('drained-1: completed');
    expect(executed.stderr).toMatch(/Every move completed in [\d.]+ s/);
    const status = expectExitCode(await weir(['partition', 'reassign', '--status', ...flags]), 0);
    expect(status.stderr).toContain('No partition is being moved');
    for (const partition of [0, 1, 2]) {
      const stored = await storedAssignment(cluster, 'drained', partition);
      expect(stored.replicas).not.toContain(4);
      expect(stored.isr).toHaveLength(3);
    }
    await pollUntil(async () => !(await hasLog(cluster.broker(4), 'drained')), 'broker 4 deleting its logs');
    const drainedAgain = expectExitCode(await weir(['broker', 'drain', '4', ...flags]), 0);
    expect(drainedAgain.stderr).toContain('Broker 4 holds no replica');
  });

  it('a throttle holds the new replica back, and lifting it lets the move finish', async () => {
    const cluster = await startReplicatedCluster({ brokers: 4 });
    await createPlacedTopic(cluster, 'throttled', [1, 2, 3]);
    // Separate produce calls make separate batches: a throttled follower still gets one whole batch
    // per fetch, so with several batches and 1 byte/s it is held back after the first.
    for (let call = 0; call < 6; call++) {
      await kcatProduce(
        cluster.bootstrap,
        'throttled',
        Array.from({ length: 20 }, (_, index) => `k${call}:value-${call}-${index}`),
        0,
      );
    }
    const flags = ['--internal', cluster.broker(1).internalAddress, '--token', cluster.internalToken];
    const started = expectExitCode(
      await weir([
        'partition',
        'reassign',
        '--move',
        'throttled:0=1,2,3,4',
        '--execute',
        '--throttle',
        '1',
        ...flags,
      ]),
      0,
    );
    expect(started.stderr).toContain('fetch at most 1 B/s');
    expect(started.stdout).toContain('throttled-0: started');
    const leaderBytes = await logBytes(cluster.broker(1), 'throttled');
    // The first batch arrives; the rest waits for the throttle.
    await pollUntil(
      async () => (await logBytes(cluster.broker(4), 'throttled')) > 0,
      'the first batch on broker 4',
    );
    const held = await storedAssignment(cluster, 'throttled', 0);
    expect(held.addingReplicas).toEqual([4]);
    expect(held.isr).not.toContain(4);
    expect(await logBytes(cluster.broker(4), 'throttled')).toBeLessThan(leaderBytes);
    const status = expectExitCode(await weir(['partition', 'reassign', '--status', ...flags]), 0).stdout;
    expect(status).toMatch(/throttled-0\s+1,2,3,4\s+4\s+.*4: \d+%/);

    const lifted = expectExitCode(await weir(['partition', 'reassign', '--throttle', 'none', ...flags]), 0);
    expect(lifted.stderr).toContain('Replication throttle lifted');
    const done = await assignmentWhere(
      cluster,
      'throttled',
      0,
      'the move finished once the throttle was lifted',
      (a) => (a.addingReplicas ?? []).length === 0 && a.isr.includes(4),
    );
    expect(done.replicas).toEqual([1, 2, 3, 4]);
    expect(await logBytes(cluster.broker(4), 'throttled')).toBe(leaderBytes);
  });
});
