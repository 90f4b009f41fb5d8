import { performance } from 'node:perf_hooks';
import { AckPolicy, connect, DeliverPolicy, type JetStreamManager, StorageType } from 'nats';
import { benchValue, type ClientRun, TimedPhase, Window } from './phase';

export interface NatsPublishInput {
  port: number;
  stream: string;
  count: number;
  valueBytes: number;
  warmupCount: number;
  publishesInFlight: number;
  /** The timed phase stops publishing after this long even if `count` is not reached. */
  maxSeconds: number;
}

export interface NatsConsumeInput {
  port: number;
  stream: string;
  count: number;
}

async function ensureStream(jsm: JetStreamManager, name: string): Promise<void> {
  await jsm.streams.add({ name, subjects: [`${name}.*`], storage: StorageType.File });
}

/**
 * JetStream publish with the `nats` client: every publish waits for its PubAck (the stream has
 * stored it; file storage, no fsync per message), `publishesInFlight` outstanding at a time.
 * Warm-up messages go to a subject of a separate stream.
 */
export async function natsPublish(input: NatsPublishInput): Promise<ClientRun> {
  const connection = await connect({ servers: `127.0.0.1:${input.port}` });
  try {
    const jsm = await connection.jetstreamManager();
    await ensureStream(jsm, input.stream);
    await ensureStream(jsm, `${input.stream}_WARMUP`);
    const js = connection.jetstream();
    const value = benchValue(input.valueBytes);
    const publish = async (subject: string, count: number, deadlineMs: number): Promise<number> => {
      const window = new Window(input.publishesInFlight);
      let sent = 0;
      // The clock is read once per 100 publishes: often enough for the cap, rarely enough to be free.
      while (sent < count && (sent % 100 !== 0 || performance.now() < deadlineMs)) {
        await window.add(js.publish(subject, value));
        sent++;
      }
      await window.drain();
      return sent;
    };
    await publish(`${input.stream}_WARMUP.records`, input.warmupCount, Number.POSITIVE_INFINITY);
    const phase = new TimedPhase();
    phase.start();
    const sent = await publish(
      `${input.stream}.records`,
      input.count,
      performance.now() + input.maxSeconds * 1000,
    );
    return phase.end(sent, sent * input.valueBytes);
  } finally {
    await connection.close();
  }
}

/** A durable pull consumer without acks (like a Kafka consumer), read with `consume()` until `count`. */
export async function natsConsume(input: NatsConsumeInput): Promise<ClientRun> {
  const connection = await connect({ servers: `127.0.0.1:${input.port}` });
  try {
    const jsm = await connection.jetstreamManager();
    await jsm.consumers.add(input.stream, {
      durable_name: 'bench',
      ack_policy: AckPolicy.None,
      deliver_policy: DeliverPolicy.All,
    });
    const consumer = await connection.jetstream().consumers.get(input.stream, 'bench');
    const phase = new TimedPhase();
    phase.start();
    const messages = await consumer.consume({ max_messages: 10_000 });
    let received = 0;
    let payloadBytes = 0;
    for await (const message of messages) {
      payloadBytes += message.data.length;
      if (++received >= input.count) break;
    }
    // Leaving the loop stops the consumer; an explicit close() after that never resolves (nats 2.29).
    return phase.end(received, payloadBytes);
  } finally {
    await connection.close();
  }
}
