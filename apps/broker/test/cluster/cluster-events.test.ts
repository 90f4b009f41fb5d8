import { Client, ErrorCode, InternalAdmin } from '@weir/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ClusterEvent } from '../../src/metadata/cluster-events';
import { expectExitCode, weir } from '../cli-runner';
import { pollUntil } from '../group-fixtures';
import { startBrokerCluster } from './broker-cluster';
import { kafkaOf, storedAssignment, storedClusterEvents } from './cluster-clients';
import { startEtcd } from './etcd-process';

const FAST = { cluster: { sessionTtlSeconds: 3, controllerTtlSeconds: 3 } };

/** The events after `from` (an index into the list) that match, in stored (time) order. */
function after(
  events: readonly ClusterEvent[],
  fromId: string | undefined,
  matches: (event: ClusterEvent) => boolean,
) {
  return events.filter((event) => (fromId === undefined || event.id > fromId) && matches(event));
}

describe('the replication timeline of a cluster', { timeout: 240_000 }, () => {
  it('records a killed leader’s expired session, the election and the shrink, then its return, the expansion, and a controlled stop', async () => {
    const etcd = await startEtcd();
    onTestFinished(() => etcd.stop());
    const cluster = await startBrokerCluster({ etcd, brokers: 3, config: FAST });
    onTestFinished(() => cluster.stop());
    const admin = kafkaOf(cluster).admin();
    await admin.connect();
    try {
      await admin.createTopics({
        topics: [{ topic: 'timeline', numPartitions: 1, replicationFactor: 3 }],
        waitForLeaders: true,
      });
    } finally {
      await admin.disconnect();
    }
    const before = await storedAssignment(cluster, 'timeline', 0);
    const started = await storedClusterEvents(cluster);
    expect(
      new Set(started.filter((e) => e.kind === 'broker-session-started').map((e) => e.brokerId)),
    ).toEqual(new Set([1, 2, 3]));
    const mark = started.at(-1)?.id;

    const victim = cluster.broker(before.leader);
    await victim.kill9();
    const failover = await pollUntil(async () => {
      const events = await storedClusterEvents(cluster);
      const ended = after(
        events,
        mark,
        (e) =>
          e.kind === 'broker-session-ended' &&
          e.brokerId === victim.nodeId &&
          // The victim may have been the controller too; then its successor records the end.
          e.detail?.startsWith('session expired') === true,
      );
      const elected = after(events, mark, (e) => e.kind === 'leader-change' && e.topic === 'timeline');
      const shrunk = after(events, mark, (e) => e.kind === 'isr-shrink' && e.topic === 'timeline');
      return ended.length > 0 && elected.length > 0 && shrunk.length > 0
        ? { ended, elected, shrunk }
        : undefined;
    }, 'the failover’s events');
    const moved = await storedAssignment(cluster, 'timeline', 0);
    expect(failover.elected[0]).toMatchObject({
      previousLeader: victim.nodeId,
      leader: moved.leader,
      leaderEpoch: before.leaderEpoch + 1,
      cause: 'leader-not-live',
    });
    expect(failover.shrunk[0]!.previousIsr).toContain(victim.nodeId);
    expect(failover.shrunk[0]!.isr).not.toContain(victim.nodeId);
    const afterFailover = (await storedClusterEvents(cluster)).at(-1)!.id;

    await victim.restart();
    const rejoin = await pollUntil(async () => {
      const events = await storedClusterEvents(cluster);
      const sessions = after(
        events,
        afterFailover,
        (e) => e.kind === 'broker-session-started' && e.brokerId === victim.nodeId,
      );
      const expanded = after(events, afterFailover, (e) => e.kind === 'isr-expand' && e.topic === 'timeline');
      return sessions.length > 0 && expanded.length > 0
        ? { session: sessions[0]!, expanded: expanded[0]! }
        : undefined;
    }, 'the return’s events');
    expect(rejoin.session.id < rejoin.expanded.id).toBe(true);
    expect(rejoin.expanded).toMatchObject({ cause: 'follower-caught-up' });
    expect(rejoin.expanded.isr).toContain(victim.nodeId);
    const rejoined = await storedAssignment(cluster, 'timeline', 0);
    expect(rejoined.isrChangedAtMs).toBeGreaterThanOrEqual(rejoin.expanded.atMs);
    const afterRejoin = (await storedClusterEvents(cluster)).at(-1)!.id;

    // A controlled stop of the current leader hands the leadership over and says so.
    const leader = cluster.broker(rejoined.leader);
    await leader.stop();
    const events = await storedClusterEvents(cluster);
    expect(
      after(events, afterRejoin, (e) => e.kind === 'leader-change' && e.topic === 'timeline').map(
        (e) => e.cause,
      ),
    ).toContain('controlled-shutdown');
    expect(
      after(
        events,
        afterRejoin,
        (e) => e.kind === 'broker-session-ended' && e.brokerId === leader.nodeId,
      ).map((e) => e.detail),
    ).toEqual(['stopped']);
    // The events are in etcd: a restarted broker changes none of them.
    await leader.restart();
    const again = await storedClusterEvents(cluster);
    expect(again.slice(0, events.length)).toEqual(events);

    // The same timeline over the internal listener, newest first, filtered by the broker.
    const internal = new Client({
      bootstrapServers: [leader.internalAddress],
      clientId: 'cluster-events-internal',
      sasl: { mechanism: 'WEIR-TOKEN', token: cluster.internalToken },
    });
    onTestFinished(() => internal.close());
    const internalAdmin = new InternalAdmin(internal);
    const listed = await internalAdmin.listClusterEvents({ limit: 5000 });
    const stored = await storedClusterEvents(cluster);
    expect(listed.map((e) => e.id)).toEqual(stored.map((e) => e.id).reverse());
    const victimOnly = await internalAdmin.listClusterEvents({
      brokerId: victim.nodeId,
      topic: 'timeline',
      limit: 2,
    });
    expect(victimOnly).toHaveLength(2);
    expect(victimOnly.every((e) => e.topic === 'timeline')).toBe(true);
    expect(victimOnly[0]!.atMs).toBeGreaterThanOrEqual(victimOnly[1]!.atMs);
    await expect(internalAdmin.listClusterEvents({ limit: 0 })).rejects.toMatchObject({
      code: ErrorCode.INVALID_REQUEST,
    });

    // `weir cluster events` against the cluster: the table newest first, and JSON lines.
    const flags = ['--internal', leader.internalAddress, '--token', cluster.internalToken];
    const table = expectExitCode(
      await weir(['cluster', 'events', '--topic', 'timeline', '--since', '1h', ...flags]),
      0,
    ).stdout;
    const lines = table.trim().split('\n');
    expect(lines[0]).toMatch(/^TIME\s+KIND\s+PARTITION/);
    expect(table).toContain('leader-not-live');
    expect(table).toContain('follower-caught-up');
    expect(table).toContain('controlled-shutdown');
    const json = expectExitCode(
      await weir([
        'cluster',
        'events',
        '--broker',
        String(victim.nodeId),
        '--limit',
        '3',
        '--json',
        ...flags,
      ]),
      0,
    ).stdout;
    const parsed = json
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ClusterEvent);
    expect(parsed.map((e) => e.id)).toEqual(
      (await internalAdmin.listClusterEvents({ brokerId: victim.nodeId, limit: 3 })).map((e) => e.id),
    );
    expectExitCode(await weir(['cluster', 'events', '--since', 'yesterday', ...flags]), 2);
  });
});
