import {
  ErrorCode,
  estimateTimeToZero,
  type GroupLagHistory,
  type HistoryValues,
  WeirError,
} from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { type Consumer, Kafka, logLevel, type Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerConfigInput } from '../src/config/broker-config';
import { lagOf, pollUntil } from './group-fixtures';
import { type InternalSession, internalSession } from './internal-fixtures';

const SAMPLE_INTERVAL_MS = 200;
const TOPIC = 'orders';
const GROUP = 'billing';
/** Records produced to each of the two partitions per step of the rise. */
const PER_PARTITION_STEP = 250;
const RISE_STEPS = 4;
const PEAK_LAG = 2 * PER_PARTITION_STEP * RISE_STEPS;

const OVERRIDES: BrokerConfigInput = {
  topics: { autoCreateEnable: false },
  groups: { initialRebalanceDelayMs: 0, minSessionTimeoutMs: 1000, offsetsTopicPartitions: 3 },
  // Sampled five times a second and written every second, so a test sees samples in test time.
  stats: { history: { sampleIntervalMs: SAMPLE_INTERVAL_MS, persistIntervalMs: 1000 } },
};

/** The values sampled, gaps left out. */
function sampled(values: HistoryValues): number[] {
  return values.filter((value): value is number => value !== null);
}

describe('lag and throughput history of a real broker, with kafkajs', () => {
  let running: RunningBroker;
  let session: InternalSession;
  let kafka: Kafka;
  let producer: Producer;
  let consumer: Consumer;
  const fetchedUpTo = new Map<number, number>();

  beforeAll(async () => {
    running = await startBroker(OVERRIDES);
    session = internalSession(running);
    kafka = new Kafka({ clientId: 'lag-history', brokers: [running.bootstrap], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 2 }] });
    await admin.disconnect();
    producer = kafka.producer();
    await producer.connect();
    consumer = kafka.consumer({
      groupId: GROUP,
      sessionTimeout: 6000,
      heartbeatInterval: 300,
      maxWaitTimeInMs: 100,
    });
    await consumer.connect();
    await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
    // The group commits only when the test says so: its lag is what the test commits.
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ partition, message }) => {
        fetchedUpTo.set(partition, Math.max(fetchedUpTo.get(partition) ?? -1, Number(message.offset)));
      },
    });
  });

  afterAll(async () => {
    await consumer?.disconnect();
    await producer?.disconnect();
    await session?.close();
    await running?.dispose();
  });

  const history = async (): Promise<GroupLagHistory> => {
    const answer = await session.internal.describeLagHistory([GROUP], {
      sinceMs: Date.now() - 60_000,
      includePartitions: true,
    });
    expect(answer.sampleIntervalMs).toBe(SAMPLE_INTERVAL_MS);
    return answer.rows[0]!;
  };
  const newestLag = (group: GroupLagHistory) => sampled(group.totalLag).at(-1);
  const commit = (offset: number) =>
    consumer.commitOffsets([0, 1].map((partition) => ({ topic: TOPIC, partition, offset: String(offset) })));

  it('refuses a negative sinceMs with INVALID_REQUEST naming the field', async () => {
    const caught = await session.internal.describeThroughputHistory([TOPIC], { sinceMs: -5 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(caught).toBeInstanceOf(WeirError);
    expect((caught as WeirError).code).toBe(ErrorCode.INVALID_REQUEST);
    expect((caught as WeirError).message).toContain('sinceMs must be 0 or more');
  });

  it('shows lag rising while nothing is consumed, then falling to zero, with the time-to-zero estimate on the way', async () => {
    await pollUntil(() => lagOf(running.broker, GROUP)?.state === 'Stable', 'the group to be Stable');
    await commit(0);
    await pollUntil(async () => newestLag(await history()) === 0, 'a first sample of the committed group');

    for (let step = 1; step <= RISE_STEPS; step++) {
      await producer.send({
        topic: TOPIC,
        messages: Array.from({ length: 2 * PER_PARTITION_STEP }, (_, index) => ({
          value: `order-${step}-${index}`,
          partition: index % 2,
        })),
      });
      const expected = 2 * PER_PARTITION_STEP * step;
      await pollUntil(async () => newestLag(await history()) === expected, `a sample with lag ${expected}`);
    }

    // Nothing produced or committed for the estimate's buckets: the lag stays where it is.
    const idle = await pollUntil(async () => {
      const estimate = estimateTimeToZero(await history());
      return estimate.producedPerSecond === 0 && estimate.consumedPerSecond === 0 ? estimate : undefined;
    }, 'the estimate to read only idle buckets');
    expect(idle).toMatchObject({ trend: 'not-catching-up', totalLag: PEAK_LAG, secondsToZero: null });

    const end = PER_PARTITION_STEP * RISE_STEPS;
    await pollUntil(
      () => fetchedUpTo.get(0) === end - 1 && fetchedUpTo.get(1) === end - 1,
      'the consumer to have fetched every record',
    );
    await commit(end / 2);
    const halfway = await pollUntil(async () => {
      const group = await history();
      return newestLag(group) === PEAK_LAG / 2 ? group : undefined;
    }, 'a sample with half the lag');
    expect(halfway.partitions.map(({ partition, lag }) => [partition, sampled(lag).at(-1)])).toEqual([
      [0, end / 2],
      [1, end / 2],
    ]);
    const catchingUp = estimateTimeToZero(halfway);
    expect(catchingUp.trend).toBe('catching-up');
    expect(catchingUp.producedPerSecond).toBe(0);
    expect(catchingUp.consumedPerSecond).toBeGreaterThan(0);
    expect(catchingUp.secondsToZero).toBeCloseTo(PEAK_LAG / 2 / catchingUp.consumedPerSecond!, 9);
    // The group consumed 1000 records within the estimate's buckets (about 1.2 s at 200 ms), so
    // at that pace the other 1000 take seconds, not minutes.
    expect(catchingUp.secondsToZero).toBeLessThan(60);

    await commit(end);
    const caughtUp = await pollUntil(async () => {
      const group = await history();
      return newestLag(group) === 0 ? group : undefined;
    }, 'a sample with no lag');
    expect(estimateTimeToZero(caughtUp)).toMatchObject({ trend: 'caught-up', secondsToZero: 0 });

    // The whole curve: up to the peak, never down on the way; then down to zero, never up.
    const lags = sampled(caughtUp.totalLag);
    const peakIndex = lags.indexOf(PEAK_LAG);
    expect(peakIndex).toBeGreaterThan(0);
    const rise = lags.slice(0, peakIndex + 1);
    const fall = lags.slice(peakIndex);
    expect(rise.every((lag, index) => index === 0 || lag >= rise[index - 1]!)).toBe(true);
    expect(fall.every((lag, index) => index === 0 || lag <= fall[index - 1]!)).toBe(true);
    expect(fall).toContain(PEAK_LAG / 2);
    expect(fall.at(-1)).toBe(0);

    const throughput = await session.internal.describeThroughputHistory([TOPIC], {
      sinceMs: Date.now() - 60_000,
    });
    const [orders] = throughput.rows;
    expect(Math.max(...sampled(orders!.recordsInPerSecond))).toBeGreaterThan(0);
    expect(Math.max(...sampled(orders!.recordsOutPerSecond))).toBeGreaterThan(0);
    expect(Math.max(...sampled(orders!.bytesInPerSecond))).toBeGreaterThan(0);

    // A restart of the broker on the same data directory keeps the history.
    await consumer.disconnect();
    await session.close();
    await running.stop();
    const restarted = await startBroker(OVERRIDES, running.dataDir);
    const restartedSession = internalSession(restarted);
    try {
      const answer = await restartedSession.internal.describeLagHistory([GROUP], {
        sinceMs: Date.now() - 60_000,
        includePartitions: false,
      });
      // Read later, its window may have lost the first samples; from the peak on it is the same.
      const kept = sampled(answer.rows[0]!.totalLag);
      const keptPeak = kept.indexOf(PEAK_LAG);
      expect(keptPeak).toBeGreaterThanOrEqual(0);
      expect(kept.slice(keptPeak, keptPeak + fall.length)).toEqual(fall);
    } finally {
      await restartedSession.close();
      await restarted.stop();
    }
  }, 90_000);
});
