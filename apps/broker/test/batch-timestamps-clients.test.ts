import {
  type Admin,
  type Client,
  ErrorCode,
  encodeRecordBatch,
  InitProducerId,
  Produce,
  Producer,
  type ProducerMessage,
} from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from './group-fixtures';
import { clientSession, weirFailure } from './internal-fixtures';
import { kcat } from './kcat-clients';

/**
 * Batch timestamps are validated, not trusted (issue #20 item 3): a producer that leaves a batch's
 * max timestamp at -1, as Sarama does, still gets a time index that ListOffsets (kcat -Q and the
 * SDK) and time-based retention can use; a LogAppendTime topic shows the broker's time to kcat;
 * and message.timestamp.before.max.ms / after.max.ms refuse records outside them with
 * INVALID_TIMESTAMP (kafkajs and the SDK) while the broker keeps serving.
 */

const HOUR_MS = 3_600_000;

/** A batch of records `timestampsMs` with the max timestamp Sarama sends: -1. */
function saramaBatch(timestampsMs: readonly number[], compression: 'none' | 'gzip' = 'none'): Buffer {
  return encodeRecordBatch({
    records: timestampsMs.map((timestampMs, index) => ({
      value: Buffer.from(`record-${index}`),
      timestampMs,
    })),
    maxTimestampMs: -1,
    compression,
  });
}

/** Produces raw batch bytes to partition 0 with acks=-1; the partition's answer. */
async function producePartition(client: Client, topic: string, records: Buffer) {
  const answer = await client.send('any', Produce, {
    transactionalId: null,
    acks: -1,
    timeoutMs: 10_000,
    topicData: [{ name: topic, partitionData: [{ index: 0, records }] }],
  });
  return answer.responses[0]!.partitionResponses[0]!;
}

/** Produces raw batch bytes to partition 0 with acks=-1; the partition's error code. */
async function produceRaw(client: Client, topic: string, records: Buffer): Promise<number> {
  return (await producePartition(client, topic, records)).errorCode;
}

/** The offset kcat -Q finds for the first record at or after `timestampMs` (-1: none). */
async function kcatOffsetForTime(broker: RunningBroker, topic: string, timestampMs: number): Promise<number> {
  const output = await kcat(broker, ['-Q', '-t', `${topic}:0:${timestampMs}`]);
  const match = /offset (-?\d+)/.exec(output);
  if (match === null) throw new Error(`kcat -Q printed no offset: ${output}`);
  return Number(match[1]);
}

async function sdkOffsetForTime(admin: Admin, topic: string, timestampMs: number): Promise<number> {
  const [answer] = await admin.listOffsets([{ topic, partition: 0, spec: { timestampMs } }]);
  return Number(answer!.offset);
}

async function earliestOffset(admin: Admin, topic: string): Promise<number> {
  const [answer] = await admin.listOffsets([{ topic, partition: 0, spec: 'earliest' }]);
  return Number(answer!.offset);
}

