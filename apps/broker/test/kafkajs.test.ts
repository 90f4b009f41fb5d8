import { type RunningBroker, startBroker } from '@weir/test-broker';
import { CompressionTypes, Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('kafkajs 2.2.4 against Weir', () => {
  let running: RunningBroker;
  let kafka: Kafka;

  beforeAll(async () => {
    running = await startBroker({ topics: { autoCreateEnable: false } });
    kafka = new Kafka({ clientId: 'weir-test', brokers: [running.bootstrap], logLevel: logLevel.NOTHING });
  });
  afterAll(async () => {
    await running.dispose();
  });

  it('creates, lists and deletes topics with the admin client', async () => {
    const admin = kafka.admin();
    await admin.connect();
    try {
      expect(await admin.createTopics({ topics: [{ topic: 'admin-a', numPartitions: 3 }] })).toBe(true);
      expect(await admin.createTopics({ topics: [{ topic: 'admin-a', numPartitions: 3 }] })).toBe(false);
      await expect(
        admin.createTopics({ topics: [{ topic: 'admin-rf', numPartitions: 1, replicationFactor: 3 }] }),
      ).rejects.toMatchObject({ errors: [expect.objectContaining({ type: 'INVALID_REPLICATION_FACTOR' })] });
      expect(await admin.listTopics()).toContain('admin-a');
      const metadata = await admin.fetchTopicMetadata({ topics: ['admin-a'] });
      expect(metadata.topics[0]!.partitions).toHaveLength(3);
      await admin.createPartitions({ topicPartitions: [{ topic: 'admin-a', count: 5 }] });
      expect((await admin.fetchTopicMetadata({ topics: ['admin-a'] })).topics[0]!.partitions).toHaveLength(5);
      await admin.deleteTopics({ topics: ['admin-a'] });
      expect(await admin.listTopics()).not.toContain('admin-a');
    } finally {
      await admin.disconnect();
    }
  });

  it.each([
    ['acks=-1', -1, CompressionTypes.None],
    ['acks=1 with gzip', 1, CompressionTypes.GZIP],
  ])('produces with %s and reads every record back in order', async (_label, acks, compression) => {
    const topic = `produce-${acks}-${compression}`;
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 2 }] });
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    const messages = Array.from({ length: 50 }, (_, index) => ({
      key: `key-${index % 5}`,
      value: `value-${index}`,
      headers: { index: String(index), dup: ['a', 'b'] },
    }));
    const results = await producer.send({ topic, acks, compression, messages });
    expect(results.every((result) => result.errorCode === 0)).toBe(true);
    await producer.disconnect();

    const offsets = await admin.fetchTopicOffsets(topic);
    const total = offsets.reduce((sum, partition) => sum + Number(partition.high) - Number(partition.low), 0);
    expect(total).toBe(50);
    await admin.disconnect();
  });

  it('deletes records and reports the new low watermark', async () => {
    const topic = 'delete-records';
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic,
      messages: Array.from({ length: 10 }, (_, index) => ({ value: `v${index}` })),
    });
    await producer.disconnect();
    // kafkajs's deleteTopicRecords looks the leader up in its cached metadata only, so load it first.
    await admin.fetchTopicMetadata({ topics: [topic] });
    await admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: '4' }] });
    const [offsets] = await admin.fetchTopicOffsets(topic);
    expect(offsets).toMatchObject({ partition: 0, low: '4', high: '10' });
    await admin.disconnect();
  });

  it('runs an idempotent producer (InitProducerId, sequence numbers)', async () => {
    const topic = 'idempotent';
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    for (let index = 0; index < 5; index++) {
      await producer.send({ topic, messages: [{ value: `i${index}` }, { value: `j${index}` }] });
    }
    await producer.disconnect();
    const [offsets] = await admin.fetchTopicOffsets(topic);
    expect(offsets!.high).toBe('10');
    await admin.disconnect();
  });
});
