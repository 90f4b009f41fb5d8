import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll } from 'vitest';
import { Admin } from '../../src/client/admin';
import { Client } from '../../src/client/client';
import type { Assignor } from '../../src/client/group/assignor';
import { GroupConsumer } from '../../src/client/group/group-consumer';
import type { GroupConsumerOptions } from '../../src/client/group/group-consumer-options';
import { Producer } from '../../src/client/producer';
import { WeirError } from '../../src/errors/weir-error';

/** A broker, a client, an admin and a producer shared by one file's group tests, closed after it. */
export interface GroupTestKit {
  readonly broker: RunningBroker;
  readonly client: Client;
  readonly admin: Admin;
  readonly producer: Producer;
  /** A member with quick heartbeats and manual commits, closed after the file. */
  member(groupId: string, options?: Partial<GroupConsumerOptions>): GroupConsumer;
  /** Produces each id as its value to partition `id % partitions`. */
  produceIds(topic: string, ids: readonly number[], partitions: number): Promise<void>;
}

/**
 * Registers beforeAll/afterAll hooks that start a broker with fast group timings and return a kit
 * whose fields are filled once the hooks ran (read them inside tests only).
 */
export function useGroupTestKit(clientId: string, assignors?: readonly Assignor[]): GroupTestKit {
  const open: GroupConsumer[] = [];
  const kit = {} as { -readonly [Key in keyof GroupTestKit]: GroupTestKit[Key] };
  beforeAll(async () => {
    kit.broker = await startBroker({
      topics: { autoCreateEnable: false },
      groups: { initialRebalanceDelayMs: 100, minSessionTimeoutMs: 1000, offsetsTopicPartitions: 4 },
    });
    kit.client = new Client({ bootstrapServers: [kit.broker.bootstrap], clientId });
    kit.admin = new Admin(kit.client);
    kit.producer = new Producer(kit.client);
  });
  afterAll(async () => {
    try {
      await Promise.all(open.map((consumer) => consumer.close()));
      await kit.producer?.close();
      await kit.client?.close();
    } finally {
      // The broker stops, and its data directory goes, even when a member fails to close.
      await kit.broker?.dispose();
    }
  });
  kit.member = (groupId, options = {}) => {
    const consumer = new GroupConsumer(kit.client, {
      groupId,
      sessionTimeoutMs: 6000,
      heartbeatIntervalMs: 100,
      maxWaitMs: 200,
      autoCommit: false,
      autoOffsetReset: 'earliest',
      ...(assignors === undefined ? {} : { assignors }),
      ...options,
    });
    open.push(consumer);
    return consumer;
  };
  kit.produceIds = async (topic, ids, partitions) => {
    await kit.producer.send({
      topic,
      messages: ids.map((id) => ({ value: String(id), partition: id % partitions })),
    });
  };
  return kit;
}

/** Bounded wait for a condition that has no event of its own. */
export async function until(
  probe: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadlineMs = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadlineMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A member's assigned partition numbers, sorted. */
export const partitionsOf = (consumer: GroupConsumer): number[] =>
  consumer
    .assignment()
    .map((entry) => entry.partition)
    .sort((a, b) => a - b);

/**
 * Subscribes `consumer` to `topic` and, until `stopped()` or the consumer closes, counts every id
 * it receives (values are decimal ids) in `seen`, committing after each poll. A rebalance may end
 * the generation between poll and commit; those records come again, so only WeirErrors are
 * tolerated there.
 */
export async function countIdsWhileRunning(
  consumer: GroupConsumer,
  topic: string,
  seen: Map<number, number>,
  stopped: () => boolean,
): Promise<void> {
  consumer.subscribe([topic]);
  while (!stopped() && consumer.state !== 'closing' && consumer.state !== 'closed') {
    const records = await consumer.poll({ maxWaitMs: 100 });
    for (const record of records) {
      const id = Number(record.value!.toString());
      seen.set(id, (seen.get(id) ?? 0) + 1);
    }
    await consumer.commit().catch((error: unknown) => {
      if (!(error instanceof WeirError)) throw error;
    });
  }
}
