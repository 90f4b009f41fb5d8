import { performance } from 'node:perf_hooks';
import { Client, Consumer, Producer, type ProducerMessage } from '@weir/protocol';
import { LatencyRecorder } from '../log/latency';
import { benchValue, type ClientRun, TimedPhase, Window } from './phase';

export interface ProduceInput {
  bootstrap: string;
  topic: string;
  /** Untimed records sent first to another topic, so the JIT and the connections are warm. */
  warmupTopic: string;
  warmupCount: number;
  count: number;
  valueBytes: number;
  acks: -1 | 1;
  recordsPerSend: number;
  sendsInFlight: number;
}

export interface ConsumeInput {
  bootstrap: string;
  topic: string;
  warmupTopic: string;
  warmupCount: number;
  partitionCount: number;
  count: number;
}

export interface LatencyInput {
  bootstrap: string;
  topic: string;
  valueBytes: number;
  acks: -1 | 1;
  ratePerSecond: number;
  warmupSeconds: number;
  seconds: number;
}

export interface LatencyRun {
  sent: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  achievedPerSecond: number;
  clientCpuMs: number;
  seconds: number;
}

async function produce(
  producer: Producer,
  topic: string,
  count: number,
  messages: ProducerMessage[],
  sendsInFlight: number,
): Promise<void> {
  const window = new Window(sendsInFlight);
  for (let sent = 0; sent < count; sent += messages.length) {
    const chunk = count - sent >= messages.length ? messages : messages.slice(0, count - sent);
    await window.add(producer.send({ topic, messages: chunk }));
  }
  await window.drain();
}

/**
 * The SDK producer with its defaults except acks (acks=all is idempotent, as by default): `send`
 * calls of `recordsPerSend` keyless records, `sendsInFlight` of them outstanding at a time.
 */
export async function sdkProduce(input: ProduceInput): Promise<ClientRun> {
  const client = new Client({ bootstrapServers: [input.bootstrap] });
  const producer = new Producer(client, { acks: input.acks });
  const value = benchValue(input.valueBytes);
  const messages: ProducerMessage[] = Array.from({ length: input.recordsPerSend }, () => ({ value }));
  try {
    await produce(producer, input.warmupTopic, input.warmupCount, messages, input.sendsInFlight);
    const phase = new TimedPhase();
    phase.start();
    await produce(producer, input.topic, input.count, messages, input.sendsInFlight);
    return phase.end(input.count, input.count * input.valueBytes);
  } finally {
    await producer.close();
    await client.close();
  }
}

/**
 * How long the warm-up's polls (and so its fetches) may wait at a broker. A fetch parked at a
 * leader whose partitions are all read holds that leader's fetch connection (answers come in
 * request order) until it times out, so with the consumer's own maxWaitMs (1 s) the timed phase's
 * first fetch to that leader would wait behind it. With one broker the last warm-up fetch is never
 * parked; with partitions on several leaders one usually is.
 */
const WARMUP_MAX_WAIT_MS = 20;

/** Polls until at least `count` records came; returns their value bytes. */
async function consume(
  consumer: Consumer,
  count: number,
  exact: boolean,
  maxWaitMs?: number,
): Promise<number> {
  let received = 0;
  let payloadBytes = 0;
  while (received < count) {
    const records = await consumer.poll(maxWaitMs === undefined ? {} : { maxWaitMs });
    for (const record of records) payloadBytes += record.value?.length ?? 0;
    received += records.length;
  }
  // The warm-up topic holds more than is read from it; the timed topic holds exactly `count`.
  if (exact && received !== count) throw new Error(`expected ${count} records, got ${received}`);
  return payloadBytes;
}

/** The SDK partition consumer, every partition assigned from offset 0, polling until `count` records came. */
export async function sdkConsume(input: ConsumeInput): Promise<ClientRun> {
  const client = new Client({ bootstrapServers: [input.bootstrap] });
  const consumer = new Consumer(client, { maxWaitMs: 1000 });
  const assignAll = (topic: string) =>
    consumer.assign(
      Array.from({ length: input.partitionCount }, (_, partition) => ({ topic, partition, offset: 0 })),
    );
  try {
    assignAll(input.warmupTopic);
    await consume(consumer, input.warmupCount, false, WARMUP_MAX_WAIT_MS);
    const phase = new TimedPhase();
    phase.start();
    assignAll(input.topic);
    const payloadBytes = await consume(consumer, input.count, true);
    return phase.end(input.count, payloadBytes);
  } finally {
    await consumer.close();
    await client.close();
  }
}

/** Sleeps the thread for up to this long between sends (see `sdkLatency`). */
const MAX_NAP_MS = 0.05;
const napCell = new Int32Array(new SharedArrayBuffer(4));

/**
 * Produce latency at a fixed rate: one record per `send`, acks as given, lingerMs=0. Node timers
 * have 1 ms granularity, too coarse for a send every 100 µs, so a loop of `setImmediate` turns
 * issues each send at its scheduled time, napping up to 50 µs in `Atomics.wait` when the next one
 * is not due (spinning instead would burn a core that the broker on this 2-core machine needs;
 * the nap delays handling an answer by at most that much). Latency runs from the scheduled time to
 * the resolved send, so a stall of the sender counts against it instead of hiding (no coordinated
 * omission).
 */
export async function sdkLatency(input: LatencyInput): Promise<LatencyRun> {
  const client = new Client({ bootstrapServers: [input.bootstrap] });
  const producer = new Producer(client, { acks: input.acks, lingerMs: 0 });
  const value = benchValue(input.valueBytes);
  const intervalMs = 1000 / input.ratePerSecond;
  try {
    const run = async (seconds: number, recorder: LatencyRecorder | undefined): Promise<number> => {
      const total = Math.round(seconds * input.ratePerSecond);
      const startMs = performance.now();
      const pending: Promise<unknown>[] = [];
      let sent = 0;
      await new Promise<void>((resolve) => {
        const tick = () => {
          const nowMs = performance.now();
          while (sent < total && startMs + sent * intervalMs <= nowMs) {
            const scheduledMs = startMs + sent * intervalMs;
            const done = producer.send({ topic: input.topic, messages: [{ value }] });
            pending.push(recorder ? done.then(() => recorder.record(performance.now() - scheduledMs)) : done);
            sent++;
          }
          if (sent >= total) {
            resolve();
            return;
          }
          const untilNextMs = startMs + sent * intervalMs - performance.now();
          if (untilNextMs > 0) Atomics.wait(napCell, 0, 0, Math.min(untilNextMs, MAX_NAP_MS));
          setImmediate(tick);
        };
        tick();
      });
      await Promise.all(pending);
      return (performance.now() - startMs) / 1000;
    };
    await run(input.warmupSeconds, undefined);
    const recorder = new LatencyRecorder();
    const phase = new TimedPhase();
    phase.start();
    const seconds = await run(input.seconds, recorder);
    const measured = phase.end(recorder.count, recorder.count * input.valueBytes);
    return {
      sent: recorder.count,
      p50Ms: recorder.percentileMs(50),
      p99Ms: recorder.percentileMs(99),
      maxMs: recorder.percentileMs(100),
      achievedPerSecond: recorder.count / seconds,
      clientCpuMs: measured.clientCpuMs,
      seconds,
    };
  } finally {
    await producer.close();
    await client.close();
  }
}
