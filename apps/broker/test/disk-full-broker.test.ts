import { join } from 'node:path';
import { Admin, Client, Consumer, type ConsumerRecord, ErrorCode, Producer } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHealthServer } from '../src/http/health-server';
import type { RunningServer } from '../src/http/listen';
import { pollUntil } from './group-fixtures';
import { mountSmallFilesystem, type SmallFilesystem } from './small-filesystem';

const filesystem = await mountSmallFilesystem(8 * 1024 * 1024);
const describeOnSmallFilesystem = 'mounted' in filesystem ? describe : describe.skip;
const skipNote = 'skipReason' in filesystem ? ` (skipped: ${filesystem.skipReason})` : '';

const VALUE_BYTES = 1024;
const TOPIC = 'fill';

/** Eight records of about 1 KiB with values `<label>-<i>` padded, one batch per send. */
function messages(label: string) {
  return Array.from({ length: 8 }, (_, index) => ({ value: `${label}-${index}`.padEnd(VALUE_BYTES, '.') }));
}

function valuesOf(records: readonly ConsumerRecord[]): string[] {
  return records.map((record) => record.value!.toString().replace(/\.+$/, ''));
}

/** Reads the partition from its start until `count` records came back. */
async function readAll(client: Client, count: number): Promise<ConsumerRecord[]> {
  const consumer = new Consumer(client, { maxWaitMs: 100 });
  try {
    consumer.assign([{ topic: TOPIC, partition: 0, offset: 'earliest' }]);
    const records: ConsumerRecord[] = [];
    await pollUntil(async () => {
      records.push(...(await consumer.poll({ maxWaitMs: 100 })));
      return records.length >= count;
    }, `${count} records`);
    return records;
  } finally {
    await consumer.close();
  }
}

async function produceErrorCount(running: RunningBroker): Promise<number> {
  const text = await running.metrics.registry.metrics();
  const match = text.match(/^weir_request_errors_total\{api="Produce",error="KAFKA_STORAGE_ERROR"\} (\d+)/m);
  return Number(match?.[1] ?? 0);
}

