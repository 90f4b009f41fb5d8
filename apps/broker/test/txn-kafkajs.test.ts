import { type RunningBroker, startBroker } from '@weir/test-broker';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from './group-fixtures';

/** kafkajs 2.2.4's transactional producer end to end, read back by a read_committed consumer. */
describe('kafkajs transactions against Weir', () => {
  let running: RunningBroker;
  let kafka: Kafka;

  beforeAll(async () => {
    running = await startBroker({
      topics: { autoCreateEnable: false },
      groups: { initialRebalanceDelayMs: 0, offsetsTopicPartitions: 2 },
      transactions: { stateTopicPartitions: 2 },
    });
    kafka = new Kafka({
      clientId: 'weir-txn-test',
      brokers: [running.bootstrap],
      logLevel: logLevel.NOTHING,
    });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'tx-out', numPartitions: 1 }] });
    await admin.disconnect();
  });
  afterAll(async () => {
    await running.dispose();
  });

  it('commits and aborts; a read_committed consumer sees only committed records', async () => {
    const producer = kafka.producer({
      transactionalId: 'kafkajs-tx',
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
    });
    await producer.connect();
    try {
      const first = await producer.transaction();
      await first.send({ topic: 'tx-out', messages: [{ value: 'c1' }, { value: 'c2' }] });
      await first.commit();
      const second = await producer.transaction();
      await second.send({ topic: 'tx-out', messages: [{ value: 'a1' }, { value: 'a2' }] });
      await second.abort();
      const third = await producer.transaction();
      await third.send({ topic: 'tx-out', messages: [{ value: 'c3' }] });
      await third.sendOffsets({
        consumerGroupId: 'kafkajs-tx-group',
        topics: [{ topic: 'tx-out', partitions: [{ partition: 0, offset: '5' }] }],
      });
      await third.commit();
    } finally {
      await producer.disconnect();
    }

    const admin = kafka.admin();
    await admin.connect();
    try {
      // Two committed, two aborted, one committed record, and a marker after each transaction.
      const [offsets] = await admin.fetchTopicOffsets('tx-out');
      expect(offsets).toMatchObject({ partition: 0, high: '8' });
      const [committed] = await admin.fetchOffsets({ groupId: 'kafkajs-tx-group', topics: ['tx-out'] });
      expect(committed!.partitions).toEqual([expect.objectContaining({ partition: 0, offset: '5' })]);
    } finally {
      await admin.disconnect();
    }

    const consumer = kafka.consumer({
      groupId: 'kafkajs-tx-reader',
      readUncommitted: false,
      // Disconnecting waits for the fetch in flight; a short long-poll keeps the test short.
      maxWaitTimeInMs: 100,
    });
    const seen: string[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: 'tx-out', fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          seen.push(message.value?.toString() ?? '');
        },
      });
      await pollUntil(() => seen.includes('c3'), 'the last committed record');
    } finally {
      await consumer.disconnect();
    }
    expect(seen).toEqual(['c1', 'c2', 'c3']);
  }, 30_000);

  it('fences the old producer when a new one initialises the same transactional id', async () => {
    const options = { transactionalId: 'kafkajs-fenced', idempotent: true, maxInFlightRequests: 1 };
    const old = kafka.producer(options);
    await old.connect();
    const stale = await old.transaction();
    await stale.send({ topic: 'tx-out', messages: [{ value: 'zombie' }] });
    const fresh = kafka.producer(options);
    await fresh.connect();
    try {
      // kafkajs initialises the transactional id when the first transaction begins.
      const ok = await fresh.transaction();
      await expect(stale.commit()).rejects.toMatchObject({ type: 'INVALID_PRODUCER_EPOCH' });
      await ok.send({ topic: 'tx-out', messages: [{ value: 'fresh' }] });
      await ok.commit();
    } finally {
      await old.disconnect().catch(() => {});
      await fresh.disconnect();
    }
  });
});
