import { describe, expect, it, onTestFinished } from 'vitest';
import { pollUntil } from '../group-fixtures';
import { type BrokerCluster, type ClusterBroker, type Readiness, startBrokerCluster } from './broker-cluster';
import { kafkaOf, storedAssignment } from './cluster-clients';
import { startEtcd } from './etcd-process';

const FAST = {
  cluster: { sessionTtlSeconds: 3, controllerTtlSeconds: 3 },
  replication: { replicaLagTimeMaxMs: 3000 },
};
const TIMEOUT_MS = 300_000;

interface ReadyCheck {
  name: string;
  ok: boolean;
  impact?: string;
  detail?: string;
  problems?: { subject: string; state: string }[];
}

/** The value of one sample in Prometheus text, matched by name and (a subset of) its labels. */
function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const present = new Map(
      [...(match[2] ?? '').matchAll(/([a-z_]+)="([^"]*)"/g)].map((label) => [label[1]!, label[2]!]),
    );
    if (Object.entries(labels).every(([key, value]) => present.get(key) === value)) return Number(match[3]);
  }
  return undefined;
}

async function scrape(broker: ClusterBroker): Promise<string> {
  const response = await fetch(broker.metricsUrl, { signal: AbortSignal.timeout(2000) });
  return response.text();
}

function checkOf(readiness: Readiness | undefined, name: string): ReadyCheck | undefined {
  return (readiness?.body.checks as ReadyCheck[] | undefined)?.find((check) => check.name === name);
}

/** The cluster whose logs a failed wait shows. */
let current: BrokerCluster | undefined;

/** Polls `read` until `accept` holds; a timeout names what it waited for, what it last saw and the brokers' logs. */
async function brokerUntil<T>(
  what: string,
  read: () => Promise<T>,
  accept: (value: T) => boolean,
): Promise<T> {
  let last: T | undefined;
  try {
    return await pollUntil(
      async () => {
        last = await read();
        return accept(last) ? last : undefined;
      },
      what,
      { timeoutMs: 60_000, intervalMs: 200 },
    );
  } catch (error) {
    const seen =
      typeof last === 'string'
        ? last
            .split('\n')
            .filter(
              (line) =>
                line.startsWith('weir_partitions') ||
                line.startsWith('weir_isr') ||
                line.startsWith('weir_replica'),
            )
            .join('\n')
        : JSON.stringify(last);
    const logs = (current?.brokers ?? [])
      .filter((broker) => broker.isRunning)
      .map((broker) => `--- broker ${broker.nodeId}\n${broker.process.output()}`);
    throw new Error(`${String(error)}; last saw ${seen}\n${logs.join('\n')}`);
  }
}

