import { AlterClientQuotas, ErrorCode, Metadata } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { Kafka, type logCreator, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawClient } from './raw-client';

/** How long each rate is measured; a few quota samples long, so the window is full. */
const MEASURE_MS = 4_000;
const VALUE_BYTES = 16 * 1024;

/**
 * Byte-rate quotas with real kafkajs clients on a real broker: a producer (consumer) whose client
 * id has producer_byte_rate (consumer_byte_rate) is held to that rate, measured against the same
 * client's unthrottled rate in the same test, and kafkajs sees throttle_time_ms in the answers (its
 * KIP-219 client-side throttling logs it). The quota window is 3 samples of 1 s here, so the rate is
 * judged over at least 2 s (Kafka's default of 11 samples would take 10 s to settle).
 */
describe('client byte-rate quotas throttle real clients', () => {
  let running: RunningBroker;
  let admin: RawClient;
  const throttleLogs: { clientId: string; message: string }[] = [];
  // kafkajs logs "Client side throttling in effect for <n>ms" when an answer carries a throttle time.
  const captureFor =
    (clientId: string): logCreator =>
    () =>
    (entry) => {
      if (entry.log.message.includes('Client side throttling')) {
        throttleLogs.push({ clientId, message: entry.log.message });
      }
    };
  const kafkaFor = (clientId: string) =>
    new Kafka({
      clientId,
      brokers: [running.bootstrap],
      logLevel: logLevel.DEBUG,
      logCreator: captureFor(clientId),
    });

  beforeAll(async () => {
    running = await startBroker({
      quotas: { windowCount: 3, windowSizeSeconds: 1 },
      groups: { initialRebalanceDelayMs: 0 },
    });
    admin = await RawClient.connect(running.bootstrap);
  });
  afterAll(async () => {
    await admin.close();
    await running.dispose();
  });

  async function setQuota(clientId: string, key: string, value: number): Promise<void> {
    const answer = await admin.request(AlterClientQuotas, 0, {
      entries: [
        { entity: [{ entityType: 'client-id', entityName: clientId }], ops: [{ key, value, remove: false }] },
      ],
      validateOnly: false,
    });
    expect(answer.entries[0]!.errorCode).toBe(ErrorCode.NONE);
  }

  /** Bytes per second a kafkajs producer sends in sequential 16 KiB messages for MEASURE_MS. */
  async function produceRate(topic: string, clientId: string): Promise<number> {
    const producer = kafkaFor(clientId).producer({ allowAutoTopicCreation: true });
    await producer.connect();
    try {
      const value = Buffer.alloc(VALUE_BYTES, 7);
      const startedMs = performance.now();
      let bytes = 0;
      while (performance.now() - startedMs < MEASURE_MS) {
        await producer.send({ topic, acks: 1, messages: [{ value }] });
        bytes += VALUE_BYTES;
      }
      return bytes / ((performance.now() - startedMs) / 1000);
    } finally {
      await producer.disconnect();
    }
  }

  /** Bytes per second a kafkajs consumer reads from the start of a topic for MEASURE_MS (or until done). */
  async function consumeRate(topic: string, clientId: string, totalBytes: number): Promise<number> {
    // Small answers (one 64 KiB batch each), so the rate moves in steps well below the quota.
    const consumer = kafkaFor(clientId).consumer({
      groupId: `${clientId}-group`,
      maxWaitTimeInMs: 100,
      maxBytesPerPartition: 64 * 1024,
    });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    let bytes = 0;
    let startedMs = 0;
    let done: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    await consumer.run({
      eachBatch: async ({ batch }) => {
        if (startedMs === 0) startedMs = performance.now();
        for (const message of batch.messages) bytes += message.value?.length ?? 0;
        if (bytes >= totalBytes || performance.now() - startedMs >= MEASURE_MS) done();
      },
    });
    const timer = setTimeout(done, MEASURE_MS + 10_000);
    await finished;
    clearTimeout(timer);
    const elapsedMs = performance.now() - startedMs;
    await consumer.disconnect();
    return bytes / (elapsedMs / 1000);
  }

  it('holds a producer to producer_byte_rate, far below its unthrottled rate', async () => {
    const unthrottled = await produceRate('quota-produce-free', 'free-producer');
    const quota = Math.round(unthrottled / 20);
    await setQuota('slow-producer', 'producer_byte_rate', quota);
    const throttled = await produceRate('quota-produce-slow', 'slow-producer');

    expect(throttled).toBeLessThan(unthrottled / 5);
    expect(throttled).toBeGreaterThan(quota * 0.4);
    expect(throttled).toBeLessThan(quota * 1.6);
    expect(throttleLogs.filter((log) => log.clientId === 'slow-producer').length).toBeGreaterThan(0);
    expect(throttleLogs.filter((log) => log.clientId === 'free-producer')).toEqual([]);
    // Metrics are labelled by the configured entity, whatever the number of clients behind it.
    const labels = { quota: 'producer_byte_rate', entity: 'client-id=slow-producer' };
    const series = async (metric: typeof running.metrics.quotaUsageTotal) =>
      (await metric.get()).values.find((value) => value.labels.entity === labels.entity)?.value ?? 0;
    expect(await series(running.metrics.quotaThrottleSecondsTotal)).toBeGreaterThan(0);
    expect(await series(running.metrics.quotaUsageTotal)).toBeGreaterThan(throttled);
  }, 60_000);

  it('holds a consumer to consumer_byte_rate, far below its unthrottled rate', async () => {
    const topic = 'quota-fetch';
    const producer = kafkaFor('quota-loader').producer({ allowAutoTopicCreation: true });
    await producer.connect();
    const value = Buffer.alloc(VALUE_BYTES, 3);
    const messageCount = 600;
    for (let sent = 0; sent < messageCount; sent += 4) {
      await producer.send({ topic, acks: 1, messages: Array.from({ length: 4 }, () => ({ value })) });
    }
    await producer.disconnect();
    const totalBytes = messageCount * VALUE_BYTES;

    const unthrottled = await consumeRate(topic, 'free-consumer', totalBytes);
    const quota = Math.round(Math.min(unthrottled, totalBytes / 2) / 20);
    await setQuota('slow-consumer', 'consumer_byte_rate', quota);
    const throttled = await consumeRate(topic, 'slow-consumer', totalBytes);

    expect(throttled).toBeLessThan(unthrottled / 5);
    expect(throttled).toBeGreaterThan(quota * 0.3);
    expect(throttled).toBeLessThan(quota * 1.6);
    expect(throttleLogs.filter((log) => log.clientId === 'slow-consumer').length).toBeGreaterThan(0);
    expect(throttleLogs.filter((log) => log.clientId === 'free-consumer')).toEqual([]);
  }, 60_000);

  it('charges handler time to request_percentage: Metadata answers carry the throttle and the connection waits it out', async () => {
    // 0.01 percent of one handler: a tenth of a millisecond per second, which a few requests exceed.
    await setQuota('busy-metadata', 'request_percentage', 0.01);
    const busy = await RawClient.connect(running.bootstrap, 'busy-metadata');
    try {
      let throttleMs = 0;
      for (let sent = 0; sent < 1000 && throttleMs === 0; sent++) {
        throttleMs = (
          await busy.request(Metadata, 6, {
            topics: null,
            allowAutoTopicCreation: false,
            includeClusterAuthorizedOperations: false,
            includeTopicAuthorizedOperations: false,
          })
        ).throttleTimeMs;
      }
      expect(throttleMs).toBeGreaterThan(0);
      // Kafka bounds the request-time throttle at one sample (1 s here).
      expect(throttleMs).toBeLessThanOrEqual(1000);
      const sentMs = performance.now();
      await busy.request(Metadata, 6, {
        topics: null,
        allowAutoTopicCreation: false,
        includeClusterAuthorizedOperations: false,
        includeTopicAuthorizedOperations: false,
      });
      // The muted connection reads the next request only once the throttle time is over.
      expect(performance.now() - sentMs).toBeGreaterThanOrEqual(throttleMs - 5);
      // Other clients are not throttled by it.
      const other = await admin.request(Metadata, 6, {
        topics: null,
        allowAutoTopicCreation: false,
        includeClusterAuthorizedOperations: false,
        includeTopicAuthorizedOperations: false,
      });
      expect(other.throttleTimeMs).toBe(0);
    } finally {
      await busy.close();
    }
  }, 30_000);
});