describe('batch timestamps with real clients', () => {
  let broker: RunningBroker;
  let client: Client;
  let admin: Admin;
  let kafka: Kafka;

  beforeAll(async () => {
    broker = await startBroker({ log: { retentionCheckIntervalMs: 200 } });
    ({ client, admin } = clientSession(broker));
    kafka = new Kafka({
      clientId: 'weir-timestamps',
      brokers: [broker.bootstrap],
      logLevel: logLevel.NOTHING,
    });
  });
  afterAll(async () => {
    await client?.close();
    await broker?.dispose();
  });

  const createTopic = (name: string, configs: Record<string, string> = {}) =>
    admin.createTopics([{ name, partitions: 1, replicationFactor: 1, configs }]);

  it('finds records by time in a batch whose producer left the max timestamp at -1', async () => {
    const topic = 'sarama-times';
    await createTopic(topic);
    const baseMs = Date.now() - HOUR_MS;
    expect(await produceRaw(client, topic, saramaBatch([baseMs, baseMs + 1000, baseMs + 2000]))).toBe(
      ErrorCode.NONE,
    );
    expect(
      await produceRaw(client, topic, saramaBatch([baseMs + 3000, baseMs + 5000, baseMs + 4000], 'gzip')),
    ).toBe(ErrorCode.NONE);

    expect(await kcatOffsetForTime(broker, topic, baseMs + 1000)).toBe(1);
    expect(await kcatOffsetForTime(broker, topic, baseMs + 4500)).toBe(4);
    expect(await kcatOffsetForTime(broker, topic, baseMs + 5001)).toBe(-1);
    expect(await sdkOffsetForTime(admin, topic, baseMs + 1500)).toBe(2);
    expect(await sdkOffsetForTime(admin, topic, baseMs + 2500)).toBe(3);
    const [found] = await admin.listOffsets([{ topic, partition: 0, spec: { timestampMs: baseMs + 4001 } }]);
    expect(found).toMatchObject({ offset: 4n, timestampMs: baseMs + 5000 });
  });

  it('deletes a segment of such batches once its records are older than retention.ms', async () => {
    const topic = 'sarama-retention';
    await createTopic(topic, { 'retention.ms': '60000', 'segment.ms': '100' });
    const oldMs = Date.now() - HOUR_MS;
    expect(await produceRaw(client, topic, saramaBatch([oldMs, oldMs + 10, oldMs + 20]))).toBe(
      ErrorCode.NONE,
    );
    // The log manager rolls the segment once segment.ms has passed; retention then deletes it.
    await pollUntil(
      async () => (await earliestOffset(admin, topic)) === 3,
      'retention to delete the segment',
    );
    const consumed = await kcat(broker, ['-C', '-t', topic, '-p', '0', '-o', 'beginning', '-e', '-q']);
    expect(consumed).toBe('');
  });

  it('shows the broker’s append time to kcat on a LogAppendTime topic, whatever the producer sent', async () => {
    const topic = 'append-time';
    await createTopic(topic, { 'message.timestamp.type': 'LogAppendTime' });
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    const beforeMs = Date.now();
    let answer: Awaited<ReturnType<typeof producer.send>>;
    try {
      const oldMs = String(beforeMs - 30 * 24 * HOUR_MS);
      answer = await producer.send({
        topic,
        messages: [
          { value: 'a', partition: 0, timestamp: oldMs },
          { value: 'b', partition: 0, timestamp: oldMs },
        ],
      });
    } finally {
      await producer.disconnect();
    }
    const afterMs = Date.now();
    expect(await produceRaw(client, topic, saramaBatch([beforeMs - HOUR_MS]))).toBe(ErrorCode.NONE);
    const lines = (
      await kcat(broker, ['-C', '-t', topic, '-p', '0', '-o', 'beginning', '-e', '-q', '-f', '%T %s\\n'])
    )
      .trim()
      .split('\n');
    expect(lines.map((line) => line.split(' ')[1])).toEqual(['a', 'b', 'record-0']);
    const times = lines.map((line) => Number(line.split(' ')[0]));
    expect(times[0]).toBe(times[1]);
    for (const timeMs of times) {
      expect(timeMs).toBeGreaterThanOrEqual(beforeMs);
    }
    expect(times[0]).toBeLessThanOrEqual(afterMs);
    // The produce answer carries the same append time, which kafkajs reports.
    expect(Number(answer[0]!.logAppendTime)).toBe(times[0]);
    expect(await kcatOffsetForTime(broker, topic, beforeMs)).toBe(0);
  });

  it('answers a retried idempotent batch on a LogAppendTime topic with its append time, and refuses a producer’s LogAppendTime batch', async () => {
    const topic = 'append-time-retries';
    await createTopic(topic, { 'message.timestamp.type': 'LogAppendTime' });
    const init = await client.send('any', InitProducerId, {
      transactionalId: null,
      transactionTimeoutMs: 60_000,
    });
    expect(init.errorCode).toBe(ErrorCode.NONE);
    const batch = encodeRecordBatch({
      records: [{ value: Buffer.from('once'), timestampMs: Date.now() - HOUR_MS }],
      producerId: init.producerId,
      producerEpoch: init.producerEpoch,
      baseSequence: 0,
    });
    const first = await producePartition(client, topic, Buffer.from(batch));
    expect(first.errorCode).toBe(ErrorCode.NONE);
    expect(first.logAppendTimeMs).toBeGreaterThan(0n);
    const retry = await producePartition(client, topic, Buffer.from(batch));
    expect(retry).toMatchObject({
      errorCode: ErrorCode.NONE,
      baseOffset: first.baseOffset,
      logAppendTimeMs: first.logAppendTimeMs,
    });
    const marked = encodeRecordBatch({
      records: [{ value: Buffer.from('marked'), timestampMs: Date.now() }],
      timestampType: 'log-append-time',
    });
    expect(await produceRaw(client, topic, marked)).toBe(ErrorCode.INVALID_TIMESTAMP);
    expect(await kcat(broker, ['-C', '-t', topic, '-p', '0', '-o', 'beginning', '-e', '-q'])).toBe('once\n');
  });

  it('refuses records outside message.timestamp.before.max.ms and after.max.ms, and keeps serving', async () => {
    const topic = 'bounded-times';
    await createTopic(topic, {
      'message.timestamp.before.max.ms': String(HOUR_MS),
      'message.timestamp.after.max.ms': '60000',
    });
    const producer = kafka.producer({ allowAutoTopicCreation: false, retry: { retries: 0 } });
    await producer.connect();
    try {
      const send = (timestampMs: number, value: string) =>
        producer.send({ topic, messages: [{ value, partition: 0, timestamp: String(timestampMs) }] });
      await expect(send(Date.now() - 2 * HOUR_MS, 'too-old')).rejects.toMatchObject({
        type: 'INVALID_TIMESTAMP',
      });
      await expect(send(Date.now() + 10 * 60_000, 'too-new')).rejects.toMatchObject({
        type: 'INVALID_TIMESTAMP',
      });
      await send(Date.now() - HOUR_MS / 2, 'recent');
    } finally {
      await producer.disconnect();
    }

    const sdkProducer = new Producer(client, { acks: -1 });
    const message = (timestampMs: number, value: string): ProducerMessage => ({
      value,
      partition: 0,
      timestampMs,
    });
    const refused = await weirFailure(
      sdkProducer.send({ topic, messages: [message(Date.now() - 3 * HOUR_MS, 'sdk-too-old')] }),
    );
    expect(refused.code).toBe(ErrorCode.INVALID_TIMESTAMP);
    await sdkProducer.send({ topic, messages: [message(Date.now(), 'sdk-now')] });
    // A batch refused as a whole: its good record is not stored either.
    expect(await produceRaw(client, topic, saramaBatch([Date.now(), Date.now() + HOUR_MS]))).toBe(
      ErrorCode.INVALID_TIMESTAMP,
    );

    const consumed = await kcat(broker, ['-C', '-t', topic, '-p', '0', '-o', 'beginning', '-e', '-q']);
    expect(consumed.trim().split('\n')).toEqual(['recent', 'sdk-now']);
  });
});
