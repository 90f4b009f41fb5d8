import { type RunningBroker, startBroker } from '@weir/test-broker';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Admin } from '../../src/client/admin';
import { Client } from '../../src/client/client';
import { TransactionalProducer } from '../../src/client/transaction/transactional-producer';
import { ErrorCode } from '../../src/errors/error-codes';
import { kafkajsReadCommitted, readToEnd } from './txn-test-kit';

/** kafkajs 2.2.4's transactional producer and the SDK's on one topic, read back by both clients. */

vi.setConfig({ testTimeout: 30_000 });

const PARTITIONS = 2;

let broker: RunningBroker;
let client: Client;
let admin: Admin;
let kafka: Kafka;

beforeAll(async () => {
  broker = await startBroker({
    topics: { autoCreateEnable: false },
    groups: { initialRebalanceDelayMs: 0, offsetsTopicPartitions: 2 },
    transactions: { stateTopicPartitions: 2 },
  });
  client = new Client({ bootstrapServers: [broker.bootstrap], clientId: 'txn-kafkajs-test' });
  admin = new Admin(client);
  kafka = new Kafka({
    clientId: 'txn-kafkajs-test',
    brokers: [broker.bootstrap],
    logLevel: logLevel.NOTHING,
  });
});
afterAll(async () => {
  await client.close();
  await broker.dispose();
});

function kafkajsProducer(transactionalId: string) {
  // kafkajs needs one request in flight for idempotence (kafkajs #598).
  return kafka.producer({
    transactionalId,
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
  });
}

describe('kafkajs and SDK transactional producers on one topic', () => {
  it('interleaved commits and aborts from both are read alike by both clients', async () => {
    const topic = 'txn-mixed';
    await admin.createTopics([{ name: topic, partitions: PARTITIONS }]);
    const sdk = new TransactionalProducer(client, { transactionalId: 'mixed-sdk' });
    const kafkajs = kafkajsProducer('mixed-kafkajs');
    await kafkajs.connect();
    try {
      await sdk.initTransactions();
      // Both transactions open at once on both partitions; each commits or aborts on its own.
      sdk.beginTransaction();
      await sdk.send({
        topic,
        messages: [
          { value: 'sdk-c1', partition: 0 },
          { value: 'sdk-c2', partition: 1 },
        ],
      });
      const first = await kafkajs.transaction();
      await first.send({
        topic,
        messages: [
          { value: 'kjs-a1', partition: 0 },
          { value: 'kjs-a2', partition: 1 },
        ],
      });
      await sdk.commitTransaction();
      await first.abort();

      const second = await kafkajs.transaction();
      await second.send({
        topic,
        messages: [
          { value: 'kjs-c1', partition: 0 },
          { value: 'kjs-c2', partition: 1 },
        ],
      });
      sdk.beginTransaction();
      await sdk.send({ topic, messages: [{ value: 'sdk-a1', partition: 1 }] });
      await second.commit();
      await sdk.abortTransaction();

      sdk.beginTransaction();
      await sdk.send({
        topic,
        messages: [
          { value: 'sdk-end-0', partition: 0 },
          { value: 'sdk-end-1', partition: 1 },
        ],
      });
      await sdk.commitTransaction();
    } finally {
      await sdk.close();
      await kafkajs.disconnect();
    }

    const committed = [
      ['sdk-c1', 'kjs-c1', 'sdk-end-0'],
      ['sdk-c2', 'kjs-c2', 'sdk-end-1'],
    ];
    expect(await readToEnd(client, topic, 'read_committed')).toEqual(committed);
    expect(await kafkajsReadCommitted(broker.bootstrap, topic, ['sdk-end-0', 'sdk-end-1'])).toEqual(
      committed,
    );
    expect(await readToEnd(client, topic, 'read_uncommitted')).toEqual([
      ['sdk-c1', 'kjs-a1', 'kjs-c1', 'sdk-end-0'],
      ['sdk-c2', 'kjs-a2', 'kjs-c2', 'sdk-a1', 'sdk-end-1'],
    ]);
  });

  it('kafkajs and the SDK fence each other under one transactional id; offsets commit across them', async () => {
    const topic = 'txn-shared-id';
    await admin.createTopics([{ name: topic, partitions: PARTITIONS }]);
    const sdk = new TransactionalProducer(client, { transactionalId: 'shared-id' });
    const kafkajs = kafkajsProducer('shared-id');
    await kafkajs.connect();
    try {
      await sdk.initTransactions();
      sdk.beginTransaction();
      await sdk.send({ topic, messages: [{ value: 'sdk-zombie', partition: 0 }] });
      // kafkajs initialises the transactional id as its first transaction begins.
      const takeover = await kafkajs.transaction();
      await expect(sdk.commitTransaction()).rejects.toMatchObject({ code: ErrorCode.INVALID_PRODUCER_EPOCH });
      expect(sdk.state).toBe('fatal');
      await takeover.send({ topic, messages: [{ value: 'kjs', partition: 0 }] });
      await takeover.sendOffsets({
        consumerGroupId: 'shared-id-group',
        topics: [{ topic, partitions: [{ partition: 0, offset: '11' }] }],
      });
      await takeover.commit();

      // And back: a new SDK instance fences kafkajs.
      const successor = new TransactionalProducer(client, { transactionalId: 'shared-id' });
      try {
        await successor.initTransactions();
        const stale = await kafkajs.transaction();
        await expect(
          stale.send({ topic, messages: [{ value: 'kjs-zombie', partition: 1 }] }),
        ).rejects.toMatchObject({
          type: 'INVALID_PRODUCER_EPOCH',
        });
        successor.beginTransaction();
        await successor.send({ topic, messages: [{ value: 'sdk', partition: 1 }] });
        await successor.sendOffsets('shared-id-group', [{ topic, partition: 1, offset: 22n }]);
        await successor.commitTransaction();
      } finally {
        await successor.close();
      }
    } finally {
      await sdk.close();
      await kafkajs.disconnect().catch(() => {});
    }
    expect(await readToEnd(client, topic, 'read_committed')).toEqual([['kjs'], ['sdk']]);
    const offsets = await admin.fetchOffsets('shared-id-group');
    expect(offsets.map(({ partition, offset }) => [partition, offset])).toEqual([
      [0, 11n],
      [1, 22n],
    ]);
  });
});
