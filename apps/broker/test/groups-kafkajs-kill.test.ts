import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from './group-fixtures';

const CHILD = new URL('./fixtures/kafkajs-member-child.ts', import.meta.url).pathname;

describe('a SIGKILLed kafkajs member', { timeout: 60_000 }, () => {
  let running: RunningBroker;
  let kafka: Kafka;

  beforeAll(async () => {
    running = await startBroker({
      topics: { autoCreateEnable: false },
      groups: { initialRebalanceDelayMs: 200, minSessionTimeoutMs: 1000, offsetsTopicPartitions: 4 },
    });
    kafka = new Kafka({ clientId: 'kill-test', brokers: [running.bootstrap], logLevel: logLevel.NOTHING });
  });
  afterAll(async () => {
    await running.dispose();
  });

  it('loses its partitions to the survivor once its session times out, and the survivor reads them', async () => {
    const topic = 'kill-split';
    const groupId = 'kill-group';
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 6 }] });
    await admin.disconnect();

    const received = new Map<number, string[]>();
    const survivor = kafka.consumer({
      groupId,
      sessionTimeout: 6000,
      rebalanceTimeout: 10_000,
      heartbeatInterval: 300,
      maxWaitTimeInMs: 100,
    });
    let survivorPartitions: number[] = [];
    survivor.on(survivor.events.GROUP_JOIN, (event) => {
      survivorPartitions = [...(event.payload.memberAssignment[topic] ?? [])].sort((a, b) => a - b);
    });
    await survivor.connect();
    await survivor.subscribe({ topic, fromBeginning: true });
    await survivor.run({
      eachMessage: async ({ partition, message }) => {
        received.set(partition, [...(received.get(partition) ?? []), message.value!.toString()]);
      },
    });

    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, running.bootstrap, groupId, topic], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const childAssignments: string[] = [];
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (line.startsWith('assigned ')) childAssignments.push(line.slice('assigned '.length));
      });
      // Both members hold three partitions each in one stable generation.
      await pollUntil(
        () =>
          childAssignments.length > 0 &&
          survivorPartitions.length === 3 &&
          childAssignments.at(-1)!.split(',').length === 3,
        'the two members to share the partitions',
        { timeoutMs: 30_000 },
      );
      const childPartitions = childAssignments.at(-1)!.split(',').map(Number);
      expect([...survivorPartitions, ...childPartitions].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);

      const killedAtMs = Date.now();
      child.kill('SIGKILL');
      await pollUntil(() => survivorPartitions.length === 6, 'the survivor to get all six partitions', {
        timeoutMs: 30_000,
      });
      // The dead member never said goodbye: only its session timeout could have moved them.
      expect(Date.now() - killedAtMs).toBeGreaterThanOrEqual(5000);

      const producer = kafka.producer();
      await producer.connect();
      await producer.send({
        topic,
        messages: Array.from({ length: 6 }, (_, partition) => ({ value: `after-${partition}`, partition })),
      });
      await producer.disconnect();
      await pollUntil(
        () => childPartitions.every((partition) => received.get(partition)?.includes(`after-${partition}`)),
        "the dead member's partitions to be read by the survivor",
        { timeoutMs: 30_000 },
      );
    } finally {
      child.kill('SIGKILL');
      await exited;
      await survivor.disconnect();
    }
  });
});
