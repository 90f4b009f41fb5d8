import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerCluster } from '../../broker/test/cluster/broker-cluster';
import { pollUntil } from '../../broker/test/group-fixtures';
import { createCaller } from '../src/server/api/root';
import type { ReplicationEvents, ReplicationEventsInput } from '../src/server/api/schemas/replication-events';
import { createContextInner } from '../src/server/api/trpc';
import { CLUSTER_TIMEOUT_MS, type ClusterGateway, startClusterGateway } from './cluster-gateway-fixture';

/*
 * The replication timeline (replication.events, GET /replication/events) against a real
 * three-broker cluster: a replication-factor-3 topic, one follower killed by PID, so its
 * partitions' leaders shrink their ISRs, and started again, so they expand them. tRPC and REST
 * must both show those events, each filter must narrow the answer to what it names, and bad input
 * must be refused naming the field.
 */

const TOPIC = 'timeline';
const OTHER_TOPIC = 'timeline-other';
const PARTITIONS = 3;

let fixture: ClusterGateway;
let cluster: BrokerCluster;
let caller: ReturnType<typeof createCaller>;

beforeAll(async () => {
  fixture = await startClusterGateway();
  cluster = fixture.cluster;
  caller = createCaller(createContextInner({ services: fixture.services }));
}, CLUSTER_TIMEOUT_MS);

afterAll(() => fixture?.stop(), CLUSTER_TIMEOUT_MS);

function rest(query: string): Promise<ReplicationEvents> {
  return fixture.json<ReplicationEvents>('GET', `/replication/events${query}`);
}

function events(input: ReplicationEventsInput): Promise<ReplicationEvents> {
  return caller.replication.events(input);
}

/**
 * Whether an event names the broker as the brokers' filter means it (docs/architecture.md §6.7):
 * as its subject, leader or previous leader, or as an ISR member that came or went.
 */
function names(event: ReplicationEvents['events'][number], brokerId: number): boolean {
  return (
    event.brokerId === brokerId ||
    event.leader === brokerId ||
    event.previousLeader === brokerId ||
    event.replicasChanged.includes(brokerId)
  );
}