describeOnSmallFilesystem(`a broker whose disk fills up${skipNote}`, () => {
  let small: SmallFilesystem;
  let running: RunningBroker;
  let health: RunningServer;
  let client: Client;
  let admin: Admin;
  /** What the first test left in the partition, in order. */
  const storedBefore: string[] = [];

  beforeAll(async () => {
    if (!('mounted' in filesystem)) return;
    small = filesystem.mounted;
    running = await startBroker(
      { topics: { autoCreateEnable: false }, groups: { offsetsTopicPartitions: 1 } },
      join(small.path, 'broker'),
    );
    health = await startHealthServer({ port: 0, readiness: () => running.broker.readiness() });
    client = new Client({ bootstrapServers: [running.bootstrap], clientId: 'disk-full' });
    admin = new Admin(client);
    await admin.createTopics([{ name: TOPIC, partitions: 1 }]);
  });
  afterAll(async () => {
    await client?.close();
    await health?.close();
    await running?.stop();
    await small?.unmount();
  });

  async function ready(): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`http://127.0.0.1:${health.port}/ready`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('serves acknowledged records while full, refuses writes with KAFKA_STORAGE_ERROR, and writes again once space is freed', async () => {
    await small.fillLeaving(512 * 1024);
    // A producer that does not retry, to see the broker's answer; its records acknowledged are kept.
    const filler = new Client({
      bootstrapServers: [running.bootstrap],
      clientId: 'disk-full-filler',
      retry: { maxAttempts: 1 },
    });
    const fillingProducer = new Producer(filler, { lingerMs: 0 });
    const acknowledged: string[] = [];
    let refusal: unknown;
    for (let round = 0; refusal === undefined; round++) {
      try {
        await fillingProducer.send({ topic: TOPIC, messages: messages(`a${round}`) });
        for (let index = 0; index < 8; index++) acknowledged.push(`a${round}-${index}`);
      } catch (error) {
        refusal = error;
      }
    }
    await fillingProducer.close().catch(() => undefined);
    await filler.close();
    expect(refusal).toMatchObject({ code: ErrorCode.KAFKA_STORAGE_ERROR });
    expect(acknowledged.length).toBeGreaterThan(0);

    // Degraded, not down: /ready stays 200 and names the partition; the gauge counts it.
    const degraded = await ready();
    expect(degraded.status).toBe(200);
    expect(degraded.body).toMatchObject({ status: 'degraded' });
    expect((degraded.body.checks as unknown[])[0]).toMatchObject({
      name: 'partitions',
      ok: false,
      impact: 'degraded',
      problems: [{ subject: `${TOPIC}-0`, state: 'out-of-space', error: expect.stringContaining('ENOSPC') }],
    });
    expect(await running.metrics.registry.metrics()).toContain('weir_partitions_write_degraded 1');

    // Reads of what was acknowledged keep working: Fetch and ListOffsets.
    expect(valuesOf(await readAll(client, acknowledged.length))).toEqual(acknowledged);
    const [latest] = await admin.listOffsets([{ topic: TOPIC, partition: 0, spec: 'latest' }]);
    expect(latest?.offset).toBe(BigInt(acknowledged.length));

    // An idempotent producer that retries (as Kafka clients do on KAFKA_STORAGE_ERROR) is refused
    // while the disk is full, and gets through once space is freed, without a restart.
    const errorsBefore = await produceErrorCount(running);
    const producer = new Producer(client, { lingerMs: 0 });
    const retried = producer.send({ topic: TOPIC, messages: messages('retried') });
    await pollUntil(
      async () => (await produceErrorCount(running)) > errorsBefore,
      'a refused produce of the retrying producer',
    );
    await small.free();
    const [stored] = await retried;
    expect(stored?.offset).toBe(BigInt(acknowledged.length));
    await producer.send({ topic: TOPIC, messages: messages('after') });
    await producer.close();

    const expected = [
      ...acknowledged,
      ...[0, 1, 2, 3, 4, 5, 6, 7].map((index) => `retried-${index}`),
      ...[0, 1, 2, 3, 4, 5, 6, 7].map((index) => `after-${index}`),
    ];
    const everything = valuesOf(await readAll(client, expected.length));
    expect(everything).toEqual(expected);
    const [end] = await admin.listOffsets([{ topic: TOPIC, partition: 0, spec: 'latest' }]);
    expect(end?.offset).toBe(BigInt(expected.length));

    const recovered = await ready();
    expect(recovered).toMatchObject({ status: 200, body: { status: 'ready' } });
    expect(await running.metrics.registry.metrics()).toContain('weir_partitions_write_degraded 0');
    storedBefore.push(...expected);
  });

  it('stops while the disk is full and, restarted with space, still has every acknowledged record once', async () => {
    await small.fillLeaving(256 * 1024);
    const filler = new Client({ bootstrapServers: [running.bootstrap], retry: { maxAttempts: 1 } });
    const fillingProducer = new Producer(filler, { lingerMs: 0 });
    const acknowledged: string[] = [];
    for (let round = 0; ; round++) {
      const sent = await fillingProducer.send({ topic: TOPIC, messages: messages(`b${round}`) }).then(
        () => true,
        () => false,
      );
      if (!sent) break;
      for (let index = 0; index < 8; index++) acknowledged.push(`b${round}-${index}`);
    }
    await fillingProducer.close().catch(() => undefined);
    await filler.close();
    await client.close();
    // Shutting down needs space for indexes, snapshots and checkpoints; what does not fit is
    // recovered at the next start instead.
    await running.stop();
    await small.free();
    running = await startBroker(
      { topics: { autoCreateEnable: false }, groups: { offsetsTopicPartitions: 1 } },
      join(small.path, 'broker'),
    );
    client = new Client({ bootstrapServers: [running.bootstrap], clientId: 'disk-full-restarted' });
    const expected = [...storedBefore, ...acknowledged];
    expect(valuesOf(await readAll(client, expected.length))).toEqual(expected);
  });
});
