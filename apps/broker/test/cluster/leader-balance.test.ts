import { Admin, Client, ErrorCode } from '@weir/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { expectExitCode, weir } from '../cli-runner';
import { pollUntil } from '../group-fixtures';
import type { BrokerCluster } from './broker-cluster';
import { storedClusterEvents } from './cluster-clients';
import { createReplicatedTopics, startReplicatedCluster } from './replicated-cluster';
import {
  anomalyCounts,
  finalRead,
  fullIsrOf,
  startReplicationWorkload,
  topicAssignments,
} from './replication-workload';

const TIMEOUT_MS = 600_000;
const TOPIC = 'balance';
const PARTITIONS = [0, 1, 2, 3, 4, 5];
/** The broker restarted: its preferred partitions are led by others once it is back. */
const RESTARTED = 2;

const assignments = (cluster: BrokerCluster) => topicAssignments(cluster, TOPIC, PARTITIONS);
const fullIsr = (cluster: BrokerCluster, what: string) => fullIsrOf(cluster, TOPIC, PARTITIONS, what);

/**
 * Restarts broker RESTARTED (a controlled shutdown hands its leadership to other in-sync replicas)
 * and waits until it is back in every ISR; returns the partitions it is preferred leader of, all
 * led by another broker at that point.
 */
async function moveLeadershipAway(cluster: BrokerCluster): Promise<number[]> {
  const before = await fullIsr(cluster, 'a full ISR before the restart');
  const preferred = PARTITIONS.filter((p) => before[p]!.replicas[0] === RESTARTED);
  // Placement spreads the first replicas over the three brokers: two partitions each.
  expect(preferred).toHaveLength(2);
  await cluster.broker(RESTARTED).restart();
  await fullIsr(cluster, `a full ISR after broker ${RESTARTED} restarted`);
  return preferred;
}

