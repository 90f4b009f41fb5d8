import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Admin } from '../../src/client/admin';
import { Client } from '../../src/client/client';
import { TransactionalProducer } from '../../src/client/transaction/transactional-producer';
import { ErrorCode } from '../../src/errors/error-codes';
import { readToEnd, rejection } from './txn-test-kit';

/**
 * Failures that leave a transaction abortable: commit is refused, abort goes on, and the next
 * transaction commits cleanly (under a bumped epoch when a refused batch left a sequence gap).
 */

vi.setConfig({ testTimeout: 30_000 });

let broker: RunningBroker;
let client: Client;
let admin: Admin;
/** The internal listener: the only one serving DescribeTransactions and DescribeProducers. */
let internalClient: Client;
let internalAdmin: Admin;

beforeAll(async () => {
  broker = await startBroker({
    topics: { autoCreateEnable: false },
    groups: { initialRebalanceDelayMs: 0, offsetsTopicPartitions: 2 },
    transactions: { stateTopicPartitions: 2 },
  });
  // Short retries: a send to a deleted topic gives up after them.
  client = new Client({ bootstrapServers: [broker.bootstrap], retry: { maxTotalMs: 1000 } });
  admin = new Admin(client);
  internalClient = new Client({
    bootstrapServers: [broker.internalBootstrap],
    sasl: { mechanism: 'WEIR-TOKEN', token: broker.internalToken },
  });
  internalAdmin = new Admin(internalClient);
});
afterAll(async () => {
  await internalClient.close();
  await client.close();
  await broker.dispose();
});

async function epochOf(transactionalId: string): Promise<number> {
  const [description] = await internalAdmin.describeTransactions([transactionalId]);
  return description!.producerEpoch;
}

describe('TransactionalProducer after an abortable failure', () => {
  it('a batch refused for good needs an abort, which bumps the epoch; the next transaction commits', async () => {
    const topic = 'txn-small-records';
    await admin.createTopics([{ name: topic, partitions: 1, configs: { 'max.message.bytes': '1000' } }]);
    const producer = new TransactionalProducer(client, { transactionalId: 'too-large' });
    try {
      await producer.initTransactions();
      producer.beginTransaction();
      await producer.send({ topic, messages: [{ value: 'kept-1' }] });
      await producer.commitTransaction();
      const epoch = await epochOf('too-large');

      producer.beginTransaction();
      await producer.send({ topic, messages: [{ value: 'lost-1' }] });
      // Numbered and refused: the partition's sequence now has a gap at the broker.
      const refused = await rejection(producer.send({ topic, messages: [{ value: 'x'.repeat(2000) }] }));
      expect(refused.code).toBe(ErrorCode.MESSAGE_TOO_LARGE);
      expect(producer.state).toBe('abortable');
      expect((await rejection(producer.commitTransaction())).code).toBe(ErrorCode.MESSAGE_TOO_LARGE);
      expect((await rejection(producer.send({ topic, messages: [{ value: 'late' }] }))).code).toBe(
        ErrorCode.MESSAGE_TOO_LARGE,
      );
      await producer.abortTransaction();
      expect(producer.state).toBe('ready');
      expect(await epochOf('too-large')).toBe(epoch + 1);

      // Under the new epoch the sequence starts again at 0, so the gap does not matter.
      producer.beginTransaction();
      await producer.send({ topic, messages: [{ value: 'kept-2' }] });
      await producer.commitTransaction();
      const [state] = await internalAdmin.describeProducers(topic);
      expect(state).toMatchObject({ producerEpoch: epoch + 1, lastSequence: 0 });
    } finally {
      await producer.close();
    }
    expect((await readToEnd(client, topic, 'read_committed'))[0]).toEqual(['kept-1', 'kept-2']);
  });

  it('a send to a deleted topic makes the transaction abortable, even when its records never reached a batch', async () => {
    await admin.createTopics([
      { name: 'txn-doomed', partitions: 1 },
      { name: 'txn-survivor', partitions: 1 },
    ]);
    const producer = new TransactionalProducer(client, { transactionalId: 'deleted-topic' });
    try {
      await producer.initTransactions();
      producer.beginTransaction();
      await producer.send({ topic: 'txn-doomed', messages: [{ value: 'before' }] });
      await producer.commitTransaction();
      await admin.deleteTopics(['txn-doomed']);

      producer.beginTransaction();
      await producer.send({ topic: 'txn-survivor', messages: [{ value: 'lost' }] });
      const lost = await rejection(producer.send({ topic: 'txn-doomed', messages: [{ value: 'gone' }] }));
      expect(lost.code).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
      // Committing now would commit "lost" without "gone": the transaction must abort instead.
      expect(producer.state).toBe('abortable');
      expect((await rejection(producer.commitTransaction())).code).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
      await producer.abortTransaction();

      producer.beginTransaction();
      await producer.send({ topic: 'txn-survivor', messages: [{ value: 'kept' }] });
      await producer.commitTransaction();
    } finally {
      await producer.close();
    }
    expect((await readToEnd(client, 'txn-survivor', 'read_committed'))[0]).toEqual(['kept']);
  });
});
