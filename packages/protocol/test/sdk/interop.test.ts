import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { CompressionTypes, Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Admin } from '../../src/client/admin';
import { Client } from '../../src/client/client';
import { Consumer } from '../../src/client/consumer';
import { Producer } from '../../src/client/producer';
import type { CompressionType } from '../../src/records/batch-attributes';
import { pollRecords } from './helpers';

const run = promisify(execFile);

let broker: RunningBroker;
let client: Client;
let admin: Admin;

beforeAll(async () => {
  broker = await startBroker({ topics: { autoCreateEnable: false } });
  client = new Client({ bootstrapServers: [broker.bootstrap] });
  admin = new Admin(client);
});
afterAll(async () => {
  await client.close();
  await broker.dispose();
});

/** Runs Debian's kcat (librdkafka 2.0) against the test broker. */
async function kcat(args: string[]): Promise<string> {
  const { stdout } = await run('kcat', ['-b', broker.bootstrap, '-X', 'broker.address.family=v4', ...args], {
    timeout: 30_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

describe('interoperability', () => {
  it('reads what kafkajs produced: keys, values, headers in order, per partition', async () => {
    const topic = 'from-kafkajs';
    await admin.createTopics([{ name: topic, partitions: 3 }]);
    const kafka = new Kafka({ clientId: 'interop', brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    const messages = Array.from({ length: 120 }, (_, index) => ({
      key: `key-${index % 9}`,
      value: `value-${index}`,
      headers: { index: String(index) },
    }));
    await producer.send({ topic, compression: CompressionTypes.GZIP, messages: messages.slice(0, 60) });
    await producer.send({ topic, messages: messages.slice(60) });
    await producer.disconnect();

    const consumer = new Consumer(client);
    consumer.assign([0, 1, 2].map((partition) => ({ topic, partition, offset: 'earliest' as const })));
    const records = await pollRecords(consumer, 120);
    await consumer.close();
    const byKey = new Map<string, number[]>();
    for (const record of records) {
      const index = Number(record.headers[0]!.value!.toString());
      expect(record.value!.toString()).toBe(`value-${index}`);
      expect(record.key!.toString()).toBe(`key-${index % 9}`);
      byKey.set(record.key!.toString(), [...(byKey.get(record.key!.toString()) ?? []), index]);
    }
    // kafkajs and our murmur2 agree, so each key's records sit on one partition, in send order.
    for (const indexes of byKey.values()) expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
  });

  it.each<CompressionType>(['none', 'gzip', 'snappy', 'lz4', 'zstd'])(
    'produces %s batches that kcat -C reads back',
    async (compression) => {
      const topic = `to-kcat-${compression}`;
      await admin.createTopics([{ name: topic, partitions: 2 }]);
      const producer = new Producer(client, { compression });
      const messages = Array.from({ length: 100 }, (_, index) => ({
        key: `k${index % 5}`,
        value: `${compression}-${index}`,
      }));
      const sent = await producer.send({ topic, messages });
      await producer.close();
      const output = await kcat(['-C', '-t', topic, '-o', 'beginning', '-e', '-f', '%p %k %s\n']);
      const lines = output.trim().split('\n');
      expect(lines).toHaveLength(100);
      const expected = messages.map(
        (message, index) => `${sent[index]!.partition} ${message.key} ${message.value}`,
      );
      expect(new Set(lines)).toEqual(new Set(expected));
      for (const partition of [0, 1]) {
        const fromKcat = lines.filter((line) => line.startsWith(`${partition} `));
        const ours = expected.filter((line) => line.startsWith(`${partition} `));
        expect(fromKcat).toEqual(ours);
      }
    },
  );
});
