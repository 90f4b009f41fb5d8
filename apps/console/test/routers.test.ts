import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type GatewayFixture, rejection, startGateway } from './gateway-fixture';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let gateway: GatewayFixture;

beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway?.dispose();
});

async function trpcError(promise: Promise<unknown>): Promise<TRPCError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}

describe('cluster and brokers', () => {
  it('reports health reasons, broker info and counts', async () => {
    const overview = await gateway.caller.cluster.overview({});
    expect(overview.health.status).not.toBe('unreachable');
    expect(overview.health.reasons.length).toBeGreaterThan(0);
    expect(overview.broker?.version).toEqual(expect.any(String));
    expect(overview.counts?.topics).toEqual(expect.any(Number));
    expect(overview.counts).toMatchObject({ underReplicatedPartitions: 0, offlinePartitions: 0 });
    expect(overview.health.reasons).toContainEqual(
      expect.objectContaining({ check: 'replication', ok: true }),
    );
    expect(overview.asOfMs).toBeGreaterThan(0);
  });

  it("counts partitions as Topics does, without the internal topics' partitions", async () => {
    await gateway.caller.topics.create({ name: 'overview-counted', partitions: 3 });
    const [overview, listed, withInternal] = await Promise.all([
      gateway.caller.cluster.overview({}),
      gateway.caller.topics.list({ limit: 1000 }),
      gateway.caller.topics.list({ limit: 1000, includeInternal: true }),
    ]);
    const sum = (topics: readonly { partitionCount: number }[]) =>
      topics.reduce((total, topic) => total + topic.partitionCount, 0);
    // The fixture's __consumer_offsets has 2 partitions, so the two sums differ.
    expect(sum(withInternal.topics)).toBe(sum(listed.topics) + 2);
    expect(overview.counts?.partitions).toBe(sum(listed.topics));
    expect(overview.counts?.topics).toBe(listed.totalCount);
  });

  it('lists the broker as controller', async () => {
    const list = await gateway.caller.brokers.list({});
    expect(list.brokers).toHaveLength(1);
    expect(list.brokers[0]?.isController).toBe(true);
  });
});

describe('topics', () => {
  it('creates from a preset, lists, describes, and refuses a duplicate with CONFLICT', async () => {
    const created = await gateway.caller.topics.create({
      name: 'orders',
      partitions: 3,
      preset: 'retention-7d',
    });
    expect(created.configs['retention.ms']).toBe(String(7 * 24 * 3600 * 1000));
    const list = await gateway.caller.topics.list({ search: 'ord', sortBy: 'name', offset: 0, limit: 10 });
    expect(list.topics.map((topic) => topic.name)).toEqual(['orders']);
    const detail = await gateway.caller.topics.get({ topic: 'orders' });
    expect(detail.partitions).toHaveLength(3);
    expect(detail.partitions[0]).toMatchObject({
      logStartOffset: '0',
      highWatermark: '0',
      underReplicated: false,
    });
    const duplicate = await trpcError(gateway.caller.topics.create({ name: 'orders', partitions: 1 }));
    expect(duplicate.code).toBe('CONFLICT');
  });

  it('creates a compacted topic from the latest-value-per-key preset', async () => {
    const created = await gateway.caller.topics.create({
      name: 'profiles',
      partitions: 1,
      preset: 'compacted',
    });
    expect(created.configs['cleanup.policy']).toBe('compact');
    const { presets } = await gateway.caller.topics.presets({});
    expect(presets.map((preset) => preset.id)).toContain('compacted');
  });

  it('passes a replication factor to the broker, which refuses more replicas than live brokers', async () => {
    await gateway.caller.topics.create({ name: 'one-replica', partitions: 1, replicationFactor: 1 });
    expect((await gateway.caller.topics.get({ topic: 'one-replica' })).replicationFactor).toBe(1);
    const error = await trpcError(
      gateway.caller.topics.create({ name: 'two-replicas', partitions: 1, replicationFactor: 2 }),
    );
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toContain('replication factor 2 is larger than the 1 live broker');
  });

  it('answers NOT_FOUND for an unknown topic', async () => {
    const error = await trpcError(gateway.caller.topics.get({ topic: 'nope' }));
    expect(error.code).toBe('NOT_FOUND');
  });

  it('shows configs with sources and previews a change before applying it', async () => {
    await gateway.caller.topics.create({ name: 'configured', partitions: 1 });
    const preview = await gateway.caller.topics.alterConfigs({
      topic: 'configured',
      changes: [{ name: 'retention.ms', operation: 'set', value: '3600000' }],
      dryRun: true,
    });
    expect(preview.diff[0]).toMatchObject({ name: 'retention.ms', newValue: '3600000' });
    let configs = await gateway.caller.topics.configs({ topic: 'configured' });
    expect(configs.configs.find((entry) => entry.name === 'retention.ms')?.value).not.toBe('3600000');
    await gateway.caller.topics.alterConfigs({
      topic: 'configured',
      changes: [{ name: 'retention.ms', operation: 'set', value: '3600000' }],
      dryRun: false,
    });
    configs = await gateway.caller.topics.configs({ topic: 'configured' });
    expect(configs.configs.find((entry) => entry.name === 'retention.ms')).toMatchObject({
      value: '3600000',
      source: 'topic',
      type: 'long',
      documentation: expect.stringContaining('How long records are kept'),
    });
  });

  it("tells a compacted topic from one that does not compact, for the log cleaner's panel", async () => {
    await gateway.caller.topics.create({
      name: 'compacted',
      partitions: 2,
      configs: { 'cleanup.policy': 'compact' },
    });
    const compacted = await gateway.caller.topics.logCleaner({ topic: 'compacted' });
    // Its rows appear as the cleaner judges each partition: log-cleaner-state.test.ts in the broker
    // and e2e/log-cleaner.spec.ts follow a clean.
    expect(compacted).toMatchObject({ topic: 'compacted', compacted: true });
    await gateway.caller.topics.create({ name: 'deleting', partitions: 1 });
    expect(await gateway.caller.topics.logCleaner({ topic: 'deleting' })).toMatchObject({
      compacted: false,
      replicas: [],
    });
    expect((await trpcError(gateway.caller.topics.logCleaner({ topic: 'nope' }))).code).toBe('NOT_FOUND');
  });

  it('adds partitions, deletes records before an offset and deletes the topic', async () => {
    await gateway.caller.topics.create({ name: 'trim', partitions: 1 });
    for (let index = 0; index < 5; index++) {
      await gateway.caller.messages.produce({
        topic: 'trim',
        partition: 0,
        value: { encoding: 'utf8', data: `m${index}` },
      });
    }
    const trimmed = await gateway.caller.topics.deleteRecords({
      topic: 'trim',
      partitions: [{ partition: 0, beforeOffset: '3' }],
    });
    expect(trimmed.partitions).toEqual([{ partition: 0, logStartOffset: '3' }]);
    const grown = await gateway.caller.topics.addPartitions({ topic: 'trim', count: 2 });
    expect(grown).toMatchObject({ previousCount: 1, count: 2 });
    const shrink = await trpcError(gateway.caller.topics.addPartitions({ topic: 'trim', count: 1 }));
    expect(shrink.code).toBe('BAD_REQUEST');
    await gateway.caller.topics.delete({ topic: 'trim' });
    expect((await trpcError(gateway.caller.topics.get({ topic: 'trim' }))).code).toBe('NOT_FOUND');
  });
});

