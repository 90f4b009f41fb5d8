import {
  Client,
  ErrorCode,
  JoinGroup,
  OffsetCommit,
  OffsetFetch,
  SyncGroup,
  Admin as WeirAdmin,
} from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { type Consumer, Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerConfigInput } from '../src/config/broker-config';
import { describedConsumerGroup, lagOf, pollUntil } from './group-fixtures';
import { RawClient } from './raw-client';

/** Short delays and sessions, so rebalances happen in test time. */
const GROUP_OVERRIDES: BrokerConfigInput = {
  topics: { autoCreateEnable: false },
  groups: { initialRebalanceDelayMs: 200, minSessionTimeoutMs: 1000, offsetsTopicPartitions: 8 },
};

const CONSUMER_TIMINGS = {
  sessionTimeout: 6000,
  rebalanceTimeout: 10_000,
  heartbeatInterval: 300,
  maxWaitTimeInMs: 100,
};

/** The partitions each member holds once the group is Stable, else undefined. */
function stableAssignment(running: RunningBroker, groupId: string): Map<string, number[]> | undefined {
  try {
    const group = describedConsumerGroup(running.broker, groupId);
    if (group.state !== 'Stable') return undefined;
    return new Map(
      group.members.map((member) => [
        member.memberId,
        (member.assignment?.partitions ?? []).flatMap((topic) => topic.partitions).sort((a, b) => a - b),
      ]),
    );
  } catch {
    return undefined;
  }
}

