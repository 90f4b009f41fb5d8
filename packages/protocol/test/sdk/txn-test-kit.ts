import { Kafka, logLevel } from 'kafkajs';
import { expect } from 'vitest';
import { Admin } from '../../src/client/admin';
import type { Client } from '../../src/client/client';
import { Consumer } from '../../src/client/consumer';
import { WeirError } from '../../src/errors/weir-error';
import { until } from './group-test-kit';

/**
 * Every partition's values, in offset order, read from the start to the high watermark of the
 * moment of the call. Positions pass aborted records and markers too, so once each reaches the
 * high watermark everything was read and nothing can show up later: no waiting for silence.
 */
export async function readToEnd(
  client: Client,
  topic: string,
  isolationLevel: 'read_committed' | 'read_uncommitted',
): Promise<string[][]> {
  const ends = await new Admin(client).topicOffsets(topic);
  const consumer = new Consumer(client, { isolationLevel, maxWaitMs: 100 });
  const values: string[][] = ends.map(() => []);
  try {
    consumer.assign(ends.map(({ partition }) => ({ topic, partition, offset: 'earliest' as const })));
    const done = () =>
      ends.every(({ partition, latest }) => (consumer.position(topic, partition) ?? -1n) >= latest);
    const deadlineMs = Date.now() + 15_000;
    while (!done()) {
      if (Date.now() > deadlineMs) throw new Error(`${topic} was not read to its end`);
      for (const record of await consumer.poll()) values[record.partition]!.push(record.value!.toString());
    }
  } finally {
    await consumer.close();
  }
  return values;
}

/** The WeirError `promise` rejects with; fails the test when it resolves or rejects otherwise. */
export async function rejection(promise: Promise<unknown>): Promise<WeirError> {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(WeirError);
  return caught as WeirError;
}

/**
 * What a kafkajs consumer with readUncommitted false reads of `topic`, per partition, once it has
 * seen each partition's `lastPerPartition` value. Records of a partition arrive in offset order,
 * so an aborted record written before that last committed one would have been seen by then.
 */
export async function kafkajsReadCommitted(
  bootstrap: string,
  topic: string,
  lastPerPartition: readonly string[],
): Promise<string[][]> {
  const kafka = new Kafka({
    clientId: 'txn-kafkajs-reader',
    brokers: [bootstrap],
    logLevel: logLevel.NOTHING,
  });
  // A short long-poll: disconnecting waits for the fetch in flight.
  const consumer = kafka.consumer({
    groupId: `${topic}-kafkajs-reader`,
    readUncommitted: false,
    maxWaitTimeInMs: 100,
  });
  const values: string[][] = lastPerPartition.map(() => []);
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        values[partition]!.push(message.value?.toString() ?? '');
      },
    });
    await until(
      () => lastPerPartition.every((last, partition) => values[partition]!.includes(last)),
      'kafkajs to read the last committed record of every partition',
    );
  } finally {
    await consumer.disconnect();
  }
  return values;
}
