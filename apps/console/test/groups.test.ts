import { TRPCError } from '@trpc/server';
import { Client, ErrorCode, GroupConsumer, type WeirError } from '@weir/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type GatewayFixture, rejection, startGateway, until } from './gateway-fixture';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let gateway: GatewayFixture;
let client: Client;
let member: GroupConsumer;

beforeAll(async () => {
  gateway = await startGateway();
  client = new Client({ bootstrapServers: [gateway.broker.bootstrap], clientId: 'groups-test' });
  await gateway.caller.topics.create({ name: 'jobs', partitions: 2 });
  for (let index = 0; index < 10; index++) {
    await gateway.caller.messages.produce({
      topic: 'jobs',
      partition: index % 2,
      value: { encoding: 'utf8', data: `j${index}` },
    });
  }
  member = new GroupConsumer(client, {
    groupId: 'workers',
    sessionTimeoutMs: 6000,
    heartbeatIntervalMs: 100,
    maxWaitMs: 100,
    autoCommit: false,
    autoOffsetReset: 'earliest',
  });
  member.subscribe(['jobs']);
  await until(() => member.state === 'running' && member.assignment().length === 2, 'the member is assigned');
  await member.commit([
    { topic: 'jobs', partition: 0, offset: 2n },
    { topic: 'jobs', partition: 1, offset: 1n },
  ]);
});
afterAll(async () => {
  await member?.close();
  await client?.close();
  await gateway?.dispose();
});

describe('consumer groups', () => {
  it('lists groups with state and total lag, sortable by lag', async () => {
    const list = await gateway.caller.groups.list({ sortBy: 'lag', descending: true, offset: 0, limit: 10 });
    const workers = list.groups.find((group) => group.groupId === 'workers');
    expect(workers).toMatchObject({ state: 'Stable', memberCount: 1, totalLag: '7', topics: ['jobs'] });
    expect(list.stateCounts.Stable).toBeGreaterThanOrEqual(1);
  });

  it('describes members, assignments and lag per partition', async () => {
    const detail = await gateway.caller.groups.get({ groupId: 'workers' });
    expect(detail.members).toHaveLength(1);
    expect(detail.members[0]?.assignment).toEqual([{ topic: 'jobs', partitions: [0, 1] }]);
    // The one member holds both partitions, so its lag is the group's: 3 + 4.
    expect(detail.members[0]?.lag).toBe('7');
    expect(detail.partitions.map((row) => [row.partition, row.committedOffset, row.lag])).toEqual([
      [0, '2', '3'],
      [1, '1', '4'],
    ]);
    expect(detail.allowedActions.resetOffsets).toEqual({
      allowed: false,
      reason: 'workers has 1 member; offsets can only be reset while it is empty. Stop its consumers first.',
      deniedBy: 'state',
    });
    expect(detail.allowedActions.delete.allowed).toBe(false);
  });

  it('refuses a reset or a delete while the group has members, with the Kafka code and the reason', async () => {
    for (const attempt of [
      gateway.caller.groups.resetOffsets({ groupId: 'workers', target: 'earliest' }),
      gateway.caller.groups.delete({ groupId: 'workers' }),
    ]) {
      const error = await rejection(attempt);
      expect(error).toBeInstanceOf(TRPCError);
      expect((error as TRPCError).code).toBe('PRECONDITION_FAILED');
      expect(((error as TRPCError).cause as WeirError).code).toBe(ErrorCode.NON_EMPTY_GROUP);
      expect((error as TRPCError).message).toContain('Stop its consumers first.');
    }
  });

  it('previews then applies a reset once the group is empty, and deletes it', async () => {
    await member.close();
    await until(
      async () => (await gateway.caller.groups.get({ groupId: 'workers' })).state === 'Empty',
      'an empty group',
    );
    const empty = await gateway.caller.groups.get({ groupId: 'workers' });
    expect(empty.allowedActions).toEqual({
      resetOffsets: { allowed: true, reason: null, deniedBy: null },
      delete: { allowed: true, reason: null, deniedBy: null },
    });
    const preview = await gateway.caller.groups.resetOffsets({
      groupId: 'workers',
      target: 'shiftBy',
      shiftBy: '-1',
    });
    expect(preview.dryRun).toBe(true);
    expect(preview.plan).toEqual([
      {
        topic: 'jobs',
        partition: 0,
        currentOffset: '2',
        newOffset: '1',
        requestedOffset: '1',
        clamped: null,
      },
      {
        topic: 'jobs',
        partition: 1,
        currentOffset: '1',
        newOffset: '0',
        requestedOffset: '0',
        clamped: null,
      },
    ]);
    expect(preview.warnings).toEqual([]);

    // A target past the end is kept at the end (as Kafka's tool does), and the answer says so.
    const beyond = await gateway.caller.groups.resetOffsets({
      groupId: 'workers',
      target: 'offset',
      offset: '50',
    });
    expect(beyond.plan.map((line) => [line.newOffset, line.requestedOffset, line.clamped])).toEqual([
      ['5', '50', 'log-end'],
      ['5', '50', 'log-end'],
    ]);
    expect(beyond.warnings).toEqual([
      'jobs-0: offset 50 is past the log end, so would be set to 5',
      'jobs-1: offset 50 is past the log end, so would be set to 5',
    ]);
    const before = await gateway.caller.groups.resetOffsets({
      groupId: 'workers',
      target: 'shiftBy',
      shiftBy: '-5',
    });
    expect(before.warnings).toEqual([
      'jobs-0: offset -3 is before the log start, so would be set to 0',
      'jobs-1: offset -4 is before the log start, so would be set to 0',
    ]);
    expect((await gateway.caller.groups.get({ groupId: 'workers' })).partitions[0]?.committedOffset).toBe(
      '2',
    );
    await gateway.caller.groups.resetOffsets({ groupId: 'workers', target: 'latest', dryRun: false });
    expect((await gateway.caller.groups.get({ groupId: 'workers' })).totalLag).toBe('0');
    await gateway.caller.groups.delete({ groupId: 'workers' });
    const gone = await rejection(gateway.caller.groups.get({ groupId: 'workers' }));
    expect((gone as TRPCError).code).toBe('NOT_FOUND');
  });
});
