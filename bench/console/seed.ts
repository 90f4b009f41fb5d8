import { performance } from 'node:perf_hooks';
import { Admin, Client, Producer, type ProducerMessage } from '@weir/protocol';
import { Window } from '../broker/phase';

/** `bench-topic-00000` …: digits only in the index, so a typed digit always narrows the list. */
export function topicName(index: number): string {
  return `bench-topic-${String(index).padStart(5, '0')}`;
}

/** The key of record `index` of the message topic; a key filter can single out any record. */
export function recordKey(index: number): string {
  return `key-${index}`;
}

const CREATE_BATCH = 250;
const RECORDS_PER_SEND = 1000;
const SENDS_IN_FLIGHT = 16;

/** Creates `count` single-partition topics, `CREATE_BATCH` per CreateTopics request. */
export async function seedTopics(bootstrap: string, count: number): Promise<number> {
  const client = new Client({ bootstrapServers: [bootstrap] });
  const admin = new Admin(client);
  const startMs = performance.now();
  try {
    for (let start = 0; start < count; start += CREATE_BATCH) {
      const names = Array.from({ length: Math.min(CREATE_BATCH, count - start) }, (_, offset) =>
        topicName(start + offset),
      );
      await admin.createTopics(names.map((name) => ({ name, partitions: 1, replicationFactor: 1 })));
    }
    return (performance.now() - startMs) / 1000;
  } finally {
    await client.close();
  }
}

/** About `valueBytes` of JSON text, so value filters scan realistic bytes. */
function recordValue(index: number, valueBytes: number): Buffer {
  const head = `{"id":${index},"status":"ok","note":"`;
  const tail = '"}';
  return Buffer.from(head + 'x'.repeat(Math.max(0, valueBytes - head.length - tail.length)) + tail);
}

/**
 * Produces `count` keyed records to a new topic of `partitions` partitions, in sends of
 * `RECORDS_PER_SEND` with `SENDS_IN_FLIGHT` outstanding, and checks the broker holds them all. The
 * SDK's default partitioner places them (murmur2 of the key), as most producers do, so a key
 * search that reads only the key's partition still finds every record.
 */
export async function seedRecords(
  bootstrap: string,
  topic: string,
  partitions: number,
  count: number,
  valueBytes: number,
): Promise<number> {
  const client = new Client({ bootstrapServers: [bootstrap] });
  const admin = new Admin(client);
  const producer = new Producer(client, { acks: 1 });
  const startMs = performance.now();
  try {
    await admin.createTopics([{ name: topic, partitions, replicationFactor: 1 }]);
    const window = new Window(SENDS_IN_FLIGHT);
    for (let start = 0; start < count; start += RECORDS_PER_SEND) {
      const messages: ProducerMessage[] = [];
      for (let index = start; index < Math.min(count, start + RECORDS_PER_SEND); index++) {
        messages.push({ key: recordKey(index), value: recordValue(index, valueBytes) });
      }
      await window.add(producer.send({ topic, messages }));
    }
    await window.drain();
    const offsets = await admin.topicOffsets(topic);
    const stored = offsets.reduce((total, offset) => total + Number(offset.latest - offset.earliest), 0);
    if (stored !== count) throw new Error(`${topic} holds ${stored} records, ${count} were produced`);
    return (performance.now() - startMs) / 1000;
  } finally {
    await producer.close();
    await client.close();
  }
}
