import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { type Consumer, Kafka, logLevel, PartitionAssigners } from 'kafkajs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describedConsumerGroup, pollUntil } from './group-fixtures';

const SESSION_TIMEOUT_MS = 3000;

/** One `kcat -G` process (librdkafka 2.0.2's balanced consumer), printing "partition value" lines. */
class KcatMember {
  readonly lines: { partition: number; value: string }[] = [];
  readonly #child: ChildProcess;
  readonly #exited: Promise<unknown>;
  #buffered = '';

  constructor(broker: RunningBroker, groupId: string, topic: string, extra: string[] = []) {
    this.#child = spawn(
      'kcat',
      [
        '-b',
        broker.bootstrap,
        '-X',
        'broker.address.family=v4',
        '-X',
        'auto.offset.reset=earliest',
        '-X',
        `session.timeout.ms=${SESSION_TIMEOUT_MS}`,
        '-X',
        'heartbeat.interval.ms=300',
        ...extra,
        '-u',
        '-f',
        '%p %s\\n',
        '-G',
        groupId,
        topic,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.#exited = once(this.#child, 'exit');
    this.#child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const text = this.#buffered + chunk;
      const complete = text.split('\n');
      this.#buffered = complete.pop()!;
      for (const line of complete) {
        const [partition, value] = line.split(' ');
        this.lines.push({ partition: Number(partition), value: value! });
      }
    });
    // kcat reports rebalances on stderr; reading it keeps the pipe from filling up.
    this.#child.stderr!.resume();
  }

  get partitions(): Set<number> {
    return new Set(this.lines.map((line) => line.partition));
  }

  /** SIGTERM lets kcat leave the group; SIGKILL does not (its session has to expire). */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill(signal);
    await this.#exited;
  }
}

/** Members' partition counts once the group is Stable, else undefined. */
function stablePartitions(
  running: RunningBroker,
  groupId: string,
): { protocol: string | null; counts: number[] } | undefined {
  try {
    const group = describedConsumerGroup(running.broker, groupId);
    if (group.state !== 'Stable') return undefined;
    return {
      protocol: group.protocol,
      counts: group.members.map((member) =>
        (member.assignment?.partitions ?? []).reduce((total, topic) => total + topic.partitions.length, 0),
      ),
    };
  } catch {
    return undefined;
  }
}