describe('leader balance', { timeout: TIMEOUT_MS }, () => {
  it('with auto rebalance off, leadership stays away until ElectLeaders makes the preferred replicas lead again, under acks=all load with nothing lost', async () => {
    // A check interval of 1 s, so a rebalancer that ignored the switch would act during the test.
    const cluster = await startReplicatedCluster({
      config: { cluster: { autoLeaderRebalanceEnable: false, leaderImbalanceCheckIntervalSeconds: 1 } },
    });
    await createReplicatedTopics(cluster, [TOPIC], PARTITIONS.length);
    await fullIsr(cluster, 'a full ISR before the workload');
    const workload = await startReplicationWorkload(cluster, {
      topic: TOPIC,
      partitions: PARTITIONS,
      intervalMs: 50,
    });
    onTestFinished(() => workload.stop());
    await pollUntil(() => workload.acknowledged() >= 30, 'the first acknowledgements', { timeoutMs: 60_000 });

    const moved = await moveLeadershipAway(cluster);
    // Some seconds of load later (the workload's acknowledgements are the clock), it is still away.
    const acknowledgedAway = workload.acknowledged();
    await pollUntil(() => workload.acknowledged() >= acknowledgedAway + 150, 'load after the restart', {
      timeoutMs: 60_000,
    });
    const away = await assignments(cluster);
    for (const partition of moved) expect(away[partition]!.leader).not.toBe(RESTARTED);
    const startedAtMs = Date.now();

    const client = new Client({ bootstrapServers: cluster.bootstrapServers, clientId: 'leader-balance' });
    onTestFinished(() => client.close());
    const admin = new Admin(client);
    const acknowledgedBefore = workload.acknowledged();
    const results = await admin.electLeaders({
      electionType: 'preferred',
      partitions: [{ topic: TOPIC, partitions: PARTITIONS }],
      timeoutMs: 30_000,
    });
    expect(results.map((r) => [r.partition, r.errorCode])).toEqual(
      PARTITIONS.map((p) => [p, moved.includes(p) ? ErrorCode.NONE : ErrorCode.ELECTION_NOT_NEEDED]),
    );

    // The answer came once the brokers' views had the new leaders: etcd already has them.
    const after = await assignments(cluster);
    for (const partition of PARTITIONS) {
      expect(after[partition]!.leader).toBe(after[partition]!.replicas[0]);
      const bump = moved.includes(partition) ? 1 : 0;
      expect(after[partition]!.leaderEpoch).toBe(away[partition]!.leaderEpoch + bump);
    }
    const events = (await storedClusterEvents(cluster)).filter(
      (e) => e.atMs >= startedAtMs && e.topic === TOPIC && e.kind === 'leader-change',
    );
    expect(events.map((e) => [e.partition, e.leader, e.cause]).sort()).toEqual(
      moved.map((p) => [p, RESTARTED, 'preferred-election']).sort(),
    );

    // A second election finds nothing to do; every partition (no --topic) answers none at all.
    expect(
      (
        await admin.electLeaders({
          electionType: 'preferred',
          partitions: [{ topic: TOPIC, partitions: moved }],
        })
      ).map((r) => r.errorCode),
    ).toEqual([ErrorCode.ELECTION_NOT_NEEDED, ErrorCode.ELECTION_NOT_NEEDED]);

    // `weir partition elect-leaders` against the cluster: the table, and JSON lines.
    const bootstrap = ['--bootstrap-server', cluster.bootstrap];
    const table = expectExitCode(
      await weir(['partition', 'elect-leaders', '--topic', TOPIC, ...bootstrap]),
      0,
    );
    expect(table.stdout).toMatch(/PARTITION\s+RESULT\s+LEADER \/ ERROR/);
    expect(table.stdout).toMatch(new RegExp(`${TOPIC}-${moved[0]}\\s+not needed\\s+${RESTARTED}`));
    const json = expectExitCode(
      await weir([
        'partition',
        'elect-leaders',
        '--topic',
        TOPIC,
        '--partition',
        '9',
        '--json',
        ...bootstrap,
      ]),
      1,
    );
    expect(JSON.parse(json.stdout)).toMatchObject({
      topic: TOPIC,
      partition: 9,
      result: 'UNKNOWN_TOPIC_OR_PARTITION',
    });

    // The producers kept going through the elections, and nothing acknowledged was lost.
    await pollUntil(
      () => workload.acknowledged() >= acknowledgedBefore + 30,
      'acknowledgements after the elections',
      { timeoutMs: 60_000 },
    );
    await workload.stop();
    const report = await finalRead(cluster, TOPIC, PARTITIONS, workload.recorder);
    expect(anomalyCounts(report), JSON.stringify(report.anomalies.slice(0, 5))).toEqual({});
    expect(report.stats.sends).toMatchObject({ fail: 0, unknown: 0 });
  });

  it('with auto rebalance on, the controller makes the preferred replicas lead again by itself', async () => {
    const cluster = await startReplicatedCluster({
      config: { cluster: { autoLeaderRebalanceEnable: true, leaderImbalanceCheckIntervalSeconds: 1 } },
    });
    await createReplicatedTopics(cluster, [TOPIC], PARTITIONS.length);
    const startedAtMs = Date.now();
    const moved = await moveLeadershipAway(cluster);
    const balanced = await pollUntil(
      async () => {
        const now = await assignments(cluster);
        return now.every((a) => a.leader === a.replicas[0]) ? now : undefined;
      },
      'every partition led by its preferred replica again',
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    for (const partition of moved) expect(balanced[partition]!.leader).toBe(RESTARTED);
    const events = (await storedClusterEvents(cluster)).filter(
      (e) =>
        e.atMs >= startedAtMs && e.topic === TOPIC && e.kind === 'leader-change' && e.leader === RESTARTED,
    );
    // The restart moved them away (controlled-shutdown); the rebalance brought them back.
    expect(
      events
        .filter((e) => e.cause === 'auto-leader-rebalance')
        .map((e) => e.partition)
        .sort(),
    ).toEqual([...moved].sort());
  });
});
