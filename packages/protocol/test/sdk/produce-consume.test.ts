import { createRequire } from 'node:module';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Admin } from '../../src/client/admin';
import { Client } from '../../src/client/client';
import { ClosedError } from '../../src/client/closed-error';
import { Consumer } from '../../src/client/consumer';
import type { ConsumerRecord } from '../../src/client/message';
import { Producer } from '../../src/client/producer';
import { ErrorCode } from '../../src/errors/error-codes';
import { WeirError } from '../../src/errors/weir-error';
import { Fetch } from '../../src/messages/apis/fetch';
import type { CompressionType } from '../../src/records/batch-attributes';
import { deferred, pollRecords, recordingTransport } from './helpers';

const require = createRequire(import.meta.url);
const kafkajsPartitioner = (
  require('kafkajs') as {
    Partitioners: {
      DefaultPartitioner: () => (input: {
        topic: string;
        partitionMetadata: { partitionId: number; leader: number }[];
        message: { key: Buffer };
      }) => number;
    };
  }
).Partitioners.DefaultPartitioner();

let broker: RunningBroker;
let client: Client;
let admin: Admin;

beforeAll(async () => {
  broker = await startBroker({ topics: { autoCreateEnable: false } });
  client = new Client({ bootstrapServers: [broker.bootstrap], clientId: 'sdk-test' });
  admin = new Admin(client);
});
afterAll(async () => {
  await client.close();
  await broker.dispose();
});

async function createTopic(name: string, partitions = 1, configs?: Record<string, string>): Promise<void> {
  await admin.createTopics([{ name, partitions, ...(configs ? { configs } : {}) }]);
}

function consumerFrom(topic: string, partitions: number, options = {}): Consumer {
  const consumer = new Consumer(client, options);
  consumer.assign(Array.from({ length: partitions }, (_, partition) => ({ topic, partition, offset: 0 })));
  return consumer;
}

const text = (bytes: Buffer | null) => (bytes === null ? null : bytes.toString());