describe('the replication timeline on a three-broker cluster', { timeout: CLUSTER_TIMEOUT_MS }, () => {
  let victim = 0;
  let followed: number[] = [];
  let killedAtMs = 0;

  it("lists a killed follower's ISR shrinks over tRPC and REST, newest first", async () => {
    for (const name of [TOPIC, OTHER_TOPIC]) {
      await fixture.json('POST', '/topics', {
        name,
        partitions: PARTITIONS,
        replicationFactor: 3,
        configs: { 'min.insync.replicas': '2' },
      });
    }
    await pollUntil(
      async () => {
        const current = await fixture.json<{ partitionCount: number; partitions: unknown[] }>(
          'GET',
          `/replication/health?topic=${TOPIC}`,
        );
        return current.partitionCount === PARTITIONS && current.partitions.length === 0 ? true : undefined;
      },
      'the new topic to have leaders and full ISRs',
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    const leaders = (
      await fixture.json<{ partitions: { partition: number; leaderId: number }[] }>('GET', `/topics/${TOPIC}`)
    ).partitions;
    // Any broker but partition 0's leader follows partition 0 at least, and leaves every partition a leader.
    const leaderOfZero = leaders.find((row) => row.partition === 0)?.leaderId ?? -1;
    victim = [1, 2, 3].find((nodeId) => nodeId !== leaderOfZero) ?? 1;
    followed = leaders.filter((row) => row.leaderId !== victim).map((row) => row.partition);
    expect(followed).toContain(0);

    killedAtMs = Date.now();
    await cluster.broker(victim).kill9();

    const shrunk = await pollUntil(
      async () => {
        const current = await events({ topic: TOPIC, kinds: 'isr-shrink', sinceMs: killedAtMs });
        const all = followed.every((partition) =>
          current.events.some(
            (event) => event.partition === partition && event.replicasChanged.includes(victim),
          ),
        );
        return all ? current : undefined;
      },
      `an ISR shrink of broker ${victim} for every partition it followed`,
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    for (const partition of followed) {
      const shrink = shrunk.events.find(
        (event) => event.partition === partition && event.replicasChanged.includes(victim),
      );
      expect(shrink?.kind).toBe('isr-shrink');
      expect(shrink?.topic).toBe(TOPIC);
      expect(shrink?.previousIsr).toContain(victim);
      expect(shrink?.isr).not.toContain(victim);
      expect(shrink?.atMs).toBeGreaterThanOrEqual(killedAtMs);
      expect(shrink?.description).toContain(`broker ${victim} left the ISR`);
    }
    expect(shrunk.sinceMs).toBe(killedAtMs);
    expect(shrunk.range).toBeNull();

    // REST answers the same events for the same query.
    const viaRest = await rest(`?topic=${TOPIC}&kinds=isr-shrink&sinceMs=${killedAtMs}`);
    expect(viaRest.events.map((event) => event.id)).toEqual(
      expect.arrayContaining(shrunk.events.map((event) => event.id)),
    );
    expect(viaRest.events.every((event) => event.kind === 'isr-shrink' && event.topic === TOPIC)).toBe(true);

    // The default range (24 hours back from now) holds them too, with the rest of the topic's history.
    const whole = await rest(`?topic=${TOPIC}`);
    expect(whole.range).toBe('24h');
    expect(whole.untilMs - whole.sinceMs).toBe(86_400_000);
    expect(
      whole.events.some((event) => event.kind === 'isr-shrink' && event.replicasChanged.includes(victim)),
    ).toBe(true);
    expect(whole.events.some((event) => event.kind === 'leader-change')).toBe(true);
    const times = whole.events.map((event) => event.atMs);
    expect(times).toEqual([...times].sort((left, right) => right - left));
  });

  it('narrows by partition, broker, kind, time and limit', async () => {
    const partitionZero = await rest(`?topic=${TOPIC}&partition=0&sinceMs=${killedAtMs}`);
    expect(partitionZero.events.length).toBeGreaterThan(0);
    expect(partitionZero.events.every((event) => event.topic === TOPIC && event.partition === 0)).toBe(true);

    // The other topic's partitions lost the same follower, but a topic filter leaves them out.
    const other = await rest(`?topic=${OTHER_TOPIC}&kinds=isr-shrink&sinceMs=${killedAtMs}`);
    expect(other.events.every((event) => event.topic === OTHER_TOPIC)).toBe(true);

    const byBroker = await events({ brokerId: victim, sinceMs: killedAtMs });
    expect(byBroker.events.length).toBeGreaterThan(0);
    expect(byBroker.events.every((event) => names(event, victim))).toBe(true);
    const survivor = [1, 2, 3].find((nodeId) => nodeId !== victim) ?? 1;
    const bySurvivor = await events({ brokerId: survivor, kinds: 'isr-shrink', sinceMs: killedAtMs });
    expect(bySurvivor.events.every((event) => names(event, survivor))).toBe(true);

    // The session end is on the cluster-wide timeline, found by its kind alone.
    const sessions = await pollUntil(
      async () => {
        const current = await events({
          kinds: 'broker-session-ended,broker-session-started',
          sinceMs: killedAtMs,
        });
        return current.events.some(
          (event) => event.kind === 'broker-session-ended' && event.brokerId === victim,
        )
          ? current
          : undefined;
      },
      `broker ${victim}'s session end to be recorded`,
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(sessions.events.every((event) => event.kind.startsWith('broker-session-'))).toBe(true);

    // A range that ends before the kill holds none of its shrinks.
    const before = await rest(`?topic=${TOPIC}&kinds=isr-shrink&range=1h&untilMs=${killedAtMs - 1}`);
    expect(before.events.every((event) => event.atMs <= killedAtMs - 1)).toBe(true);
    expect(before.sinceMs).toBe(killedAtMs - 1 - 3_600_000);

    const one = await rest(`?topic=${TOPIC}&limit=1`);
    expect(one.events).toHaveLength(1);
    expect(one.truncated).toBe(true);
  });

  it('refuses bad input with 400, naming the field', async () => {
    const cases: [string, string][] = [
      ['?limit=0', 'limit'],
      ['?limit=5001', 'limit'],
      ['?kinds=isr-shrink,sideways', 'kinds'],
      ['?partition=0', 'partition'],
      ['?range=2h', 'range'],
      ['?range=1h&sinceMs=1', 'range'],
      ['?sinceMs=2000&untilMs=1000', 'untilMs'],
      ['?brokerId=one', 'brokerId'],
    ];
    for (const [query, field] of cases) {
      const response = await fixture.gateway.rest('GET', `/replication/events${query}`);
      expect(response.status, query).toBe(400);
      expect(JSON.stringify(await response.json()), query).toContain(field);
    }
    await expect(events({ limit: 0 })).rejects.toSatisfy(
      (error) =>
        error instanceof TRPCError && error.code === 'BAD_REQUEST' && error.message.includes('limit'),
    );
  });

  it('lists the ISR expansions once the follower is back', async () => {
    const restartedAtMs = Date.now();
    await cluster.broker(victim).restart();
    const expanded = await pollUntil(
      async () => {
        const current = await rest(
          `?topic=${TOPIC}&kinds=isr-expand&brokerId=${victim}&sinceMs=${restartedAtMs}`,
        );
        return followed.every((partition) => current.events.some((event) => event.partition === partition))
          ? current
          : undefined;
      },
      `broker ${victim} to rejoin the ISR of every partition it follows`,
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    for (const event of expanded.events) {
      expect(event.kind).toBe('isr-expand');
      expect(event.replicasChanged).toEqual([victim]);
      expect(event.cause).toBe('follower-caught-up');
      expect(event.reason).toBe('the follower caught up with the leader');
      expect(event.isr).toContain(victim);
      expect(event.previousIsr).not.toContain(victim);
      expect(event.description).toContain(`broker ${victim} joined the ISR`);
    }
  });
});
