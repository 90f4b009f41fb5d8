import { Client, Consumer, type ConsumerRecord } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kcat as runKcat } from './kcat-clients';
import { within } from './raw-socket';

/**
 * read_committed consumers against transactions written by a real transactional producer
 * (kafkajs): kcat (librdkafka) with isolation.level=read_committed, kafkajs with
 * readUncommitted: false, and the Weir SDK consumer's default. Each sees committed records only,
 * and a partition whose transaction is still open ends, for them, at its last stable offset.
 */
describe('read_committed clients on transactional partitions', () => {
  const TOPIC = 'txn-clients';
  const SENTINEL = 'sentinel';
  let broker: RunningBroker;
  let kafka: Kafka;
  let producer: Producer;

  beforeAll(async () => {
    broker = await startBroker({
      topics: { autoCreateEnable: false },
      groups: { initialRebalanceDelayMs: 0 },
    });
    kafka = new Kafka({ clientId: 'txn-clients', brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 1 }] });
    await admin.disconnect();
    producer = kafka.producer({
      transactionalId: 'txn-clients-producer',
      maxInFlightRequests: 1,
      idempotent: true,
    });
    await producer.connect();
    // committed-0..2, aborted-0..2 (aborted), plain, committed-3..4, then an open transaction.
    const send = async (values: string[], end: 'commit' | 'abort') => {
      const transaction = await producer.transaction();
      await transaction.send({ topic: TOPIC, messages: values.map((value) => ({ value, partition: 0 })) });
      await (end === 'commit' ? transaction.commit() : transaction.abort());
    };
    await send(['committed-0', 'committed-1', 'committed-2'], 'commit');
    await send(['aborted-0', 'aborted-1', 'aborted-2'], 'abort');
    const plain = kafka.producer();
    await plain.connect();
    await plain.send({ topic: TOPIC, messages: [{ value: 'plain', partition: 0 }] });
    await plain.disconnect();
    await send(['committed-3'], 'commit');
    await send(['aborted-3'], 'abort');
    await send(['committed-4'], 'commit');
    // Last, a committed sentinel: a consumer that has it has everything before it, so kafkajs reads
    // up to it instead of waiting a while for records that should not come.
    await send([SENTINEL], 'commit');
  });
  afterAll(async () => {
    await producer?.disconnect().catch(() => undefined);
    await broker?.dispose();
  });

  const committed = ['committed-0', 'committed-1', 'committed-2', 'plain', 'committed-3', 'committed-4'];
  const everything = [
    'committed-0',
    'committed-1',
    'committed-2',
    'aborted-0',
    'aborted-1',
    'aborted-2',
    'plain',
    'committed-3',
    'aborted-3',
    'committed-4',
  ];

  async function kcat(args: string[]): Promise<string[]> {
    const stdout = await runKcat(broker, ['-C', '-t', TOPIC, '-p', '0', '-o', 'beginning', '-e', ...args]);
    return stdout.trim().split('\n').filter(Boolean);
  }

  /**
   * What a kafkajs consumer gets, in order, before the sentinel of the partition (the topic has
   * one) arrives; the sentinel itself is left out.
   */
  async function kafkajsValues(readUncommitted: boolean): Promise<string[]> {
    const consumer = kafka.consumer({
      groupId: `txn-clients-${readUncommitted ? 'uncommitted' : 'committed'}-${Date.now()}`,
      readUncommitted,
      maxWaitTimeInMs: 200,
    });
    const values: string[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
      const sentinelSeen = new Promise<void>((resolve) => {
        void consumer.run({
          eachMessage: async ({ message }) => {
            const value = message.value!.toString();
            if (value === SENTINEL) resolve();
            else values.push(value);
          },
        });
      });
      await within(sentinelSeen, 20_000, `kafkajs to read up to the sentinel of ${TOPIC}`);
    } finally {
      await consumer.disconnect();
    }
    return values;
  }

  /**
   * What the SDK consumer gets, in order, until its position reaches the partition's end for its
   * isolation level (the last stable offset, or the high watermark with read_uncommitted), as the
   * broker has it: everything the consumer may see has then been delivered, and nothing past it.
   */
  async function sdkValues(
    isolationLevel: 'read_committed' | 'read_uncommitted' | undefined,
  ): Promise<string[]> {
    const stats = broker.broker.partitionStats().find((row) => row.topic === TOPIC && row.partition === 0)!;
    const end = BigInt(
      isolationLevel === 'read_uncommitted'
        ? stats.highWatermark
        : (stats.lastStableOffset ?? stats.highWatermark),
    );
    const client = new Client({ bootstrapServers: [broker.bootstrap], clientId: 'txn-clients-sdk' });
    // maxWaitMs only caps a poll that finds nothing; the loop ends on the position, not on time.
    const consumer = new Consumer(client, { maxWaitMs: 200, isolationLevel });
    try {
      consumer.assign([{ topic: TOPIC, partition: 0, offset: 'earliest' }]);
      const records: ConsumerRecord[] = [];
      const deadlineMs = Date.now() + 10_000;
      while ((consumer.position(TOPIC, 0) ?? -1n) < end && Date.now() < deadlineMs) {
        records.push(...(await consumer.poll()));
      }
      expect(consumer.position(TOPIC, 0)).toBe(end);
      return records.map((record) => record.value!.toString());
    } finally {
      await consumer.close();
      await client.close();
    }
  }

  it('kcat with isolation.level=read_committed sees only committed records', {
    timeout: 30_000,
  }, async () => {
    expect(await kcat(['-X', 'isolation.level=read_committed'])).toEqual([...committed, SENTINEL]);
    expect(await kcat(['-X', 'isolation.level=read_uncommitted'])).toEqual([...everything, SENTINEL]);
  });

  it('kafkajs with readUncommitted: false sees only committed records', { timeout: 60_000 }, async () => {
    expect(await kafkajsValues(false)).toEqual(committed);
    expect(await kafkajsValues(true)).toEqual(everything);
  });

  it('the SDK consumer reads committed by default and everything with read_uncommitted', {
    timeout: 30_000,
  }, async () => {
    expect(await sdkValues(undefined)).toEqual([...committed, SENTINEL]);
    expect(await sdkValues('read_uncommitted')).toEqual([...everything, SENTINEL]);
  });

  it('ends at the last stable offset while a transaction is open', { timeout: 60_000 }, async () => {
    const transaction = await producer.transaction();
    try {
      await transaction.send({ topic: TOPIC, messages: [{ value: 'open-0', partition: 0 }] });
      // kcat -e stops at the LSO instead of waiting for the open transaction.
      expect(await kcat(['-X', 'isolation.level=read_committed'])).toEqual([...committed, SENTINEL]);
      // The SDK consumer reads up to the last stable offset, the open transaction's first record.
      expect(await sdkValues(undefined)).toEqual([...committed, SENTINEL]);
      expect(await sdkValues('read_uncommitted')).toEqual([...everything, SENTINEL, 'open-0']);
    } finally {
      await transaction.abort();
    }
  });
});