describe('produce and consume', () => {
  it.each<CompressionType>(['none', 'gzip', 'snappy', 'lz4', 'zstd'])(
    'round-trips keys, values, ordered headers and timestamps with %s',
    async (compression) => {
      const topic = `codec-${compression}`;
      await createTopic(topic, 2);
      const producer = new Producer(client, { compression });
      const messages = Array.from({ length: 300 }, (_, index) => ({
        key: index % 10 === 0 ? null : `key-${index % 7}`,
        value: index % 50 === 49 ? null : `value-${index}-${'x'.repeat(index % 40)}`,
        headers: [
          { key: 'index', value: String(index) },
          { key: 'dup', value: 'first' },
          { key: 'dup', value: Buffer.from([0, 1, 2]) },
          { key: 'empty', value: null },
        ],
        timestampMs: 1_700_000_000_000 + index,
      }));
      const sent = await producer.send({ topic, messages });
      expect(sent).toHaveLength(300);
      await producer.close();

      const consumer = consumerFrom(topic, 2);
      const records = await pollRecords(consumer, 300);
      await consumer.close();
      const byIndex = new Map(records.map((record) => [Number(text(record.headers[0]!.value)), record]));
      messages.forEach((message, index) => {
        const record = byIndex.get(index)!;
        expect(text(record.key)).toBe(message.key);
        expect(text(record.value)).toBe(message.value);
        expect(record.timestampMs).toBe(message.timestampMs);
        expect(record.timestampType).toBe('create-time');
        expect(record.headers.map((header) => header.key)).toEqual(['index', 'dup', 'dup', 'empty']);
        expect(record.headers[2]!.value).toEqual(Buffer.from([0, 1, 2]));
        expect(record.headers[3]!.value).toBeNull();
        expect(record.partition).toBe(sent[index]!.partition);
        expect(record.offset).toBe(sent[index]!.offset);
      });
    },
  );

  it('keeps 10,000 records in order per partition, sent by many concurrent sends', async () => {
    const topic = 'ten-thousand';
    await createTopic(topic, 3);
    const producer = new Producer(client, { batchBytes: 16 * 1024 });
    const sends = Array.from({ length: 100 }, (_, send) =>
      producer.send({
        topic,
        messages: Array.from({ length: 100 }, (_, index) => {
          const sequence = send * 100 + index;
          return { key: `k${sequence % 13}`, value: String(sequence) };
        }),
      }),
    );
    const results = (await Promise.all(sends)).flat();
    await producer.close();
    const perPartition = new Map<number, bigint[]>();
    for (const result of results)
      perPartition.set(result.partition, [...(perPartition.get(result.partition) ?? []), result.offset]);
    for (const offsets of perPartition.values()) {
      // Offsets are handed out in send order, without gaps or repeats.
      expect(offsets).toEqual(offsets.map((_, index) => BigInt(index)));
    }

    const consumer = consumerFrom(topic, 3);
    const records = await pollRecords(consumer, 10_000);
    await consumer.close();
    const values = new Map<number, number[]>();
    for (const record of records) {
      const list = values.get(record.partition) ?? [];
      list.push(Number(text(record.value)));
      values.set(record.partition, list);
    }
    expect([...values.values()].reduce((total, list) => total + list.length, 0)).toBe(10_000);
    for (const list of values.values()) expect(list).toEqual([...list].sort((left, right) => left - right));
  });

  it("puts keyed records on the partition kafkajs's DefaultPartitioner chooses", async () => {
    const topic = 'keyed-placement';
    await createTopic(topic, 7);
    const producer = new Producer(client);
    const keys = Array.from({ length: 200 }, (_, index) => `customer-${index * 7919}`);
    const sent = await producer.send({ topic, messages: keys.map((key) => ({ key, value: key })) });
    await producer.close();
    const partitionMetadata = Array.from({ length: 7 }, (_, partitionId) => ({ partitionId, leader: 0 }));
    keys.forEach((key, index) => {
      const expected = kafkajsPartitioner({ topic, partitionMetadata, message: { key: Buffer.from(key) } });
      expect(sent[index]!.partition).toBe(expected);
    });
  });

  it('sticks keyless records to one partition per batch, and moves on between batches', async () => {
    const topic = 'sticky';
    await createTopic(topic, 4);
    const producer = new Producer(client);
    const first = await producer.send({
      topic,
      messages: Array.from({ length: 50 }, () => ({ value: 'v' })),
    });
    expect(new Set(first.map((result) => result.partition)).size).toBe(1);
    const used = new Set<number>();
    for (let index = 0; index < 20; index++) {
      const [result] = await producer.send({ topic, messages: [{ value: 'w' }] });
      used.add(result!.partition);
    }
    expect(used.size).toBeGreaterThan(1);
    await producer.close();
  });

  it('retries a batch whose answer was lost without storing it twice (idempotence)', async () => {
    const topic = 'idempotent-retry';
    await createTopic(topic, 2);
    let lost = 0;
    const producer = new Producer(client, {
      testHooks: {
        interceptResponse: (response) => {
          expect(response.baseSequence).toBeGreaterThanOrEqual(0);
          if (response.attempt > 1) return 'deliver';
          lost++;
          return 'lose';
        },
      },
    });
    const sends = Array.from({ length: 20 }, (_, send) =>
      producer.send({
        topic,
        messages: Array.from({ length: 25 }, (_, index) => ({ key: `k${index}`, value: `${send}-${index}` })),
      }),
    );
    const results = (await Promise.all(sends)).flat();
    await producer.close();
    expect(lost).toBeGreaterThan(0);
    const offsets = results.map((result) => `${result.partition}:${result.offset}`);
    expect(new Set(offsets).size).toBe(500);
    const ends = await admin.topicOffsets(topic);
    expect(ends.reduce((total, partition) => total + Number(partition.latest), 0)).toBe(500);
    const consumer = consumerFrom(topic, 2);
    const records = await pollRecords(consumer, 500);
    await consumer.close();
    expect(new Set(records.map((record) => text(record.value))).size).toBe(500);
  });

  it('stores a resent batch twice without idempotence, which shows the hook really resends', async () => {
    const topic = 'not-idempotent-retry';
    await createTopic(topic, 1);
    const producer = new Producer(client, {
      idempotent: false,
      testHooks: { interceptResponse: (response) => (response.attempt === 1 ? 'lose' : 'deliver') },
    });
    await producer.send({ topic, messages: [{ value: 'once' }] });
    await producer.close();
    const [range] = await admin.topicOffsets(topic);
    expect(range!.latest).toBe(2n);
  });

  it('resolves acks=0 sends when written and acks=1 sends with offsets', async () => {
    const topic = 'acks';
    await createTopic(topic, 1);
    const fireAndForget = new Producer(client, { acks: 0 });
    const unacknowledged = await fireAndForget.send({ topic, messages: [{ value: 'a0' }, { value: 'b0' }] });
    expect(unacknowledged.map((result) => result.offset)).toEqual([-1n, -1n]);
    await fireAndForget.close();
    const leader = new Producer(client, { acks: 1 });
    const acknowledged = await leader.send({ topic, messages: [{ value: 'c1' }] });
    expect(acknowledged[0]!.offset).toBe(2n);
    await leader.close();
    const consumer = consumerFrom(topic, 1);
    expect((await pollRecords(consumer, 3)).map((record) => text(record.value))).toEqual(['a0', 'b0', 'c1']);
    await consumer.close();
  });

  it('refuses idempotence without acks=-1 and bad options', () => {
    expect(() => new Producer(client, { acks: 1, idempotent: true })).toThrow(RangeError);
    expect(() => new Producer(client, { maxInFlightPerPartition: 6 })).toThrow(RangeError);
    expect(() => new Producer(client, { lingerMs: -1 })).toThrow(RangeError);
  });

  it('makes send wait for buffer space instead of growing past bufferBytes', async () => {
    const topic = 'backpressure';
    await createTopic(topic, 2);
    let peakBytes = 0;
    const producer: Producer = new Producer(client, {
      bufferBytes: 4096,
      batchBytes: 1024,
      testHooks: {
        interceptResponse: () => {
          peakBytes = Math.max(peakBytes, producer.bufferedBytes);
          return 'deliver';
        },
      },
    });
    const sends = Array.from({ length: 50 }, (_, index) =>
      producer.send({
        topic,
        messages: Array.from({ length: 10 }, () => ({ value: 'x'.repeat(100), key: `${index}` })),
      }),
    );
    expect(producer.bufferedBytes).toBeLessThanOrEqual(4096);
    const results = (await Promise.all(sends)).flat();
    expect(results).toHaveLength(500);
    expect(peakBytes).toBeGreaterThan(0);
    expect(peakBytes).toBeLessThanOrEqual(4096);
    expect(producer.bufferedBytes).toBe(0);
    await expect(producer.send({ topic, messages: [{ value: 'y'.repeat(5000) }] })).rejects.toMatchObject({
      code: ErrorCode.MESSAGE_TOO_LARGE,
    });
    await producer.close();
  });

  it('flush sends a lingering batch at once, and close refuses later sends', async () => {
    const topic = 'flush';
    await createTopic(topic, 1);
    // A linger far beyond the test's timeout: only flush can get this batch out in time.
    const producer = new Producer(client, { lingerMs: 600_000 });
    const sent = producer.send({ topic, messages: [{ value: 'lingering' }] });
    await producer.flush();
    expect((await sent)[0]!.offset).toBe(0n);
    await producer.close();
    await producer.close();
    await expect(producer.send({ topic, messages: [{ value: 'late' }] })).rejects.toBeInstanceOf(ClosedError);
  });

  it('close flushes what is still lingering', async () => {
    const topic = 'close-flushes';
    await createTopic(topic, 1);
    const producer = new Producer(client, { lingerMs: 600_000 });
    const sent = producer.send({ topic, messages: [{ value: 'last words' }] });
    await producer.close();
    expect((await sent)[0]!.offset).toBe(0n);
  });

  it('fails waiting sends when its client closes underneath it', async () => {
    const topic = 'client-closes';
    await createTopic(topic, 1);
    const own = new Client({ bootstrapServers: [broker.bootstrap] });
    const producer = new Producer(own, { lingerMs: 600_000 });
    await own.topic(topic);
    const lingering = producer.send({ topic, messages: [{ value: 'never sent' }] });
    // With the metadata cached, the record is queued within this turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(producer.bufferedBytes).toBeGreaterThan(0);
    await own.close();
    await expect(lingering).rejects.toBeInstanceOf(ClosedError);
    await producer.close();
  });

  it('fails a send to a partition that does not exist', async () => {
    const topic = 'two-partitions';
    await createTopic(topic, 2);
    const producer = new Producer(client);
    await expect(producer.send({ topic, messages: [{ value: 'v', partition: 5 }] })).rejects.toMatchObject({
      code: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    });
    await producer.close();
  });

  it('reports the broker time on LogAppendTime topics', async () => {
    const topic = 'append-time';
    await createTopic(topic, 1, { 'message.timestamp.type': 'LogAppendTime' });
    const producer = new Producer(client);
    const [sent] = await producer.send({ topic, messages: [{ value: 'v', timestampMs: 1000 }] });
    await producer.close();
    expect(sent!.timestampMs).toBeGreaterThan(1000);
    const consumer = consumerFrom(topic, 1);
    const [record] = await pollRecords(consumer, 1);
    await consumer.close();
    expect(record!.timestampType).toBe('log-append-time');
    expect(record!.timestampMs).toBe(sent!.timestampMs);
  });
});