describe('replication health in /metrics and /ready', { timeout: TIMEOUT_MS }, () => {
  it('reports under-replicated, then under-min-ISR and leaderless partitions as followers die, and healthy after their restart', async () => {
    const etcd = await startEtcd();
    onTestFinished(() => etcd.stop());
    const cluster: BrokerCluster = await startBrokerCluster({ etcd, brokers: 3, config: FAST });
    onTestFinished(() => cluster.stop());
    current = cluster;
    const admin = kafkaOf(cluster).admin();
    await admin.connect();
    try {
      await admin.createTopics({
        topics: [
          {
            topic: 'health',
            numPartitions: 1,
            replicationFactor: 3,
            configEntries: [{ name: 'min.insync.replicas', value: '2' }],
          },
          // One replica per broker, so each follower's death leaves one of these without a leader.
          { topic: 'single', numPartitions: 3, replicationFactor: 1 },
        ],
        waitForLeaders: true,
      });
    } finally {
      await admin.disconnect();
    }
    const start = await brokerUntil(
      'a full ISR on health-0',
      () => storedAssignment(cluster, 'health', 0),
      (a) => a.leader > 0 && a.isr.length === 3,
    );
    const leader = cluster.broker(start.leader);
    const [first, second] = start.replicas
      .filter((id) => id !== start.leader)
      .map((id) => cluster.broker(id));
    const singleOn = new Map<number, string>();
    for (const partition of [0, 1, 2]) {
      singleOn.set((await storedAssignment(cluster, 'single', partition)).leader, `single-${partition}`);
    }

    // Healthy: the leader reports each follower's lag and no shortfall, and /ready says ready.
    const healthy = await brokerUntil(
      'lag series for both followers on the leader',
      () => scrape(leader),
      (text) =>
        [first!, second!].every(
          (follower) =>
            sampleValue(text, 'weir_replica_lag_records', {
              topic: 'health',
              partition: '0',
              follower: String(follower.nodeId),
            }) === 0,
        ),
    );
    expect(sampleValue(healthy, 'weir_partitions_under_replicated')).toBe(0);
    expect(sampleValue(healthy, 'weir_partitions_under_min_isr')).toBe(0);
    // The leader's replica of `single` has its one replica in sync, which is its minimum.
    const singleLedByLeader = singleOn.has(leader.nodeId) ? 1 : 0;
    expect(sampleValue(healthy, 'weir_partitions_at_min_isr')).toBe(singleLedByLeader);
    expect(
      sampleValue(healthy, 'weir_replica_lag_ms', { topic: 'health', follower: String(first!.nodeId) }),
    ).toBeGreaterThanOrEqual(0);
    expect((await leader.readiness())?.body.status).toBe('ready');

    // One follower dies: under-replicated and at min ISR, which /ready only notes.
    await first!.kill9();
    const one = await brokerUntil(
      'health-0 under-replicated on its leader',
      () => scrape(leader),
      (text) => sampleValue(text, 'weir_partitions_under_replicated') === 1,
    );
    expect(sampleValue(one, 'weir_partitions_under_min_isr')).toBe(0);
    expect(sampleValue(one, 'weir_partitions_at_min_isr')).toBe(singleLedByLeader + 1);
    const noted = await leader.readiness();
    expect(noted?.status).toBe(200);
    expect(checkOf(noted, 'in-sync-replicas')).toMatchObject({ ok: true });
    expect(checkOf(noted, 'in-sync-replicas')?.detail).toContain('health-0 ISR 2 of 3');

    // The controller counts the leaderless single-replica partition of the dead broker.
    const running = () => cluster.brokers.filter((broker) => broker.isRunning);
    const leaderlessOnController = async (names: string[]) =>
      brokerUntil(
        `the controller to report ${names.join(', ')} leaderless`,
        async () =>
          Promise.all(
            running().map(async (broker) => checkOf(await broker.readiness(), 'leaderless-partitions')),
          ),
        (checks) =>
          checks.some(
            (check) =>
              check?.ok === false &&
              check.impact === 'degraded' &&
              names.every((name) => check.problems?.some((problem) => problem.subject === name)),
          ),
      );
    await leaderlessOnController([singleOn.get(first!.nodeId)!]);
    const leaderlessCounts = await Promise.all(
      running().map(async (broker) => sampleValue(await scrape(broker), 'weir_partitions_leaderless')),
    );
    expect(leaderlessCounts.filter((count) => count !== 0)).toEqual([1]);

    // A second follower dies: under min ISR, and /ready is degraded (still 200) naming the partition.
    await second!.kill9();
    const two = await brokerUntil(
      'health-0 under min ISR on its leader',
      () => scrape(leader),
      (text) => sampleValue(text, 'weir_partitions_under_min_isr') === 1,
    );
    expect(sampleValue(two, 'weir_partitions_under_replicated')).toBe(1);
    // The leader is the last broker standing, so the controller now: it stored the second shrink.
    expect(sampleValue(two, 'weir_isr_shrinks_total')).toBeGreaterThanOrEqual(1);
    const degraded = await leader.readiness();
    expect(degraded?.status).toBe(200);
    expect(degraded?.body.status).toBe('degraded');
    expect(checkOf(degraded, 'in-sync-replicas')).toMatchObject({
      ok: false,
      impact: 'degraded',
      problems: [{ subject: 'health-0', state: 'under-min-isr' }],
    });
    expect(degraded?.body.summary).toContain('1 under min.insync.replicas, acks=all refused (health-0)');
    await leaderlessOnController([singleOn.get(first!.nodeId)!, singleOn.get(second!.nodeId)!]);

    // Both come back: the leader stores two expansions and everything is healthy again.
    const expandsBefore = sampleValue(await scrape(leader), 'weir_isr_expands_total') ?? 0;
    first!.spawn();
    second!.spawn();
    await Promise.all([first!.waitReady(), second!.waitReady()]);
    const back = await brokerUntil(
      'health-0 with its full ISR again',
      () => scrape(leader),
      (text) =>
        sampleValue(text, 'weir_partitions_under_replicated') === 0 &&
        sampleValue(text, 'weir_partitions_under_min_isr') === 0,
    );
    expect(sampleValue(back, 'weir_isr_expands_total')).toBe(expandsBefore + 2);
    await brokerUntil(
      'every broker ready, none degraded',
      async () => Promise.all(cluster.brokers.map(async (broker) => (await broker.readiness())?.body.status)),
      (statuses) => statuses.every((status) => status === 'ready'),
    );
    // Each single-replica partition of the dead brokers got its leader back: two elections, counted
    // by the controller (the leader, the only broker that ran throughout).
    const elections = await Promise.all(
      cluster.brokers.map(async (broker) =>
        sampleValue(await scrape(broker), 'weir_leader_elections_total', { reason: 'offline-partition' }),
      ),
    );
    expect(elections.reduce<number>((sum, count) => sum + (count ?? 0), 0)).toBe(2);
  });
});
