import { type Admin, type Client, Consumer, ErrorCode, Producer } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEIR_VERSION } from '../src/version';
import { clientSession, type InternalSession, internalSession, weirFailure } from './internal-fixtures';

let running: RunningBroker;
let session: InternalSession;
let data: { client: Client; admin: Admin };

beforeAll(async () => {
  running = await startBroker({
    topics: { autoCreateEnable: false },
    groups: { offsetsTopicPartitions: 3 },
  });
  session = internalSession(running);
  data = clientSession(running);
  await data.admin.createTopics([
    { name: 'orders', partitions: 3 },
    { name: 'Order-Audit', partitions: 1 },
    { name: 'payments', partitions: 2 },
    { name: 'empty', partitions: 4 },
  ]);
  // Not idempotent, so no producer state: the idempotent test below adds exactly one producer.
  const producer = new Producer(data.client, { idempotent: false, lingerMs: 0 });
  await producer.send({
    topic: 'orders',
    messages: Array.from({ length: 30 }, (_, index) => ({ value: `order-${index}`, partition: index % 3 })),
  });
  await producer.send({ topic: 'payments', messages: [{ value: 'p-0', partition: 0 }] });
  await producer.send({
    topic: 'Order-Audit',
    messages: Array.from({ length: 5 }, (_, index) => ({ value: `audit-${index}`.repeat(20) })),
  });
  await producer.close();
  // Read the 10 records of orders-0 back, so the overview has records out to report.
  const consumer = new Consumer(data.client, { maxWaitMs: 100 });
  consumer.assign([{ topic: 'orders', partition: 0, offset: 'earliest' }]);
  let consumed = 0;
  while (consumed < 10) consumed += (await consumer.poll()).length;
  await consumer.close();
  // Two groups with committed offsets on "orders" (one also on "payments"); written by the admin
  // as for an empty group.
  await data.admin.resetOffsets('billing', { offset: 4 }, { topics: ['orders'] });
  await data.admin.resetOffsets('audit', 'latest', { topics: ['orders', 'payments'] });
});

afterAll(async () => {
  await session?.close();
  await data?.client.close();
  await running?.dispose();
});

describe('describeBroker', () => {
  it('reports identity, checks, counts and the traffic it has seen', async () => {
    const overview = await session.internal.describeBroker();
    expect(overview.nodeId).toBe(0);
    expect(overview.version).toBe(WEIR_VERSION);
    expect(overview.clusterId).toMatch(/\S/);
    expect(overview.startedAtMs).toBeGreaterThan(0);
    expect(overview.startedAtMs).toBeLessThanOrEqual(Date.now());
    expect(overview.listeners).toEqual([
      { name: 'client', host: '127.0.0.1', port: running.port },
      { name: 'internal', host: '127.0.0.1', port: Number(running.internalBootstrap.split(':')[1]) },
    ]);
    expect(overview.checks.map((check) => [check.name, check.ok])).toEqual([
      ['storage', true],
      ['partitions', true],
      ['coordinators', true],
      ['transactions', true],
      ['client-listener', true],
      ['internal-listener', true],
    ]);
    // Four topics, and __consumer_offsets (3 partitions) as the internal one. Partitions are
    // counted as topics are, without the internal topic's: the topic list's own sum.
    expect(overview.topicCount).toBe(4);
    expect(overview.internalTopicCount).toBe(1);
    expect(overview.partitionCount).toBe(3 + 1 + 2 + 4);
    const listed = await session.internal.listTopicSummaries({ limit: 10 });
    expect(overview.partitionCount).toBe(listed.topics.reduce((sum, topic) => sum + topic.partitionCount, 0));
    expect(overview.groupCount).toBe(2);
    // This session's connection and the data client's.
    expect(overview.connectionCount).toBeGreaterThanOrEqual(2);
    expect(overview.logSizeBytes).toBeGreaterThan(0n);
    expect(overview.throughput.windowMs).toBe(60_000);
    expect(overview.throughput.recordsInPerSecond).toBeGreaterThan(0);
    expect(overview.throughput.bytesInPerSecond).toBeGreaterThan(0);
    expect(overview.throughput.requestsPerSecond).toBeGreaterThan(0);
    expect(overview.throughput.bytesOutPerSecond).toBeGreaterThan(0);
    // Records out are counted from the batch headers of what fetches returned: 10 records in a
    // window that has existed for at most a minute and at least a second.
    const recordsOut = overview.throughput.recordsOutPerSecond;
    expect(recordsOut).toBeGreaterThanOrEqual(10 / 60);
    expect(recordsOut).toBeLessThanOrEqual(10);
  });
});

