import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Admin } from '../../src/client/admin';
import { Client } from '../../src/client/client';
import { listOffsets } from '../../src/client/list-offsets';
import { TransactionalProducer } from '../../src/client/transaction/transactional-producer';
import { ErrorCode } from '../../src/errors/error-codes';
import { WeirError } from '../../src/errors/weir-error';
import { FindCoordinator } from '../../src/messages/apis/find-coordinator';
import { recordingTransport } from './helpers';
import { kafkajsReadCommitted, readToEnd, rejection } from './txn-test-kit';

/**
 * The SDK's TransactionalProducer end to end against a real broker: what read_committed and
 * read_uncommitted readers (ours and kafkajs) see after commits and aborts, offsets committed in
 * a transaction, and fencing by a second instance.
 */

// kafkajs readers join a group and each reader reads to the end: seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

let broker: RunningBroker;
let client: Client;
let admin: Admin;

const PARTITIONS = 2;

beforeAll(async () => {
  broker = await startBroker({
    topics: { autoCreateEnable: false },
    groups: { initialRebalanceDelayMs: 0, offsetsTopicPartitions: 2 },
    transactions: { stateTopicPartitions: 2 },
  });
  client = new Client({ bootstrapServers: [broker.bootstrap], clientId: 'txn-producer-test' });
  admin = new Admin(client);
});
afterAll(async () => {
  await client.close();
  await broker.dispose();
});

async function createTopic(name: string): Promise<void> {
  await admin.createTopics([{ name, partitions: PARTITIONS }]);
}

