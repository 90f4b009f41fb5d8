import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerCluster } from '../../broker/test/cluster/broker-cluster';
import { pollUntil } from '../../broker/test/group-fixtures';
import type { ReplicationHealth } from '../src/server/api/schemas/replication';
import { CLUSTER_TIMEOUT_MS, type ClusterGateway, startClusterGateway } from './cluster-gateway-fixture';
import type { HttpGateway } from './http-gateway';

/*
 * The ISR health view (GET /replication/health) against a real three-broker cluster: etcd and
 * three child brokers, a replication-factor-3 topic with min.insync.replicas=2, one follower
 * killed by PID and started again.
 */

const TOPIC = 'replicated';
const PARTITIONS = 3;

let fixture: ClusterGateway;
let cluster: BrokerCluster;
let gateway: HttpGateway;

beforeAll(async () => {
  fixture = await startClusterGateway();
  ({ cluster, gateway } = fixture);
}, CLUSTER_TIMEOUT_MS);

afterAll(() => fixture?.stop(), CLUSTER_TIMEOUT_MS);

function json<T>(method: string, path: string, body?: unknown): Promise<T> {
  return fixture.json<T>(method, path, body);
}

function health(query = ''): Promise<ReplicationHealth> {
  return json<ReplicationHealth>('GET', `/replication/health${query}`);
}

describe('the ISR health view on a three-broker cluster', { timeout: CLUSTER_TIMEOUT_MS }, () => {
  it('reports a fresh replication-factor-3 topic healthy, saying how it checked', async () => {
    await json('POST', '/topics', {
      name: TOPIC,
      partitions: PARTITIONS,
      replicationFactor: 3,
      configs: { 'min.insync.replicas': '2' },
    });
    const healthy = await pollUntil(
      async () => {
        const current = await health(`?topic=${TOPIC}`);
        return current.partitionCount === PARTITIONS && current.partitions.length === 0 ? current : undefined;
      },
      'the new topic to have leaders and full ISRs',
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(healthy.topicCount).toBe(1);
    expect(healthy.registeredBrokers).toEqual([1, 2, 3]);
    expect(healthy.answeredBrokers).toEqual([1, 2, 3]);
    expect(healthy.unansweredBrokers).toEqual([]);
    expect(healthy.counts).toEqual({
      offline: 0,
      underMinIsr: 0,
      atMinIsr: 0,
      underReplicated: 0,
      nonPreferredLeader: 0,
    });
  });

  it('names a killed follower as the reason its partitions are under-replicated, and heals after its restart', async () => {
    const leaders = (
      await json<{ partitions: { partition: number; leaderId: number }[] }>('GET', `/topics/${TOPIC}`)
    ).partitions;
    // Any broker but partition 0's leader: it follows at least partition 0, and killing a
    // follower leaves every partition a leader.
    const leaderOfZero = leaders.find((row) => row.partition === 0)?.leaderId ?? -1;
    const victim = [1, 2, 3].find((nodeId) => nodeId !== leaderOfZero) ?? 1;
    const followed = leaders.filter((row) => row.leaderId !== victim).map((row) => row.partition);
    const killedAtMs = Date.now();
    await cluster.broker(victim).kill9();

    const degraded = await pollUntil(
      async () => {
        const current = await health(`?topic=${TOPIC}&state=under-replicated`);
        // Every partition it followed, named by the very reason asserted below: the ISR shrinks of
        // several partitions need not land in one metadata read, and the leader's own report of
        // its ISR change (isrChangedAtMs) may come a read after the metadata's.
        const named = followed.every((partition) =>
          current.partitions.some(
            (row) =>
              row.partition === partition &&
              row.states.includes('at-min-isr') &&
              row.reasons.includes(`broker ${victim}'s session ended`) &&
              row.isrChangedAtMs !== null,
          ),
        );
        return named ? current : undefined;
      },
      `partitions followed by broker ${victim} to be under-replicated because its session ended`,
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    for (const partition of followed) {
      const row = degraded.partitions.find((candidate) => candidate.partition === partition);
      expect(row?.states).toContain('under-replicated');
      // ISR 2 of 3 with min.insync.replicas 2: at the minimum.
      expect(row?.states).toContain('at-min-isr');
      expect(row?.isr).not.toContain(victim);
      expect(row?.reasons).toContain(`broker ${victim}'s session ended`);
      // The leader's own report (WeirDescribeReplication): when the ISR shrank, and how far the
      // dead follower is behind by the leader's record of its fetches.
      expect(row?.isrChangedAtMs).toBeGreaterThanOrEqual(killedAtMs);
      const lagging = row?.laggingFollowers.find((follower) => follower.brokerId === victim);
      expect(lagging?.registered).toBe(false);
      expect(lagging?.lagMs).toBeTypeOf('number');
      expect(lagging?.lagRecords).toMatch(/^\d+$/);
    }
    expect(degraded.registeredBrokers).not.toContain(victim);

    // The broker filter keeps only partitions with a replica on that broker: all of them here.
    const byBroker = await health(`?topic=${TOPIC}&brokerId=${victim}`);
    expect(byBroker.partitionCount).toBe(PARTITIONS);
    // A state filter nothing matches answers no rows but the same counts.
    const offline = await health(`?topic=${TOPIC}&state=offline`);
    expect(offline.partitions).toEqual([]);
    expect(offline.counts.underReplicated).toBe(degraded.counts.underReplicated);

    await cluster.broker(victim).restart();
    const healed = await pollUntil(
      async () => {
        const current = await health(`?topic=${TOPIC}`);
        return current.counts.underReplicated === 0 && current.counts.offline === 0 ? current : undefined;
      },
      `broker ${victim} to rejoin every ISR`,
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(healed.registeredBrokers).toEqual([1, 2, 3]);
    expect(
      healed.partitions.every((row) => row.states.every((state) => state === 'non-preferred-leader')),
    ).toBe(true);
  });

  it('refuses a bad filter, naming the field', async () => {
    const response = await gateway.rest('GET', '/replication/health?state=sideways');
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('state');
  });
});
