import { partitionForKey } from '@weir/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SearchEvent } from '../src/server/api/schemas/messages';
import { type GatewayFixture, startGateway } from './gateway-fixture';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const TOPIC = 'keyed';
const PARTITIONS = 4;
const KEY = 'customer-7';
const keyPartition = partitionForKey(new TextEncoder().encode(KEY), PARTITIONS);

let gateway: GatewayFixture;

beforeAll(async () => {
  gateway = await startGateway();
  await gateway.caller.topics.create({ name: TOPIC, partitions: PARTITIONS });
  // No partition given: the producer places each key with murmur2, as the default partitioner does.
  for (let index = 0; index < 20; index++) {
    await gateway.caller.messages.produce({
      topic: TOPIC,
      key: { encoding: 'utf8', data: `customer-${index}` },
      value: { encoding: 'utf8', data: `order ${index}` },
    });
  }
});
afterAll(async () => {
  await gateway?.dispose();
});

const filters = [`key:equals:${KEY}`];

describe('key → partition pruning', () => {
  it('reads only the partition the key hashes to, and says so', async () => {
    const page = await gateway.caller.messages.browse({ topic: TOPIC, filters });
    expect(page.keyPartition).toEqual({ partition: keyPartition, partitionCount: PARTITIONS });
    expect(page.partitions.map((position) => position.partition)).toEqual([keyPartition]);
    expect(page.rows.map((row) => row.key?.text)).toEqual([KEY]);
    expect(page.cursor).toMatch(new RegExp(`^${keyPartition}:\\d+$`));
  });

  it('reads every partition when asked to, and finds the same record', async () => {
    const page = await gateway.caller.messages.browse({ topic: TOPIC, filters, allPartitions: true });
    expect(page.keyPartition).toBeNull();
    expect(page.partitions).toHaveLength(PARTITIONS);
    expect(page.rows.map((row) => row.key?.text)).toEqual([KEY]);
  });

  it('leaves an explicit selection without the key partition alone', async () => {
    const other = (keyPartition + 1) % PARTITIONS;
    const page = await gateway.caller.messages.browse({ topic: TOPIC, filters, partitions: [other] });
    expect(page.keyPartition).toBeNull();
    expect(page.partitions.map((position) => position.partition)).toEqual([other]);
  });

  it('does not prune on other filters', async () => {
    const page = await gateway.caller.messages.browse({ topic: TOPIC, filters: [`key:contains:${KEY}`] });
    expect(page.keyPartition).toBeNull();
    expect(page.partitions).toHaveLength(PARTITIONS);
  });

  it('names the partition in the streamed phase and done events', async () => {
    const events: SearchEvent[] = [];
    for await (const event of await gateway.caller.messages.search({ topic: TOPIC, filters })) {
      events.push(event);
    }
    const scanning = events.find((event) => event.type === 'phase' && event.phase === 'scanning');
    expect(scanning).toMatchObject({ keyPartition: { partition: keyPartition, partitionCount: PARTITIONS } });
    expect(events.at(-1)).toMatchObject({ type: 'done', keyPartition: { partition: keyPartition } });
  });
});
