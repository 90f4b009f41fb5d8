import { ConfigResourceTypes, ConfigSource } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../group-fixtures';
import { type BrokerCluster, startBrokerCluster } from './broker-cluster';
import {
  kafkaOf,
  kcatMetadata,
  kcatProduce,
  kcatReadAll,
  leadersOf,
  storedAssignment,
} from './cluster-clients';
import { type EtcdCluster, startEtcd } from './etcd-process';

/** Short TTLs so a dead broker's session and a dead controller's title end within seconds. */
const FAST_SESSIONS = { cluster: { sessionTtlSeconds: 3, controllerTtlSeconds: 3 } };

/** Three child brokers loading the broker's sources at once take 10 s and more on the shared machine. */
const CLUSTER_TEST_TIMEOUT_MS = 180_000;

describe('cluster mode: three brokers on one etcd', { timeout: CLUSTER_TEST_TIMEOUT_MS }, () => {
  let etcd: EtcdCluster;
  let cluster: BrokerCluster;

  beforeAll(async () => {
    etcd = await startEtcd();
    cluster = await startBrokerCluster({ etcd, brokers: 3, config: FAST_SESSIONS });
  }, CLUSTER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await cluster?.stop();
    await etcd?.stop();
  });

  it('lists the three brokers and one controller through each broker', async () => {
    const controllers = new Set<number>();
    for (const broker of cluster.brokers) {
      const metadata = await kcatMetadata(broker.bootstrap);
      expect(metadata.brokers.map((entry) => entry.id).sort()).toEqual([1, 2, 3]);
      expect([1, 2, 3]).toContain(metadata.controllerid);
      controllers.add(metadata.controllerid);
    }
    expect(controllers.size).toBe(1);
  });

  it('spreads a 6-partition topic 2/2/2 and reads back exactly what was produced through any broker', async () => {
    const admin = kafkaOf(cluster).admin();
    await admin.connect();
    try {
      await admin.createTopics({ topics: [{ topic: 'spread', numPartitions: 6 }], waitForLeaders: true });
    } finally {
      await admin.disconnect();
    }
    // Every broker's metadata has the topic once CreateTopics answered on one of them.
    for (const broker of cluster.brokers) {
      const leaders = await pollUntil(async () => {
        const found = await leadersOf(broker.bootstrap, 'spread');
        return found.length === 6 && found.every((leader) => leader > 0) ? found : undefined;
      }, `spread in broker ${broker.nodeId}'s metadata`);
      const perBroker = [1, 2, 3].map((id) => leaders.filter((leader) => leader === id).length);
      expect(perBroker).toEqual([2, 2, 2]);
    }
    const sent: string[] = [];
    for (const broker of cluster.brokers) {
      const lines = Array.from(
        { length: 30 },
        (_, index) => `k${broker.nodeId}-${index}:v${broker.nodeId}-${index}`,
      );
      await kcatProduce(broker.bootstrap, 'spread', lines);
      sent.push(...lines.map((line) => line.split(':')[1]!));
    }
    const read = await kcatReadAll(cluster.brokers[2]!.bootstrap, 'spread');
    expect(read.map((line) => line.split(' ')[3]).sort()).toEqual([...sent].sort());
    expect(new Set(read.map((line) => line.split(' ')[0])).size).toBe(6);
  });

  it('creates topics with up to three replicas over three brokers, keeps the factor for new partitions, and refuses four', async () => {
    const admin = kafkaOf(cluster).admin();
    await admin.connect();
    try {
      await expect(
        admin.createTopics({ topics: [{ topic: 'too-wide', numPartitions: 1, replicationFactor: 4 }] }),
      ).rejects.toMatchObject({ errors: [expect.objectContaining({ type: 'INVALID_REPLICATION_FACTOR' })] });
      await expect(
        admin.createTopics({
          topics: [
            {
              topic: 'too-strict',
              numPartitions: 1,
              replicationFactor: 3,
              configEntries: [{ name: 'min.insync.replicas', value: '4' }],
            },
          ],
        }),
      ).rejects.toMatchObject({ errors: [expect.objectContaining({ type: 'INVALID_CONFIG' })] });
      await admin.createTopics({
        topics: [
          {
            topic: 'replicated',
            numPartitions: 3,
            replicationFactor: 3,
            configEntries: [{ name: 'min.insync.replicas', value: '2' }],
          },
        ],
      });
      // New partitions keep the topic's replication factor (Kafka's rule), even given explicitly.
      await expect(
        admin.createPartitions({
          topicPartitions: [{ topic: 'replicated', count: 4, assignments: [[1, 2]] }],
        }),
      ).rejects.toMatchObject({ type: 'INVALID_REPLICA_ASSIGNMENT' });
      await admin.createPartitions({ topicPartitions: [{ topic: 'replicated', count: 4 }] });
      await expect(
        admin.alterConfigs({
          validateOnly: false,
          resources: [
            {
              type: ConfigResourceTypes.TOPIC,
              name: 'replicated',
              configEntries: [{ name: 'min.insync.replicas', value: '5' }],
            },
          ],
        }),
      ).rejects.toMatchObject({ type: 'INVALID_CONFIG' });
      const { resources } = await admin.describeConfigs({
        resources: [{ type: ConfigResourceTypes.TOPIC, name: 'replicated' }],
        includeSynonyms: false,
      });
      const configs = new Map(resources[0]!.configEntries.map((entry) => [entry.configName, entry]));
      expect(configs.get('min.insync.replicas')).toMatchObject({
        configValue: '2',
        configSource: ConfigSource.TOPIC_CONFIG,
      });
      expect(configs.get('unclean.leader.election.enable')).toMatchObject({
        configValue: 'false',
        configSource: ConfigSource.DEFAULT_CONFIG,
      });
    } finally {
      await admin.disconnect();
    }
    const topics = (await kcatMetadata(cluster.broker(1).bootstrap)).topics.map((t) => t.topic);
    expect(topics).not.toContain('too-wide');
    expect(topics).not.toContain('too-strict');
    const partitions = await pollUntil(async () => {
      const found = (await kcatMetadata(cluster.broker(2).bootstrap, 'replicated')).topics[0]?.partitions;
      return found?.length === 4 ? found : undefined;
    }, 'the four partitions of "replicated" in the metadata');
    for (const partition of partitions) {
      expect(partition.replicas.map((replica) => replica.id).sort()).toEqual([1, 2, 3]);
    }
    // Preferred leaders go round the brokers.
    const leaders = partitions.sort((left, right) => left.partition - right.partition).map((p) => p.leader);
    expect(new Set(leaders.slice(0, 3)).size).toBe(3);
  });

  it('creates __consumer_offsets on the first group lookup with three replicas and min.insync.replicas 2', async () => {
    const admin = kafkaOf(cluster).admin();
    await admin.connect();
    try {
      // Fetching a group's offsets finds its coordinator, which creates the topic over the live brokers.
      await admin.fetchOffsets({ groupId: 'first-lookup', topics: ['spread'] });
      const { resources } = await admin.describeConfigs({
        resources: [{ type: ConfigResourceTypes.TOPIC, name: '__consumer_offsets' }],
        includeSynonyms: false,
      });
      const minInsync = resources[0]!.configEntries.find(
        (entry) => entry.configName === 'min.insync.replicas',
      );
      expect(minInsync?.configValue).toBe('2');
    } finally {
      await admin.disconnect();
    }
    const offsets = (await kcatMetadata(cluster.broker(3).bootstrap, '__consumer_offsets')).topics[0]!;
    expect(offsets.partitions.length).toBeGreaterThan(0);
    for (const partition of offsets.partitions) {
      expect(new Set(partition.replicas.map((replica) => replica.id)).size).toBe(3);
    }
  });

  it('takes a killed broker’s partitions offline while the rest keep serving, and brings them back at a higher epoch', async () => {
    const victim = cluster.broker(2);
    const before = await kcatReadAll(cluster.broker(1).bootstrap, 'spread');
    const ledByVictim = (await leadersOf(victim.bootstrap, 'spread'))
      .map((leader, partition) => ({ leader, partition }))
      .filter((entry) => entry.leader === 2)
      .map((entry) => entry.partition);
    expect(ledByVictim).toHaveLength(2);
    const epochsBefore = await Promise.all(ledByVictim.map((p) => storedAssignment(cluster, 'spread', p)));
    await victim.kill9();

    const metadata = await pollUntil(
      async () => {
        const found = await kcatMetadata(cluster.broker(1).bootstrap, 'spread');
        const partitions = found.topics[0]?.partitions ?? [];
        return ledByVictim.every((p) => partitions.find((entry) => entry.partition === p)?.leader === -1)
          ? found
          : undefined;
      },
      'the killed broker’s partitions to go offline',
      { timeoutMs: 30_000 },
    );
    expect(metadata.brokers.map((entry) => entry.id).sort()).toEqual([1, 3]);
    for (const p of ledByVictim) {
      expect(metadata.topics[0]!.partitions.find((entry) => entry.partition === p)?.error).toMatch(
        /not available/i,
      );
    }
    // Partitions on the live brokers still take writes (kcat, since kafkajs refuses a topic with any
    // offline partition, as it does against Kafka).
    const livePartitions = [0, 1, 2, 3, 4, 5].filter((p) => !ledByVictim.includes(p));
    for (const partition of livePartitions) {
      await kcatProduce(cluster.broker(3).bootstrap, 'spread', [`during:during-${partition}`], partition);
    }

    await victim.restart();
    const leaders = await pollUntil(
      async () => {
        const found = await leadersOf(cluster.broker(3).bootstrap, 'spread');
        return ledByVictim.every((p) => found[p] === 2) ? found : undefined;
      },
      'the restarted broker to lead its partitions again',
      { timeoutMs: 30_000 },
    );
    expect(leaders).toHaveLength(6);
    for (const [index, p] of ledByVictim.entries()) {
      const after = await storedAssignment(cluster, 'spread', p);
      expect(after.leader).toBe(2);
      expect(after.leaderEpoch).toBeGreaterThan(epochsBefore[index]!.leaderEpoch);
    }
    const after = await kcatReadAll(cluster.broker(2).bootstrap, 'spread');
    // Everything from before is there at the same offsets, plus the records written meanwhile.
    for (const line of before) expect(after).toContain(line);
    expect(after).toHaveLength(before.length + 4);
  });

  it('elects another controller after kill -9 of the controller’s broker (bench:cluster measures how fast)', async () => {
    const first = await kcatMetadata(cluster.broker(1).bootstrap);
    const controller = cluster.broker(first.controllerid);
    const witness = cluster.brokers.find((broker) => broker !== controller)!;
    await controller.kill9();
    const next = await pollUntil(
      async () => {
        const found = await kcatMetadata(witness.bootstrap);
        return found.controllerid !== controller.nodeId && found.controllerid > 0 ? found : undefined;
      },
      'a new controller',
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    expect(next.controllerid).not.toBe(controller.nodeId);
    await controller.restart();
    await cluster.waitAllReady();
  });
});