describe('TransactionalProducer', () => {
  it('commit shows records to read_committed readers (SDK and kafkajs); abort hides them from all but read_uncommitted', async () => {
    const topic = 'txn-visibility';
    await createTopic(topic);
    const producer = new TransactionalProducer(client, { transactionalId: 'visibility' });
    try {
      await producer.initTransactions();
      expect(producer.state).toBe('ready');

      producer.beginTransaction();
      await producer.send({
        topic,
        messages: [
          { value: 'c1', partition: 0 },
          { value: 'c2', partition: 1 },
          { value: 'c3', partition: 0 },
        ],
      });
      // Stored but not committed: the last stable offset holds read_committed readers before it.
      expect(await lastStableOffset(topic, 0)).toBe(0n);
      expect(await readToEnd(client, topic, 'read_uncommitted')).toEqual([['c1', 'c3'], ['c2']]);
      await producer.commitTransaction();
      expect(producer.state).toBe('ready');
      // Two records and the COMMIT marker.
      expect(await lastStableOffset(topic, 0)).toBe(3n);

      producer.beginTransaction();
      await producer.send({
        topic,
        messages: [
          { value: 'a1', partition: 0 },
          { value: 'a2', partition: 1 },
        ],
      });
      await producer.abortTransaction();
      expect(producer.state).toBe('ready');

      producer.beginTransaction();
      await producer.send({
        topic,
        messages: [
          { value: 'c4', partition: 0 },
          { value: 'c5', partition: 1 },
        ],
      });
      await producer.commitTransaction();
    } finally {
      await producer.close();
    }

    expect(await readToEnd(client, topic, 'read_committed')).toEqual([
      ['c1', 'c3', 'c4'],
      ['c2', 'c5'],
    ]);
    expect(await readToEnd(client, topic, 'read_uncommitted')).toEqual([
      ['c1', 'c3', 'a1', 'c4'],
      ['c2', 'a2', 'c5'],
    ]);
    expect(await kafkajsReadCommitted(broker.bootstrap, topic, ['c4', 'c5'])).toEqual([
      ['c1', 'c3', 'c4'],
      ['c2', 'c5'],
    ]);
  });

  it('sendOffsets commits the group offsets only when the transaction commits', async () => {
    const topic = 'txn-offsets';
    await createTopic(topic);
    const groupId = 'txn-offsets-group';
    const producer = new TransactionalProducer(client, { transactionalId: 'offsets' });
    try {
      await producer.initTransactions();
      producer.beginTransaction();
      await producer.send({ topic, messages: [{ value: 'x', partition: 0 }] });
      await producer.sendOffsets(groupId, [{ topic, partition: 0, offset: 5n }]);
      // Staged, not committed: the group has no offset yet.
      expect(await admin.fetchOffsets(groupId)).toEqual([]);
      await producer.abortTransaction();
      expect(await admin.fetchOffsets(groupId)).toEqual([]);

      producer.beginTransaction();
      // A transaction of offsets only, no records: it still has to reach the coordinator.
      await producer.sendOffsets(groupId, [
        { topic, partition: 0, offset: 7n },
        { topic, partition: 1, offset: 3n, metadata: 'm' },
      ]);
      await producer.commitTransaction();
      const committed = await admin.fetchOffsets(groupId);
      expect(committed.map(({ topic: name, partition, offset }) => ({ name, partition, offset }))).toEqual([
        { name: topic, partition: 0, offset: 7n },
        { name: topic, partition: 1, offset: 3n },
      ]);
    } finally {
      await producer.close();
    }
  });

  it('keeps its connection to the group coordinator across transactions', async () => {
    const topic = 'txn-offsets-reuse';
    await createTopic(topic);
    let lookups = 0;
    const counting = new Client({
      bootstrapServers: [broker.bootstrap],
      transport: recordingTransport((apiKey) => {
        if (apiKey === FindCoordinator.apiKey) lookups++;
      }),
    });
    const producer = new TransactionalProducer(counting, { transactionalId: 'offsets-reuse' });
    try {
      await producer.initTransactions();
      for (let offset = 1n; offset <= 5n; offset++) {
        producer.beginTransaction();
        await producer.sendOffsets('reuse-group', [{ topic, partition: 0, offset }]);
        await producer.commitTransaction();
      }
    } finally {
      await producer.close();
      await counting.close();
    }
    // One lookup for the transaction coordinator, one for the group's: not one per transaction.
    expect(lookups).toBe(2);
    expect((await admin.fetchOffsets('reuse-group'))[0]?.offset).toBe(5n);
  });

  it('a second instance with the same transactional id fences the first', async () => {
    const topic = 'txn-fencing';
    await createTopic(topic);
    const zombie = new TransactionalProducer(client, { transactionalId: 'fenced' });
    const successor = new TransactionalProducer(client, { transactionalId: 'fenced' });
    try {
      await zombie.initTransactions();
      zombie.beginTransaction();
      await zombie.send({ topic, messages: [{ value: 'zombie-1', partition: 0 }] });

      // The successor's InitProducerId bumps the epoch and aborts the zombie's open transaction.
      await successor.initTransactions();
      const sendError = await rejection(
        zombie.send({ topic, messages: [{ value: 'zombie-2', partition: 0 }] }),
      );
      expect(sendError.code).toBe(ErrorCode.INVALID_PRODUCER_EPOCH);
      expect(zombie.state).toBe('fatal');
      expect((await rejection(zombie.commitTransaction())).code).toBe(ErrorCode.INVALID_PRODUCER_EPOCH);
      expect(() => zombie.beginTransaction()).toThrow(
        expect.objectContaining({ code: ErrorCode.INVALID_PRODUCER_EPOCH }),
      );

      successor.beginTransaction();
      await successor.send({ topic, messages: [{ value: 'successor', partition: 0 }] });
      await successor.commitTransaction();
    } finally {
      await zombie.close();
      await successor.close();
    }
    expect((await readToEnd(client, topic, 'read_committed'))[0]).toEqual(['successor']);
  });

  it('a fenced producer that only commits gets INVALID_PRODUCER_EPOCH from EndTxn', async () => {
    const topic = 'txn-fenced-commit';
    await createTopic(topic);
    const zombie = new TransactionalProducer(client, { transactionalId: 'fenced-commit' });
    const successor = new TransactionalProducer(client, { transactionalId: 'fenced-commit' });
    try {
      await zombie.initTransactions();
      zombie.beginTransaction();
      await zombie.send({ topic, messages: [{ value: 'zombie', partition: 1 }] });
      await successor.initTransactions();
      expect((await rejection(zombie.commitTransaction())).code).toBe(ErrorCode.INVALID_PRODUCER_EPOCH);
      expect(zombie.state).toBe('fatal');
    } finally {
      await zombie.close();
      await successor.close();
    }
    expect(await readToEnd(client, topic, 'read_committed')).toEqual([[], []]);
  });
});

/** ListOffsets latest with read_committed: where read_committed readers stop. */
async function lastStableOffset(topic: string, partition: number): Promise<bigint> {
  const answers = await listOffsets(client, [{ topic, partition, spec: 'latest' }], 'read_committed');
  const answer = [...answers.values()][0];
  if (answer === undefined || answer instanceof WeirError) throw answer ?? new Error('no answer');
  return answer.offset;
}