describe('consumer groups with kafkajs 2.2.4', () => {
  let running: RunningBroker;
  let kafka: Kafka;

  beforeAll(async () => {
    running = await startBroker(GROUP_OVERRIDES);
    kafka = new Kafka({ clientId: 'groups-test', brokers: [running.bootstrap], logLevel: logLevel.NOTHING });
  });
  afterAll(async () => {
    await running.dispose();
  });

  async function produce(topic: string, values: { value: string; partition: number }[]): Promise<void> {
    const producer = kafka.producer();
    await producer.connect();
    try {
      await producer.send({ topic, messages: values });
    } finally {
      await producer.disconnect();
    }
  }

  it('splits a 6-partition topic between two members and moves partitions when one leaves; every id once', async () => {
    const topic = 'split';
    const groupId = 'split-group';
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 6 }] });
    await admin.disconnect();

    const seen = new Map<string, string[]>();
    const partitionsSeenBy = { a: new Set<number>(), b: new Set<number>() };
    const start = async (name: 'a' | 'b'): Promise<Consumer> => {
      const consumer = kafka.consumer({ groupId, ...CONSUMER_TIMINGS });
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ partition, message }) => {
          const id = message.value!.toString();
          seen.set(id, [...(seen.get(id) ?? []), name]);
          partitionsSeenBy[name].add(partition);
        },
      });
      return consumer;
    };
    const a = await start('a');
    const b = await start('b');
    try {
      const split = await pollUntil(() => {
        const assignment = stableAssignment(running, groupId);
        return assignment?.size === 2 && [...assignment.values()].every((p) => p.length === 3)
          ? assignment
          : undefined;
      }, 'two members with three partitions each');
      expect([...split.values()].flat().sort()).toEqual([0, 1, 2, 3, 4, 5]);

      const ids = (from: number, count: number) =>
        Array.from({ length: count }, (_, index) => ({
          value: `id-${from + index}`,
          partition: (from + index) % 6,
        }));
      await produce(topic, ids(0, 300));
      await pollUntil(() => seen.size === 300, '300 messages consumed');
      expect(partitionsSeenBy.a.size).toBe(3);
      expect(partitionsSeenBy.b.size).toBe(3);
      expect([...partitionsSeenBy.a].some((partition) => partitionsSeenBy.b.has(partition))).toBe(false);

      // a leaves (LeaveGroup v3 after committing): b takes over all six partitions.
      await a.disconnect();
      await pollUntil(() => {
        const assignment = stableAssignment(running, groupId);
        return assignment?.size === 1 && [...assignment.values()][0]!.length === 6;
      }, 'one member with all six partitions');
      partitionsSeenBy.b.clear();
      await produce(topic, ids(300, 300));
      await pollUntil(() => seen.size === 600, '600 messages consumed');
      expect(partitionsSeenBy.b.size).toBe(6);
      const duplicates = [...seen].filter(([, consumers]) => consumers.length !== 1);
      expect(duplicates).toEqual([]);
    } finally {
      await a.disconnect();
      await b.disconnect();
    }
    // b left too: the group is Empty and keeps its offsets (300 + 300 over six partitions).
    const lag = lagOf(running.broker, groupId)!;
    expect(lag.state).toBe('Empty');
    expect(lag.partitions.map((partition) => partition.committedOffset)).toEqual([
      100, 100, 100, 100, 100, 100,
    ]);
    expect(lag.totalLag).toBe(0);
  }, 60_000);

  it('reports lag as produced minus committed, and describes, lists, resets and deletes groups', async () => {
    const topic = 'lag';
    const groupId = 'lag-group';
    const admin = kafka.admin();
    await admin.connect();
    try {
      await admin.createTopics({ topics: [{ topic, numPartitions: 2 }] });
      await produce(topic, [
        ...Array.from({ length: 12 }, (_, index) => ({ value: `p0-${index}`, partition: 0 })),
        ...Array.from({ length: 8 }, (_, index) => ({ value: `p1-${index}`, partition: 1 })),
      ]);
      // kafkajs's setOffsets joins the group with a throwaway consumer, commits and leaves.
      await admin.setOffsets({
        groupId,
        topic,
        partitions: [
          { partition: 0, offset: '5' },
          { partition: 1, offset: '8' },
        ],
      });
      const lag = lagOf(running.broker, groupId)!;
      expect(lag.partitions).toEqual([
        expect.objectContaining({ partition: 0, committedOffset: 5, highWatermark: 12, lag: 7 }),
        expect.objectContaining({ partition: 1, committedOffset: 8, highWatermark: 8, lag: 0 }),
      ]);
      expect(lag.totalLag).toBe(20 - 13);
      // The metrics count lag by the same rule.
      expect(running.broker.groupStats().groups.find((group) => group.groupId === groupId)).toMatchObject({
        state: 'Empty',
        members: 0,
        partitions: [
          { topic, partition: 0, lag: 7 },
          { topic, partition: 1, lag: 0 },
        ],
      });

      expect(await admin.fetchOffsets({ groupId, topics: [topic] })).toEqual([
        {
          topic,
          partitions: expect.arrayContaining([
            expect.objectContaining({ partition: 0, offset: '5' }),
            expect.objectContaining({ partition: 1, offset: '8' }),
          ]),
        },
      ]);
      expect((await admin.listGroups()).groups).toContainEqual({ groupId, protocolType: 'consumer' });
      const [described] = (await admin.describeGroups([groupId, 'never-seen'])).groups;
      expect(described).toMatchObject({ groupId, state: 'Empty', members: [] });

      // Reset with the SDK (what `weir group reset-offsets` runs): a dry run returns the plan and
      // changes nothing; the real one moves the offsets, clamped to each partition's range.
      const sdkClient = new Client({ bootstrapServers: [running.bootstrap] });
      const sdk = new WeirAdmin(sdkClient);
      try {
        const plan = await sdk.resetOffsets(groupId, { shiftBy: -3 }, { topics: [topic], dryRun: true });
        expect(plan).toEqual([
          { topic, partition: 0, currentOffset: 5n, newOffset: 2n, requestedOffset: 2n, clamped: null },
          { topic, partition: 1, currentOffset: 8n, newOffset: 5n, requestedOffset: 5n, clamped: null },
        ]);
        expect(lagOf(running.broker, groupId)!.totalLag).toBe(7);
        await sdk.resetOffsets(groupId, 'earliest', { topics: [topic] });
        expect(
          lagOf(running.broker, groupId)!.partitions.map((partition) => partition.committedOffset),
        ).toEqual([0, 0]);
        const beyond = await sdk.resetOffsets(groupId, { offset: 99 }, { topics: [topic] });
        expect(beyond.map((partition) => partition.newOffset)).toEqual([12n, 8n]);
        expect(beyond.map((partition) => [partition.requestedOffset, partition.clamped])).toEqual([
          [99n, 'log-end'],
          [99n, 'log-end'],
        ]);
        const byTime = await sdk.resetOffsets(groupId, { timestampMs: 0 }, { topics: [topic], dryRun: true });
        expect(byTime.map((partition) => partition.newOffset)).toEqual([0n, 0n]);
      } finally {
        await sdkClient.close();
      }

      await admin.deleteGroups([groupId]);
      expect(lagOf(running.broker, groupId)).toBeUndefined();
      await expect(admin.deleteGroups(['never-seen'])).rejects.toMatchObject({
        groups: [expect.objectContaining({ errorCode: ErrorCode.GROUP_ID_NOT_FOUND })],
      });
    } finally {
      await admin.disconnect();
    }
  }, 30_000);

  it('refuses to reset or delete a group with members, and describes its members', async () => {
    const topic = 'busy';
    const groupId = 'busy-group';
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 2 }] });
    const consumer = kafka.consumer({ groupId, ...CONSUMER_TIMINGS });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic] });
    await consumer.run({ eachMessage: async () => {} });
    try {
      await pollUntil(() => stableAssignment(running, groupId)?.size === 1, 'a Stable group');
      const sdkClient = new Client({ bootstrapServers: [running.bootstrap] });
      const sdk = new WeirAdmin(sdkClient);
      try {
        await expect(sdk.resetOffsets(groupId, 'earliest', { topics: [topic] })).rejects.toMatchObject({
          code: ErrorCode.NON_EMPTY_GROUP,
        });
      } finally {
        await sdkClient.close();
      }
      await expect(admin.deleteGroups([groupId])).rejects.toMatchObject({
        groups: [expect.objectContaining({ errorCode: ErrorCode.NON_EMPTY_GROUP })],
      });
      const description = describedConsumerGroup(running.broker, groupId);
      expect(description).toMatchObject({
        state: 'Stable',
        protocolType: 'consumer',
        protocol: 'RoundRobinAssigner',
      });
      expect(description.members[0]).toMatchObject({
        clientId: 'groups-test',
        clientHost: '127.0.0.1',
        subscription: { topics: [topic] },
        assignment: { partitions: [{ topic, partitions: [0, 1] }] },
      });
      const [viaKafka] = (await admin.describeGroups([groupId])).groups;
      expect(viaKafka).toMatchObject({
        state: 'Stable',
        protocol: 'RoundRobinAssigner',
        protocolType: 'consumer',
      });
      expect(viaKafka!.members[0]).toMatchObject({ clientId: 'groups-test', clientHost: '/127.0.0.1' });
      expect((await admin.listGroups()).groups).toContainEqual({ groupId, protocolType: 'consumer' });
    } finally {
      await consumer.disconnect();
      await admin.disconnect();
    }
  }, 30_000);

  it('rejects a commit from a stale generation and changes nothing', async () => {
    const topic = 'stale';
    const groupId = 'stale-group';
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
    await admin.disconnect();
    const client = await RawClient.connect(running.bootstrap);
    try {
      const join = async (memberId: string) => {
        const body = {
          groupId,
          sessionTimeoutMs: 10_000,
          rebalanceTimeoutMs: 10_000,
          memberId,
          groupInstanceId: null,
          protocolType: 'consumer',
          protocols: [{ name: 'range', metadata: Buffer.alloc(0) }],
        };
        return client.request(JoinGroup, 5, body);
      };
      const required = await join('');
      expect(required.errorCode).toBe(ErrorCode.MEMBER_ID_REQUIRED);
      const first = await join(required.memberId);
      expect(first).toMatchObject({ errorCode: 0, generationId: 1, leader: required.memberId });
      const commit = (generationId: number, offset: bigint) =>
        client.request(OffsetCommit, 5, {
          groupId,
          generationIdOrMemberEpoch: generationId,
          memberId: required.memberId,
          groupInstanceId: null,
          retentionTimeMs: -1n,
          topics: [
            {
              name: topic,
              partitions: [
                {
                  partitionIndex: 0,
                  committedOffset: offset,
                  committedLeaderEpoch: -1,
                  commitTimestampMs: -1n,
                  committedMetadata: 'gen',
                },
              ],
            },
          ],
        });
      // Stable is not needed for a commit; PreparingRebalance and Stable accept it, and the
      // leader's rejoin starts generation 2 right away (it is the only member).
      await client.request(SyncGroup, 3, {
        groupId,
        generationId: 1,
        memberId: required.memberId,
        groupInstanceId: null,
        assignments: [{ memberId: required.memberId, assignment: Buffer.alloc(0) }],
      });
      expect((await commit(1, 5n)).topics[0]!.partitions[0]!.errorCode).toBe(0);
      const second = await join(required.memberId);
      expect(second.generationId).toBe(2);
      await client.request(SyncGroup, 3, {
        groupId,
        generationId: 2,
        memberId: required.memberId,
        groupInstanceId: null,
        assignments: [],
      });
      const offsetsTopicEnd = () =>
        running.broker
          .partitionStats()
          .filter((partition) => partition.topic === '__consumer_offsets')
          .reduce((total, partition) => total + Number(partition.logEndOffset), 0);
      const before = offsetsTopicEnd();
      expect((await commit(1, 9n)).topics[0]!.partitions[0]!.errorCode).toBe(ErrorCode.ILLEGAL_GENERATION);
      // The same offset again from the current generation: accepted, and nothing is written.
      expect((await commit(2, 5n)).topics[0]!.partitions[0]!.errorCode).toBe(0);
      expect(offsetsTopicEnd()).toBe(before);
      const fetched = await client.request(OffsetFetch, 5, {
        groupId,
        topics: [{ name: topic, partitionIndexes: [0] }],
      });
      expect(fetched.topics[0]!.partitions[0]).toMatchObject({
        committedOffset: 5n,
        metadata: 'gen',
        committedLeaderEpoch: -1,
      });
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe('committed offsets across a broker restart', () => {
  it('resumes from the committed offsets after stop and start on the same data directory', async () => {
    const first = await startBroker(GROUP_OVERRIDES);
    const dataDir = first.dataDir;
    const topic = 'resume';
    const groupId = 'resume-group';
    const clientFor = (running: RunningBroker) =>
      new Kafka({ clientId: 'resume', brokers: [running.bootstrap], logLevel: logLevel.NOTHING });
    const consumeAll = async (kafka: Kafka, expected: number): Promise<string[]> => {
      const values: string[] = [];
      const consumer = kafka.consumer({ groupId, ...CONSUMER_TIMINGS });
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({ eachMessage: async ({ message }) => void values.push(message.value!.toString()) });
      try {
        await pollUntil(() => values.length >= expected, `${expected} messages`);
      } finally {
        await consumer.disconnect();
      }
      return values;
    };
    let second: RunningBroker | undefined;
    try {
      const kafka = clientFor(first);
      const admin = kafka.admin();
      await admin.connect();
      await admin.createTopics({ topics: [{ topic, numPartitions: 2 }] });
      await admin.disconnect();
      const producer = kafka.producer();
      await producer.connect();
      await producer.send({
        topic,
        messages: Array.from({ length: 10 }, (_, index) => ({ value: `old-${index}`, partition: index % 2 })),
      });
      await producer.disconnect();
      expect((await consumeAll(kafka, 10)).sort()).toHaveLength(10);
      await first.stop();

      second = await startBroker(GROUP_OVERRIDES, dataDir);
      const readiness = second.broker.readiness().find((check) => check.name === 'coordinators');
      expect(readiness).toMatchObject({ ok: true });
      const again = clientFor(second);
      const secondAdmin = again.admin();
      await secondAdmin.connect();
      const [offsets] = await secondAdmin.fetchOffsets({ groupId, topics: [topic] });
      expect(offsets!.partitions.map((partition) => partition.offset).sort()).toEqual(['5', '5']);
      await secondAdmin.disconnect();
      const againProducer = again.producer();
      await againProducer.connect();
      await againProducer.send({
        topic,
        messages: Array.from({ length: 5 }, (_, index) => ({ value: `new-${index}`, partition: index % 2 })),
      });
      await againProducer.disconnect();
      const resumed = await consumeAll(again, 5);
      expect(resumed.sort()).toEqual(['new-0', 'new-1', 'new-2', 'new-3', 'new-4']);
    } finally {
      await second?.stop();
      await first.dispose();
    }
  }, 60_000);
});
