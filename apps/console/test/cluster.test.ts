import { Client, Producer } from '@weir/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerCluster } from '../../broker/test/cluster/broker-cluster';
import { pollUntil } from '../../broker/test/group-fixtures';
import type { BrokerList } from '../src/server/api/schemas/brokers';
import type { ClusterOverview } from '../src/server/api/schemas/cluster';
import type { TopicLogCleaner } from '../src/server/api/schemas/log-cleaner';
import {
  CLUSTER_TIMEOUT_MS,
  type ClusterGateway,
  FAST_SESSIONS,
  startClusterGateway,
} from './cluster-gateway-fixture';
import type { HttpGateway } from './http-gateway';

/*
 * The console against a real three-broker cluster (etcd and three child brokers from the broker's
 * cluster fixtures), through its REST API on a real HTTP server, the gateway configured with the
 * three internal listeners as WEIR_CONSOLE_BROKER lists them.
 */

const TOPIC = 'spread';
const PARTITIONS = 6;
const RECORDS = 30;

let fixture: ClusterGateway;
let cluster: BrokerCluster;
let gateway: HttpGateway;

beforeAll(async () => {
  // The log cleaner looks again 200 ms after finding nothing due, so a compacted topic is cleaned soon.
  fixture = await startClusterGateway({ config: { ...FAST_SESSIONS, log: { cleaner: { backoffMs: 200 } } } });
  ({ cluster, gateway } = fixture);
}, CLUSTER_TIMEOUT_MS);

afterAll(() => fixture?.stop(), CLUSTER_TIMEOUT_MS);

function json<T>(method: string, path: string, body?: unknown): Promise<T> {
  return fixture.json<T>(method, path, body);
}

function offlineReason(overview: ClusterOverview) {
  return overview.health.reasons.find((reason) => reason.check === 'offline-partitions');
}

interface BrowsePage {
  rows: { partition: number; offset: string; value: { text: string | null } | null }[];
}

async function browseValues(): Promise<string[]> {
  const page = await json<BrowsePage>('GET', `/topics/${TOPIC}/messages?pageSize=500`);
  return page.rows.map((row) => row.value?.text ?? '').sort();
}

const produced = Array.from({ length: RECORDS }, (_, index) => `value-${String(index).padStart(2, '0')}`);