describe('consumer', () => {
  it('wakes a long poll when a record is appended, and keeps other requests flowing meanwhile', async () => {
    const topic = 'long-poll';
    await createTopic(topic, 1);
    const fetchSent = deferred();
    let fetches = 0;
    const watched = new Client({
      bootstrapServers: [broker.bootstrap],
      transport: recordingTransport((apiKey) => {
        if (apiKey !== Fetch.apiKey) return;
        fetches++;
        fetchSent.resolve();
      }),
    });
    const consumer = new Consumer(watched);
    consumer.assign([{ topic, partition: 0, offset: 0 }]);
    // 30 s is far beyond this test's timeout: the poll can only finish in time if the append wakes it.
    const poll = consumer.poll({ maxWaitMs: 30_000 });
    await fetchSent.promise;
    // The parked Fetch has its own connection, so metadata and produce requests are not stuck behind it.
    expect(await new Admin(watched).listTopics()).toContain(topic);
    const producer = new Producer(watched);
    await producer.send({ topic, messages: [{ value: 'wake up' }] });
    const records = await poll;
    expect(records.map((record) => text(record.value))).toEqual(['wake up']);
    // One Fetch, parked at the broker and answered by the append: no polling loop behind it.
    expect(fetches).toBe(1);
    await producer.close();
    await consumer.close();
    await watched.close();
  }, 10_000);

  it('starts from earliest, latest, an offset or a timestamp, and seeks', async () => {
    const topic = 'positions';
    await createTopic(topic, 1);
    const producer = new Producer(client);
    await producer.send({
      topic,
      messages: [1000, 2000, 3000, 4000, 5000].map((timestampMs) => ({
        value: String(timestampMs),
        timestampMs,
      })),
    });
    const consumer = new Consumer(client);
    const values = (records: ConsumerRecord[]) => records.map((record) => text(record.value));

    consumer.assign([{ topic, partition: 0, offset: { timestampMs: 2500 } }]);
    expect(values(await pollRecords(consumer, 3))).toEqual(['3000', '4000', '5000']);

    consumer.seek(topic, 0, 1n);
    expect(consumer.position(topic, 0)).toBe(1n);
    expect(values(await pollRecords(consumer, 4))).toEqual(['2000', '3000', '4000', '5000']);

    consumer.seek(topic, 0, 'earliest');
    expect(values(await pollRecords(consumer, 5))[0]).toBe('1000');

    consumer.seek(topic, 0, { timestampMs: 9_999_999 });
    expect(await consumer.poll({ maxWaitMs: 200 })).toEqual([]);
    expect(consumer.position(topic, 0)).toBe(5n);

    consumer.seek(topic, 0, 'latest');
    expect(await consumer.poll({ maxWaitMs: 200 })).toEqual([]);
    await producer.send({ topic, messages: [{ value: 'after' }] });
    expect(values(await pollRecords(consumer, 1))).toEqual(['after']);

    expect(() => consumer.seek(topic, 1, 0)).toThrow(RangeError);
    await producer.close();
    await consumer.close();
  });

  it('drops records below the position when the batch starts earlier', async () => {
    const topic = 'mid-batch';
    await createTopic(topic, 1);
    const producer = new Producer(client);
    await producer.send({
      topic,
      messages: Array.from({ length: 10 }, (_, index) => ({ value: String(index) })),
    });
    await producer.close();
    const consumer = new Consumer(client);
    consumer.assign([{ topic, partition: 0, offset: 7 }]);
    const records = await pollRecords(consumer, 3);
    expect(records.map((record) => record.offset)).toEqual([7n, 8n, 9n]);
    await consumer.close();
  });

  it('reads large partitions across many fetches, each ending wherever partitionMaxBytes cut it', async () => {
    const topic = 'small-fetches';
    await createTopic(topic, 1);
    const producer = new Producer(client, { batchBytes: 2048 });
    await producer.send({
      topic,
      messages: Array.from({ length: 400 }, (_, index) => ({ value: `${index}`.padEnd(100, '.') })),
    });
    await producer.close();
    const consumer = consumerFrom(topic, 1, { partitionMaxBytes: 3000, maxBytes: 3000 });
    const records = await pollRecords(consumer, 400);
    expect(records.map((record) => record.offset)).toEqual(records.map((_, index) => BigInt(index)));
    await consumer.close();
  });

  it('handles OFFSET_OUT_OF_RANGE as autoOffsetReset says', async () => {
    const topic = 'out-of-range';
    await createTopic(topic, 1);
    const producer = new Producer(client);
    await producer.send({
      topic,
      messages: Array.from({ length: 5 }, (_, index) => ({ value: String(index) })),
    });
    await producer.close();
    await admin.deleteRecords([{ topic, partition: 0, beforeOffset: 2n }]);

    const strict = new Consumer(client, { autoOffsetReset: 'none' });
    strict.assign([{ topic, partition: 0, offset: 1 }]);
    const error = await strict.poll({ maxWaitMs: 2000 }).catch((caught: unknown) => caught as WeirError);
    expect(error).toBeInstanceOf(WeirError);
    expect((error as WeirError).code).toBe(ErrorCode.OFFSET_OUT_OF_RANGE);
    expect((error as WeirError).message).toContain(`${topic}-0`);
    strict.seek(topic, 0, 'earliest');
    expect((await pollRecords(strict, 3)).map((record) => record.offset)).toEqual([2n, 3n, 4n]);
    await strict.close();

    const earliest = new Consumer(client, { autoOffsetReset: 'earliest' });
    earliest.assign([{ topic, partition: 0, offset: 1 }]);
    expect((await pollRecords(earliest, 3)).map((record) => record.offset)).toEqual([2n, 3n, 4n]);
    await earliest.close();

    const latest = new Consumer(client, { autoOffsetReset: 'latest' });
    latest.assign([{ topic, partition: 0, offset: 100 }]);
    expect(await latest.poll({ maxWaitMs: 300 })).toEqual([]);
    expect(latest.position(topic, 0)).toBe(5n);
    await latest.close();
  });

  it('iterates records with for await, and the loop ends when the consumer closes', async () => {
    const topic = 'iterate';
    await createTopic(topic, 1);
    const producer = new Producer(client);
    await producer.send({
      topic,
      messages: Array.from({ length: 5 }, (_, index) => ({ value: String(index) })),
    });
    await producer.close();
    const consumer = consumerFrom(topic, 1, { maxWaitMs: 30_000 });
    const seen: string[] = [];
    for await (const record of consumer) {
      seen.push(text(record.value)!);
      if (seen.length === 5) void consumer.close();
    }
    expect(seen).toEqual(['0', '1', '2', '3', '4']);
    await expect(consumer.poll()).rejects.toBeInstanceOf(ClosedError);
  }, 10_000);

  it('allows one poll at a time', async () => {
    const topic = 'one-poll';
    await createTopic(topic, 1);
    const consumer = consumerFrom(topic, 1);
    const first = consumer.poll({ maxWaitMs: 30_000 });
    await expect(consumer.poll()).rejects.toThrow('already running');
    await consumer.close();
    expect(await first).toEqual([]);
  });
});