describe('listTopicSummaries', () => {
  it('sorts by name, leaves internal topics out and counts sizes, messages and group lag', async () => {
    const page = await session.internal.listTopicSummaries({ limit: 10 });
    expect(page.totalCount).toBe(4);
    expect(page.topics.map((topic) => topic.name)).toEqual(['Order-Audit', 'empty', 'orders', 'payments']);
    const orders = page.topics.find((topic) => topic.name === 'orders')!;
    expect(orders).toMatchObject({
      internal: false,
      partitionCount: 3,
      replicationFactor: 1,
      messageCount: 30n,
    });
    expect(orders.sizeBytes).toBeGreaterThan(0n);
    // billing committed 4 on each of the 3 partitions of 10 records; audit is at the end.
    expect(orders.groups).toEqual([
      { groupId: 'audit', lag: 0n },
      { groupId: 'billing', lag: 18n },
    ]);
    const payments = page.topics.find((topic) => topic.name === 'payments')!;
    expect(payments.groups).toEqual([{ groupId: 'audit', lag: 0n }]);
    expect(page.topics.find((topic) => topic.name === 'empty')).toMatchObject({
      sizeBytes: 0n,
      messageCount: 0n,
      groups: [],
    });
  });

  it('searches case-insensitively and includes internal topics when asked', async () => {
    const search = await session.internal.listTopicSummaries({ search: 'ORDER', limit: 10 });
    expect(search.topics.map((topic) => topic.name)).toEqual(['Order-Audit', 'orders']);
    expect(search.totalCount).toBe(2);
    const all = await session.internal.listTopicSummaries({ includeInternal: true, limit: 10 });
    expect(all.totalCount).toBe(5);
    // Code-unit order: upper case sorts before '_', which sorts before lower case.
    expect(all.topics.map((topic) => topic.name)).toEqual([
      'Order-Audit',
      '__consumer_offsets',
      'empty',
      'orders',
      'payments',
    ]);
    expect(all.topics[1]).toMatchObject({ internal: true, partitionCount: 3, replicationFactor: 1 });
  });

  it('sorts by partitions, size and messages, ties by name, in both directions', async () => {
    const names = async (sortBy: 'partitions' | 'sizeBytes' | 'messages', descending: boolean) =>
      (await session.internal.listTopicSummaries({ sortBy, descending, limit: 10 })).topics.map(
        (topic) => topic.name,
      );
    expect(await names('partitions', false)).toEqual(['Order-Audit', 'payments', 'orders', 'empty']);
    expect(await names('partitions', true)).toEqual(['empty', 'orders', 'payments', 'Order-Audit']);
    expect(await names('messages', true)).toEqual(['orders', 'Order-Audit', 'payments', 'empty']);
    expect(await names('messages', false)).toEqual(['empty', 'payments', 'Order-Audit', 'orders']);
    const bySize = await session.internal.listTopicSummaries({ sortBy: 'sizeBytes', limit: 10 });
    const sizes = bySize.topics.map((topic) => topic.sizeBytes);
    expect([...sizes].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0))).toEqual(sizes);
    expect(bySize.topics[0]!.name).toBe('empty');
  });

  it('pages with offset and limit over the total count', async () => {
    const first = await session.internal.listTopicSummaries({ limit: 3 });
    const second = await session.internal.listTopicSummaries({ offset: 3, limit: 3 });
    const beyond = await session.internal.listTopicSummaries({ offset: 10, limit: 3 });
    expect(first.topics.map((topic) => topic.name)).toEqual(['Order-Audit', 'empty', 'orders']);
    expect(second.topics.map((topic) => topic.name)).toEqual(['payments']);
    expect([first.totalCount, second.totalCount, beyond.totalCount]).toEqual([4, 4, 4]);
    expect(beyond.topics).toEqual([]);
    const descending = await session.internal.listTopicSummaries({ descending: true, limit: 2 });
    expect(descending.topics.map((topic) => topic.name)).toEqual(['payments', 'orders']);
  });

  it('refuses a limit outside 1..1000, a negative offset and an unknown sort key', async () => {
    for (const query of [{ limit: 0 }, { limit: 1001 }, { limit: 10, offset: -1 }]) {
      const error = await weirFailure(session.internal.listTopicSummaries(query));
      expect(error.code).toBe(ErrorCode.INVALID_REQUEST);
    }
    const badSort = await weirFailure(
      session.internal.listTopicSummaries({ limit: 10, sortBy: 'age' as 'name' }),
    );
    expect(badSort.code).toBe(ErrorCode.INVALID_REQUEST);
  });
});

describe('describePartitions', () => {
  it('shows offsets, segments, size and placement of every partition', async () => {
    const partitions = await session.internal.describePartitions('orders');
    expect(partitions.map((partition) => partition.partition)).toEqual([0, 1, 2]);
    for (const partition of partitions) {
      expect(partition).toMatchObject({
        leaderId: 0,
        replicas: [0],
        isr: [0],
        logStartOffset: 0n,
        logEndOffset: 10n,
        highWatermark: 10n,
        lastStableOffset: 10n,
        producerCount: 0,
      });
      expect(partition.sizeBytes).toBeGreaterThan(0n);
      expect(partition.segments).toHaveLength(1);
      expect(partition.segments[0]!.baseOffset).toBe(0n);
      expect(partition.segments[0]!.sizeBytes).toBe(partition.sizeBytes);
      expect(partition.segments[0]!.maxTimestampMs).toBeGreaterThan(0n);
    }
    const empty = await session.internal.describePartitions('empty');
    expect(empty[0]).toMatchObject({ logEndOffset: 0n, sizeBytes: 0n });
    expect(empty[0]!.segments[0]!.maxTimestampMs).toBe(-1n);
  });

  it('counts the producers with state, such as an idempotent one', async () => {
    await data.admin.createTopics([{ name: 'idempotent', partitions: 1 }]);
    const producer = new Producer(data.client, { idempotent: true, acks: -1, lingerMs: 0 });
    await producer.send({ topic: 'idempotent', messages: [{ value: 'a' }, { value: 'b' }] });
    await producer.close();
    const [partition] = await session.internal.describePartitions('idempotent');
    expect(partition).toMatchObject({ producerCount: 1, logEndOffset: 2n, highWatermark: 2n });
  });

  it('answers UNKNOWN_TOPIC_OR_PARTITION for a topic that does not exist', async () => {
    const error = await weirFailure(session.internal.describePartitions('nope'));
    expect(error.code).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  });
});
