import { Admin, Client, ErrorCode, Producer } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompactedTopic } from './compaction-fixtures';
import { pollUntil } from './group-fixtures';
import { kcat, kcatRecords } from './kcat-clients';

/**
 * A compacted topic through real clients (issue #19): kcat writes 7 keys many times over, the
 * broker's cleaner removes the older values from the closed segments, and kcat and kafkajs then
 * read the latest value of every key at the offset it was written at, across the holes.
 */

const TOPIC = 'prices';
const RECORDS = 400;
const KEYS = 7;

describe('a compacted topic with kcat and kafkajs', () => {
  let broker: RunningBroker;
  let client: Client;

  beforeAll(async () => {
    broker = await startBroker({ log: { cleaner: { backoffMs: 100 } } });
    client = new Client({ bootstrapServers: [broker.bootstrap] });
    await createCompactedTopic(client, TOPIC);
    const lines = Array.from({ length: RECORDS }, (_, index) => `key-${index % KEYS}:value-${index}`);
    await kcat(
      broker,
      ['-P', '-t', TOPIC, '-p', '0', '-K', ':', '-X', 'batch.num.messages=5'],
      `${lines.join('\n')}\n`,
    );
  });
  afterAll(async () => {
    await client?.close();
    await broker?.dispose();
  });

  it('kcat reads the latest value of each key at its own offset once the cleaner has run', async () => {
    const records = await pollUntil(async () => {
      const seen = await kcatRecords(broker, TOPIC, 0);
      return seen.length < RECORDS / 2 ? seen : undefined;
    }, 'the cleaner to remove older values');
    // Produced in order to one partition, record i is at offset i with value "value-i".
    for (const record of records) {
      expect(record.value).toBe(`value-${record.offset}`);
      expect(record.key).toBe(`key-${record.offset % KEYS}`);
    }
    const latest = new Map(records.map((record) => [record.key, record.offset]));
    for (let key = 0; key < KEYS; key++) {
      const lastOffset = RECORDS - KEYS + ((key - (RECORDS % KEYS) + KEYS) % KEYS);
      expect(latest.get(`key-${key}`)).toBe(lastOffset);
    }
    // The log end did not move, and the first offset is still 0.
    const offsets = await kcat(broker, ['-Q', '-t', `${TOPIC}:0:-1`]);
    expect(offsets).toContain(`${TOPIC} [0] offset ${RECORDS}`);
  });

  it('kafkajs reads the same records, from the start and from inside a removed range', async () => {
    const expected = await kcatRecords(broker, TOPIC, 0);
    const kafka = new Kafka({
      clientId: 'compaction',
      brokers: [broker.bootstrap],
      logLevel: logLevel.NOTHING,
    });
    const consumer = kafka.consumer({ groupId: 'compaction-reader' });
    await consumer.connect();
    const seen: { offset: number; value: string }[] = [];
    try {
      await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          seen.push({ offset: Number(message.offset), value: message.value!.toString() });
        },
      });
      await pollUntil(() => seen.length >= expected.length, 'kafkajs to read every record left');
      expect(seen).toEqual(expected.map(({ offset, value }) => ({ offset, value })));

      // Every older value is gone, so the partition starts with a hole: a seek into it continues
      // at the first record that is left.
      const first = expected[0]!.offset;
      expect(first).toBeGreaterThan(1);
      seen.length = 0;
      consumer.seek({ topic: TOPIC, partition: 0, offset: String(first - 1) });
      await pollUntil(() => seen.length > 0, 'a record after the seek');
      expect(seen[0]!.offset).toBe(first);
    } finally {
      await consumer.disconnect();
    }
  });

  it('refuses a record without a key with INVALID_RECORD and stores nothing of its batch', async () => {
    // Produce below v8 has no error message, so the reason (which names the partition) reaches
    // only the broker's answer code; the code is Kafka's.
    const producer = new Producer(client);
    try {
      const refused = producer.send({
        topic: TOPIC,
        messages: [
          { partition: 0, key: 'key-0', value: 'kept?' },
          { partition: 0, value: 'keyless' },
        ],
      });
      await expect(refused).rejects.toMatchObject({ code: ErrorCode.INVALID_RECORD });
    } finally {
      await producer.close();
    }
    const offsets = await kcat(broker, ['-Q', '-t', `${TOPIC}:0:-1`]);
    expect(offsets).toContain(`${TOPIC} [0] offset ${RECORDS}`);
  });

  it('refuses DeleteRecords on a compact-only topic with POLICY_VIOLATION', async () => {
    const refused = new Admin(client).deleteRecords([{ topic: TOPIC, partition: 0, beforeOffset: 1n }]);
    await expect(refused).rejects.toMatchObject({ code: ErrorCode.POLICY_VIOLATION });
  });
});
