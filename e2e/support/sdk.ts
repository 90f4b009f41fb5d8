import { Admin, Client, GroupConsumer, Producer, type ProducerMessage } from '@weir/protocol';
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
