import { performance } from 'node:perf_hooks';
import { Kafka, logLevel, type Message } from 'kafkajs';
import { benchValue, type ClientRun, TimedPhase, Window } from './phase';

export interface KafkajsProduceInput {
  bootstrap: string;
  topic: string;
  warmupTopic: string;
  warmupCount: number;
  count: number;
  valueBytes: number;
  acks: -1 | 1;
  recordsPerSend: number;
  sendsInFlight: number;
  /** The timed phase stops sending after this long even if `count` is not reached. */
  maxSeconds: number;
}

export interface KafkajsConsumeInput {
  bootstrap: string;
  topic: string;
  count: number;
  /** Unique per run: the consumer joins this group and starts from the beginning. */
  groupId: string;
}

function kafka(bootstrap: string): Kafka {
  return new Kafka({ clientId: 'weir-bench', brokers: [bootstrap], logLevel: logLevel.NOTHING });
}

/**
 * kafkajs 2.2.4's producer (not idempotent: kafkajs allows that only with one request in flight),
 * sending the same keyless records in the same `send` sizes and window as the SDK run.
 */
export async function kafkajsProduce(input: KafkajsProduceInput): Promise<ClientRun> {
  const producer = kafka(input.bootstrap).producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const value = benchValue(input.valueBytes);
  const messages: Message[] = Array.from({ length: input.recordsPerSend }, () => ({ value }));
  const produce = async (topic: string, count: number, deadlineMs: number): Promise<number> => {
    const window = new Window(input.sendsInFlight);
    let sent = 0;
    while (sent < count && performance.now() < deadlineMs) {
      const chunk = count - sent >= messages.length ? messages : messages.slice(0, count - sent);
      await window.add(producer.send({ topic, acks: input.acks, messages: chunk }));
      sent += chunk.length;
    }
    await window.drain();
    return sent;
  };
  try {
    await produce(input.warmupTopic, input.warmupCount, Number.POSITIVE_INFINITY);
    const phase = new TimedPhase();
    phase.start();
    const sent = await produce(input.topic, input.count, performance.now() + input.maxSeconds * 1000);
    return phase.end(sent, sent * input.valueBytes);
  } finally {
    await producer.disconnect();
  }
}

/**
 * kafkajs's consumer, which only exists as a group member: it joins a fresh group (the broker runs
 * with no initial rebalance delay), reads from the beginning with `eachBatch` and commits nothing.
 * The timed phase includes the join.
 */
export async function kafkajsConsume(input: KafkajsConsumeInput): Promise<ClientRun> {
  const consumer = kafka(input.bootstrap).consumer({
    groupId: input.groupId,
    maxWaitTimeInMs: 500,
    maxBytesPerPartition: 1024 * 1024,
  });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: input.topic, fromBeginning: true });
    const phase = new TimedPhase();
    let received = 0;
    let payloadBytes = 0;
    const done = new Promise<void>((resolve, reject) => {
      phase.start();
      consumer
        .run({
          autoCommit: false,
          eachBatch: async ({ batch }) => {
            for (const message of batch.messages) payloadBytes += message.value?.length ?? 0;
            received += batch.messages.length;
            if (received >= input.count) resolve();
          },
        })
        .catch(reject);
    });
    await done;
    return phase.end(received, payloadBytes);
  } finally {
    await consumer.disconnect();
  }
}
