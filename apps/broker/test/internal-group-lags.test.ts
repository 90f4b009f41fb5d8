import { type Admin, AdminItemsError, type Client, ErrorCode, GroupConsumer, Producer } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientSession, type InternalSession, internalSession, weirFailure } from './internal-fixtures';

let running: RunningBroker;
let session: InternalSession;
let data: { client: Client; admin: Admin };
let consumer: GroupConsumer | undefined;

beforeAll(async () => {
  running = await startBroker({
    topics: { autoCreateEnable: false },
    groups: { initialRebalanceDelayMs: 0, minSessionTimeoutMs: 1000, offsetsTopicPartitions: 3 },
  });
  session = internalSession(running);
  data = clientSession(running);
  await data.admin.createTopics([
    { name: 'clicks', partitions: 2 },
    { name: 'views', partitions: 1 },
  ]);
  const producer = new Producer(data.client, { lingerMs: 0 });
  await producer.send({
    topic: 'clicks',
    messages: Array.from({ length: 20 }, (_, index) => ({ value: `c${index}`, partition: index % 2 })),
  });
  await producer.send({ topic: 'views', messages: [{ value: 'v0' }, { value: 'v1' }, { value: 'v2' }] });
  await producer.close();
  await data.admin.resetOffsets('zeta', { offset: 3 }, { topics: ['clicks'] });
  await data.admin.resetOffsets('alpha', 'earliest', { topics: ['clicks', 'views'] });
  await data.admin.resetOffsets('mid', 'latest', { topics: ['views'] });
});

afterAll(async () => {
  await consumer?.close();
  await session?.close();
  await data?.client.close();
  await running?.dispose();
});

describe('describeGroupLags', () => {
  it('answers every group, sorted by id, with lag per partition and in total', async () => {
    const groups = await session.internal.describeGroupLags(null);
    expect(groups.map((group) => group.groupId)).toEqual(['alpha', 'mid', 'zeta']);
    const [alpha, mid, zeta] = groups;
    expect(alpha).toEqual({
      groupId: 'alpha',
      state: 'Empty',
      protocolType: '',
      protocol: '',
      memberCount: 0,
      totalLag: 23n,
      partitions: [
        { topic: 'clicks', partition: 0, committedOffset: 0n, logEndOffset: 10n, lag: 10n, memberId: null },
        { topic: 'clicks', partition: 1, committedOffset: 0n, logEndOffset: 10n, lag: 10n, memberId: null },
        { topic: 'views', partition: 0, committedOffset: 0n, logEndOffset: 3n, lag: 3n, memberId: null },
      ],
    });
    expect(mid).toMatchObject({
      totalLag: 0n,
      partitions: [{ topic: 'views', committedOffset: 3n, lag: 0n }],
    });
    expect(zeta).toMatchObject({
      totalLag: 14n,
      partitions: [
        { topic: 'clicks', partition: 0, committedOffset: 3n, lag: 7n },
        { topic: 'clicks', partition: 1, committedOffset: 3n, lag: 7n },
      ],
    });
  });

  it('answers only the named groups and names the ones that do not exist', async () => {
    const named = await session.internal.describeGroupLags(['zeta', 'mid']);
    expect(named.map((group) => group.groupId)).toEqual(['mid', 'zeta']);
    const error = await weirFailure(session.internal.describeGroupLags(['alpha', 'ghost']));
    expect(error).toBeInstanceOf(AdminItemsError);
    expect(error.code).toBe(ErrorCode.GROUP_ID_NOT_FOUND);
    expect((error as AdminItemsError).failures.map((failure) => failure.item)).toEqual(['ghost']);
  });

  it('shows the assigned member of each partition once a consumer group is stable', async () => {
    consumer = new GroupConsumer(data.client, {
      groupId: 'live',
      sessionTimeoutMs: 6000,
      heartbeatIntervalMs: 100,
      maxWaitMs: 100,
      autoCommit: false,
      autoOffsetReset: 'earliest',
    });
    consumer.subscribe(['clicks']);
    const deadlineMs = Date.now() + 15_000;
    while (consumer.assignment().length < 2) {
      if (Date.now() > deadlineMs) throw new Error('the consumer was never assigned both partitions');
      await consumer.poll({ maxWaitMs: 100 });
    }
    await consumer.commit([{ topic: 'clicks', partition: 0, offset: 6n }]);
    const [live] = await session.internal.describeGroupLags(['live']);
    const memberId = consumer.memberId;
    expect(live).toMatchObject({
      groupId: 'live',
      state: 'Stable',
      protocolType: 'consumer',
      memberCount: 1,
      // Partition 1 has no commit yet: its lag counts from the log start.
      totalLag: 4n + 10n,
    });
    expect(live!.protocol).not.toBe('');
    expect(live!.partitions).toEqual([
      { topic: 'clicks', partition: 0, committedOffset: 6n, logEndOffset: 10n, lag: 4n, memberId },
      { topic: 'clicks', partition: 1, committedOffset: -1n, logEndOffset: 10n, lag: 10n, memberId },
    ]);
  });
});