describe('consumer groups with kcat (librdkafka 2.0.2)', () => {
  let running: RunningBroker;
  let kafka: Kafka;
  const members: KcatMember[] = [];
  const consumers: Consumer[] = [];

  beforeAll(async () => {
    running = await startBroker({
      topics: { autoCreateEnable: false },
      groups: { initialRebalanceDelayMs: 200, minSessionTimeoutMs: 1000, offsetsTopicPartitions: 8 },
    });
    kafka = new Kafka({ clientId: 'kcat-groups', brokers: [running.bootstrap], logLevel: logLevel.NOTHING });
  });
  afterEach(async () => {
    for (const member of members.splice(0)) await member.stop('SIGKILL');
    for (const consumer of consumers.splice(0)) await consumer.disconnect();
  });
  afterAll(async () => {
    await running.dispose();
  });

  async function createTopic(topic: string, partitions: number): Promise<void> {
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: partitions }] });
    await admin.disconnect();
  }

  async function produce(
    topic: string,
    prefix: string,
    count: number,
    partitions: number,
  ): Promise<string[]> {
    const values = Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic,
      messages: values.map((value, index) => ({ value, partition: index % partitions })),
    });
    await producer.disconnect();
    return values;
  }

  function member(groupId: string, topic: string, extra?: string[]): KcatMember {
    const started = new KcatMember(running, groupId, topic, extra);
    members.push(started);
    return started;
  }

  it('two kcat -G processes share a topic: each gets some partitions, together they see everything once', async () => {
    const topic = 'kcat-shared';
    await createTopic(topic, 4);
    const first = member('kcat-group', topic);
    const second = member('kcat-group', topic);
    await pollUntil(() => {
      const stable = stablePartitions(running, 'kcat-group');
      return stable?.counts.length === 2 && stable.counts.every((count) => count > 0);
    }, 'two kcat members with partitions each');
    const values = await produce(topic, 'shared', 200, 4);
    await pollUntil(() => first.lines.length + second.lines.length >= 200, 'all 200 values');
    const seen = [...first.lines, ...second.lines].map((line) => line.value);
    expect(seen.sort()).toEqual([...values].sort());
    expect(first.partitions.size).toBeGreaterThan(0);
    expect(second.partitions.size).toBeGreaterThan(0);
    expect([...first.partitions].some((partition) => second.partitions.has(partition))).toBe(false);
  }, 60_000);

  it('moves the partitions of a SIGKILLed member after its session timeout', async () => {
    const topic = 'kcat-kill';
    const groupId = 'kcat-kill-group';
    await createTopic(topic, 4);
    const survivor = member(groupId, topic);
    const victim = member(groupId, topic);
    await pollUntil(
      () => stablePartitions(running, groupId)?.counts.join() === '2,2',
      'two members with 2 partitions',
    );
    const killedAtMs = Date.now();
    await victim.stop('SIGKILL');
    await pollUntil(
      () => stablePartitions(running, groupId)?.counts.join() === '4',
      'the survivor holding all four partitions',
    );
    // The session ran out no earlier than one session timeout after the last heartbeat (at most
    // one heartbeat interval before the kill).
    expect(Date.now() - killedAtMs).toBeGreaterThanOrEqual(SESSION_TIMEOUT_MS - 300);
    const values = await produce(topic, 'after-kill', 40, 4);
    await pollUntil(
      () => values.every((value) => survivor.lines.some((line) => line.value === value)),
      'all 40',
    );
    expect(
      new Set(survivor.lines.filter((line) => line.value.startsWith('after-kill')).map((l) => l.partition)),
    ).toEqual(new Set([0, 1, 2, 3]));
  }, 60_000);

  it('a kcat member and a kafkajs member conflict (INCONSISTENT_GROUP_PROTOCOL) unless they share an assignor', async () => {
    const topic = 'mixed';
    const groupId = 'mixed-group';
    await createTopic(topic, 4);
    const kcat = member(groupId, topic);
    await pollUntil(
      () => stablePartitions(running, groupId)?.counts.join() === '4',
      'kcat alone in the group',
    );

    // kafkajs offers only "RoundRobinAssigner"; librdkafka offers "range" and "roundrobin".
    const errors: { type?: string }[] = [];
    const conflicting = kafka.consumer({
      groupId,
      heartbeatInterval: 300,
      retry: { retries: 0, restartOnFailure: async () => false },
    });
    consumers.push(conflicting);
    conflicting.on(conflicting.events.CRASH, (event) =>
      errors.push(event.payload.error as { type?: string }),
    );
    await conflicting.connect();
    await conflicting.subscribe({ topics: [topic] });
    await conflicting
      .run({ eachMessage: async () => {} })
      .catch((error: { type?: string }) => errors.push(error));
    await pollUntil(() => errors.length > 0, 'the kafkajs join to fail');
    expect(errors[0]!.type).toBe('INCONSISTENT_GROUP_PROTOCOL');
    expect(stablePartitions(running, groupId)?.counts).toEqual([4]);

    // The same round-robin assignor under librdkafka's name: both members fit, kcat stays leader
    // and assigns for both (kafkajs's metadata and librdkafka's assignment are the same layout).
    const received: string[] = [];
    const roundrobin = kafka.consumer({
      groupId,
      heartbeatInterval: 300,
      maxWaitTimeInMs: 100,
      partitionAssigners: [(config) => ({ ...PartitionAssigners.roundRobin(config), name: 'roundrobin' })],
    });
    consumers.push(roundrobin);
    await roundrobin.connect();
    await roundrobin.subscribe({ topics: [topic], fromBeginning: true });
    await roundrobin.run({
      eachMessage: async ({ message }) => void received.push(message.value!.toString()),
    });
    await pollUntil(() => {
      const stable = stablePartitions(running, groupId);
      return stable?.protocol === 'roundrobin' && stable.counts.join() === '2,2';
    }, 'kcat and kafkajs sharing the roundrobin assignor');
    const values = await produce(topic, 'mixed', 100, 4);
    await pollUntil(() => kcat.lines.length + received.length >= 100, 'all 100 values across both clients');
    expect([...kcat.lines.map((line) => line.value), ...received].sort()).toEqual([...values].sort());
    expect(kcat.lines.length).toBeGreaterThan(0);
    expect(received.length).toBeGreaterThan(0);
  }, 60_000);
});
