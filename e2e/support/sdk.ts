import {
  Admin,
  Client,
  Consumer,
  GroupConsumer,
  Producer,
  type ProducerMessage,
  TransactionalProducer,
} from '@weir/protocol';
import { readClusterInfo } from './e2e-cluster';

/*
 * The SDK side of the browser tests: what an application does against the broker's client
 * listener while the browser watches through the console.
 */

/** Runs `work` with a client on the test broker's client listener, closing it afterwards. */
export async function withClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ bootstrapServers: [readClusterInfo().bootstrap], clientId: 'weir-e2e' });
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

/** Creates a topic and produces `messages` to it, for specs whose subject is not producing. */
export async function seedTopic(
  name: string,
  partitions: number,
  messages: readonly ProducerMessage[],
): Promise<void> {
  await withClient(async (client) => {
    await new Admin(client).createTopics([{ name, partitions }]);
    if (messages.length === 0) return;
    const producer = new Producer(client);
    await producer.send({ topic: name, messages });
    await producer.close();
  });
}

/**
 * A group member that consumes on request: `commitAt` commits chosen offsets (to leave lag behind
 * on purpose), `drain` reads until `count` records arrived and commits them, `close` leaves the
 * group so it becomes empty.
 */
export async function startGroupMember(groupId: string, topic: string) {
  const client = new Client({
    bootstrapServers: [readClusterInfo().bootstrap],
    clientId: 'weir-e2e-consumer',
  });
  const consumer = new GroupConsumer(client, {
    groupId,
    autoCommit: false,
    autoOffsetReset: 'earliest',
    sessionTimeoutMs: 6_000,
    heartbeatIntervalMs: 1_000,
    maxWaitMs: 500,
  });
  consumer.subscribe([topic]);
  await consumer.waitForState('running');
  return {
    async commitAt(offsets: readonly { partition: number; offset: bigint }[]): Promise<void> {
      await consumer.commit(offsets.map((entry) => ({ topic, ...entry })));
    },
    async drain(count: number, timeoutMs = 15_000): Promise<number> {
      let received = 0;
      const deadlineMs = Date.now() + timeoutMs;
      while (received < count && Date.now() < deadlineMs) received += (await consumer.poll()).length;
      await consumer.commit();
      return received;
    },
    async close(): Promise<void> {
      await consumer.close();
      await client.close();
    },
  };
}

/**
 * A transactional producer that begins a transaction and sends `messages` in it without ending
 * it: the transaction stays open (Ongoing) until `commit`, an operator's abort or its timeout.
 * `close` does not abort it (as in the Java client).
 */
export async function openTransaction(
  transactionalId: string,
  topic: string,
  messages: readonly ProducerMessage[],
  transactionTimeoutMs = 120_000,
) {
  const client = new Client({ bootstrapServers: [readClusterInfo().bootstrap], clientId: 'weir-e2e-txn' });
  const producer = new TransactionalProducer(client, { transactionalId, transactionTimeoutMs });
  try {
    await producer.initTransactions();
    producer.beginTransaction();
    await producer.send({ topic, messages });
  } catch (error) {
    await client.close();
    throw error;
  }
  return {
    commit: () => producer.commitTransaction(),
    abort: () => producer.abortTransaction(),
    async close(): Promise<void> {
      await producer.close();
      await client.close();
    },
  };
}

/**
 * The values a read_committed consumer reads from the start of `partitions` up to the given end
 * offsets (the high watermarks: markers count, so the position reaches them once all is read).
 */
export async function readCommittedValues(
  topic: string,
  endOffsets: ReadonlyMap<number, bigint>,
  timeoutMs = 15_000,
): Promise<string[]> {
  return withClient(async (client) => {
    const consumer = new Consumer(client, { isolationLevel: 'read_committed', maxWaitMs: 200 });
    try {
      consumer.assign(
        [...endOffsets.keys()].map((partition) => ({ topic, partition, offset: 'earliest' as const })),
      );
      const values: string[] = [];
      const decoder = new TextDecoder();
      const reachedEnd = () =>
        [...endOffsets].every(([partition, end]) => (consumer.position(topic, partition) ?? -1n) >= end);
      const deadlineMs = Date.now() + timeoutMs;
      while (!reachedEnd()) {
        if (Date.now() > deadlineMs) throw new Error(`read_committed did not reach the end of ${topic}`);
        for (const record of await consumer.poll())
          values.push(decoder.decode(record.value ?? new Uint8Array()));
      }
      return values;
    } finally {
      await consumer.close();
    }
  });
}