describe('the console on a three-broker cluster', { timeout: CLUSTER_TIMEOUT_MS }, () => {
  it('lists the three brokers, all live, and the one controller', async () => {
    const list = await json<BrokerList>('GET', '/brokers');
    expect(list.brokers.map((broker) => broker.nodeId)).toEqual([1, 2, 3]);
    expect(list.brokers.map((broker) => broker.state)).toEqual(['live', 'live', 'live']);
    expect([1, 2, 3]).toContain(list.controllerId);
    expect(list.brokers.filter((broker) => broker.isController).map((broker) => broker.nodeId)).toEqual([
      list.controllerId,
    ]);
    // Brokers are advertised on the internal listener with their internal endpoints.
    expect(list.brokers.map((broker) => `${broker.host}:${broker.port}`)).toEqual(
      cluster.brokers.map((broker) => broker.internalAddress),
    );
    // Each broker's own answer: the client listener clients use, and its own log directory.
    expect(list.brokers.map((broker) => broker.clientAddress)).toEqual(
      cluster.brokers.map((broker) => broker.bootstrap),
    );
    const paths = list.brokers.map((broker) => broker.logDirs?.[0]?.path);
    expect(new Set(paths).size).toBe(3);
    for (const broker of list.brokers) {
      expect(broker.logDirsError).toBeNull();
      expect(broker.logDirs![0]!.usableBytes).toBeGreaterThan(0);
      // Every replica held is either led or followed.
      expect(broker.leaderCount + broker.followerCount).toBe(broker.replicaCount);
    }
    // The even share is the same for everyone: the cluster's led partitions over three brokers.
    const led = list.brokers.reduce((sum, broker) => sum + broker.leaderCount, 0);
    for (const broker of list.brokers) expect(broker.leaderSkew.evenShare).toBeCloseTo(led / 3, 1);
  });

  it('browses every record of a topic whose partitions live on three brokers', async () => {
    await json('POST', '/topics', { name: TOPIC, partitions: PARTITIONS });
    const list = await pollUntil(
      async () => {
        const brokers = await json<BrokerList>('GET', '/brokers');
        const led = brokers.brokers.map(
          (broker) => broker.ledTopics.find((entry) => entry.topic === TOPIC)?.partitions.length ?? 0,
        );
        return led.reduce((sum, count) => sum + count, 0) === PARTITIONS ? brokers : undefined;
      },
      'every partition of the new topic to have a leader',
      { intervalMs: 250 },
    );
    const leaders = list.brokers.map(
      (broker) => broker.ledTopics.find((entry) => entry.topic === TOPIC)?.partitions ?? [],
    );
    // Spread evenly: each broker leads two of the six.
    expect(leaders.map((partitions) => partitions.length)).toEqual([2, 2, 2]);

    for (const [index, value] of produced.entries()) {
      await json('POST', `/topics/${TOPIC}/messages`, {
        topic: TOPIC,
        partition: index % PARTITIONS,
        value: { data: value },
      });
    }
    expect(await browseValues()).toEqual(produced);

    // Partition internals come from each partition's leader, so every row has its offsets.
    const detail = await json<{ partitions: { partition: number; highWatermark: string }[] }>(
      'GET',
      `/topics/${TOPIC}`,
    );
    expect(detail.partitions.map((row) => row.highWatermark)).toEqual(
      Array.from({ length: PARTITIONS }, () => String(RECORDS / PARTITIONS)),
    );
    // Topic summaries are summed over the brokers.
    const topics = await json<{ topics: { name: string; messageCount: string }[] }>(
      'GET',
      `/topics?search=${TOPIC}`,
    );
    expect(topics.topics.find((topic) => topic.name === TOPIC)?.messageCount).toBe(String(RECORDS));
  });

  it('measures a group lag over partitions led by three brokers, whichever broker coordinates the group', async () => {
    await json('POST', '/groups/readers/reset-offsets', {
      target: 'offset',
      offset: '1',
      topics: [TOPIC],
      dryRun: false,
    });
    // Five records per partition, committed at 1 on each of the six.
    const expectedLag = String(PARTITIONS * (RECORDS / PARTITIONS - 1));
    const groups = await json<{ groups: { groupId: string; totalLag: string }[] }>('GET', '/groups');
    expect(groups.groups.find((group) => group.groupId === 'readers')?.totalLag).toBe(expectedLag);
    const detail = await json<{
      partitions: { partition: number; lag: string; logEndOffset: string | null }[];
    }>('GET', '/groups/readers');
    expect(detail.partitions.map((row) => [row.partition, row.lag, row.logEndOffset])).toEqual(
      Array.from({ length: PARTITIONS }, (_, partition) => [partition, '4', '5']),
    );
    const topics = await json<{ topics: { name: string; groups: { groupId: string; lag: string }[] }[] }>(
      'GET',
      `/topics?search=${TOPIC}`,
    );
    expect(topics.topics.find((topic) => topic.name === TOPIC)?.groups).toEqual([
      { groupId: 'readers', lag: expectedLag },
    ]);
  });

  it("shows the log cleaner's state of every replica of a compacted topic, each from its own broker", async () => {
    const topic = 'compacted-spread';
    await json('POST', '/topics', {
      name: topic,
      partitions: 1,
      replicationFactor: 3,
      configs: { 'cleanup.policy': 'compact', 'segment.bytes': '1024', 'min.cleanable.dirty.ratio': '0.01' },
    });
    const client = new Client({ bootstrapServers: cluster.bootstrapServers });
    try {
      const producer = new Producer(client);
      // 200 values of 5 keys in batches of 5: every closed segment is superseded by the next.
      for (let batch = 0; batch < 40; batch++) {
        await producer.send({
          topic,
          messages: Array.from({ length: 5 }, (_, index) => ({
            key: `key-${index}`,
            value: `value-${batch * 5 + index}`,
          })),
        });
      }
      await producer.close();
    } finally {
      await client.close();
    }
    // Each broker cleans its own replica, the followers below the high watermark they learnt.
    const state = await pollUntil(
      async () => {
        const answer = await json<TopicLogCleaner>('GET', `/topics/${topic}/log-cleaner`);
        const cleaned = answer.replicas.filter((replica) => replica.removedBytesTotal !== '0');
        return cleaned.length === 3 ? answer : undefined;
      },
      'the three replicas to be cleaned',
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(state.compacted).toBe(true);
    expect(state.replicas.map((replica) => replica.brokerId)).toEqual([1, 2, 3]);
    const detail = await json<{ partitions: { leaderId: number }[] }>('GET', `/topics/${topic}`);
    expect(state.replicas.filter((replica) => replica.leader).map((replica) => replica.brokerId)).toEqual([
      detail.partitions[0]!.leaderId,
    ]);
    for (const replica of state.replicas) {
      expect(replica).toMatchObject({ partition: 0, minCleanableDirtyRatio: 0.01 });
      expect(replica.lastCleanedAtMs).not.toBeNull();
      expect(replica.lastError).toBeNull();
    }
  });

  it('keeps answering when a broker is killed, names its offline partitions, and heals after its restart', async () => {
    const before = await json<BrokerList>('GET', '/brokers');
    const victim = before.brokers.find((broker) => !broker.isController) ?? before.brokers[0]!;
    // Only the single-replica topic's partitions go offline with their broker: the internal
    // topics have three replicas, so the controller gives the victim's ones to another in-sync replica.
    const victimPartitions = victim.ledTopics
      .filter((entry) => entry.topic === TOPIC)
      .flatMap((entry) => entry.partitions.map((partition) => `${entry.topic}-${partition}`));
    const victimReplicated = victim.ledTopics.filter((entry) => entry.topic !== TOPIC);
    expect(victimPartitions.length).toBeGreaterThan(0);
    await cluster.broker(victim.nodeId).kill9();

    const overview = await pollUntil(
      async () => {
        const current = await json<ClusterOverview>('GET', '/cluster/overview');
        const settled =
          offlineReason(current)?.ok === false &&
          current.counts?.offlinePartitions === victimPartitions.length;
        return settled ? current : undefined;
      },
      'the health panel to name offline partitions',
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    const detail = offlineReason(overview)?.detail ?? '';
    // At most ten are named; the victim leads fewer than that in this test.
    for (const name of victimPartitions.filter((name) => name.startsWith(`${TOPIC}-`))) {
      expect(detail).toContain(name);
    }
    expect(overview.health.status).toBe('degraded');
    expect(overview.counts?.offlinePartitions).toBe(victimPartitions.length);
    if (victimReplicated.length > 0) {
      // The victim's replicated partitions moved to brokers that now lead them with an ISR of 2 of 3,
      // which those brokers' /ready notes (in-sync-replicas) and the panel lists.
      const noted = await pollUntil(
        async () => {
          const current = await json<ClusterOverview>('GET', '/cluster/overview');
          return current.health.reasons.find(
            (reason) =>
              reason.check.endsWith('in-sync-replicas') &&
              reason.ok &&
              reason.detail.startsWith('note:') &&
              reason.detail.includes('ISR 2 of 3'),
          );
        },
        'the health panel to note the under-replicated partitions of the brokers that took over',
        { timeoutMs: 30_000, intervalMs: 250 },
      );
      expect(noted.detail).toContain('acks=all still served');
    }

    const during = await json<BrokerList>('GET', '/brokers');
    expect(during.brokers.find((broker) => broker.nodeId === victim.nodeId)?.state).not.toBe('live');
    expect(during.offlinePartitions.sort()).toEqual([...victimPartitions].sort());
    // Partition internals still answer, the victim's partitions without a leader.
    const partitions = await json<{ partitions: { partition: number; leaderId: number }[] }>(
      'GET',
      `/topics/${TOPIC}`,
    );
    const offline = partitions.partitions
      .filter((row) => row.leaderId < 0)
      .map((row) => `${TOPIC}-${row.partition}`);
    expect(offline.sort()).toEqual(victimPartitions.filter((name) => name.startsWith(`${TOPIC}-`)).sort());

    // Browsing a topic with offline partitions names them instead of hanging or failing blindly.
    const browse = await gateway.rest('GET', `/topics/${TOPIC}/messages?pageSize=500`);
    expect(browse.status).toBe(503);
    const refusal = ((await browse.json()) as { message: string }).message;
    expect(refusal).toContain('has no leader');
    for (const name of offline) expect(refusal).toContain(name);
    await cluster.broker(victim.nodeId).restart();
    await pollUntil(
      async () => {
        const current = await json<ClusterOverview>('GET', '/cluster/overview');
        return offlineReason(current)?.ok === true;
      },
      'the offline partitions to be healthy again',
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    const after = await json<BrokerList>('GET', '/brokers');
    expect(after.brokers.map((broker) => broker.state)).toEqual(['live', 'live', 'live']);
    expect(after.offlinePartitions).toEqual([]);
    expect(await browseValues()).toEqual(produced);
  });
});