describe('messages', () => {
  it('produces with ordered duplicate headers and reads the record back by permalink', async () => {
    await gateway.caller.topics.create({ name: 'letters', partitions: 1 });
    const stored = await gateway.caller.messages.produce({
      topic: 'letters',
      key: { encoding: 'utf8', data: 'k' },
      value: { encoding: 'base64', data: Buffer.from([0xff, 0x00, 0x41]).toString('base64') },
      headers: [
        { key: 'h', value: { encoding: 'utf8', data: '1' } },
        { key: 'h', value: { encoding: 'utf8', data: '2' } },
        { key: 'n', value: null },
      ],
      compression: 'gzip',
    });
    const { record } = await gateway.caller.messages.get({
      topic: 'letters',
      partition: stored.partition,
      offset: stored.offset,
    });
    expect(record.key?.text).toBe('k');
    expect(record.value).toMatchObject({
      text: null,
      sizeBytes: 3,
      base64: Buffer.from([0xff, 0x00, 0x41]).toString('base64'),
    });
    expect(record.headers.map((header) => [header.key, header.value?.text ?? null])).toEqual([
      ['h', '1'],
      ['h', '2'],
      ['n', null],
    ]);
    expect(record.compression).toBe('gzip');
    const missing = await trpcError(
      gateway.caller.messages.get({ topic: 'letters', partition: 0, offset: '99' }),
    );
    expect(missing.code).toBe('NOT_FOUND');
  });

  it('browses 3 partitions with exact next paging', async () => {
    await gateway.caller.topics.create({ name: 'paged', partitions: 3 });
    for (let index = 0; index < 30; index++) {
      await gateway.caller.messages.produce({
        topic: 'paged',
        partition: index % 3,
        value: { encoding: 'utf8', data: `v${index}${index % 2 === 0 ? '-even' : ''}` },
      });
    }
    const base = { topic: 'paged', start: 'beginning' as const, maxValueBytes: 1024 };
    const whole = await gateway.caller.messages.browse({ ...base, pageSize: 500 });
    expect(whole.rows).toHaveLength(30);
    expect(whole.done).toBe(true);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await gateway.caller.messages.browse({
        ...base,
        pageSize: 4,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.rows.map((row) => `${row.partition}:${row.offset}`));
      if (page.done) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(whole.rows.map((row) => `${row.partition}:${row.offset}`));
    const even = await gateway.caller.messages.browse({
      ...base,
      pageSize: 500,
      filters: ['value:contains:-even'],
    });
    expect(even.rows).toHaveLength(15);
  });

  it('streams a search: phases, progress, rows and done', async () => {
    const events = [];
    const stream = await gateway.caller.messages.search({
      topic: 'paged',
      start: 'beginning',
      pageSize: 100,
      maxValueBytes: 1024,
      partitions: [1],
    });
    for await (const event of stream) events.push(event);
    expect(events[0]).toMatchObject({ type: 'phase', phase: 'resolving-offsets' });
    const rows = events.flatMap((event) => (event.type === 'rows' ? event.rows : []));
    expect(rows).toHaveLength(10);
    expect(rows.every((row) => row.partition === 1)).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'done', cancelled: false, done: true, nextCursor: '1:10' });
  });
});
