import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type GatewayFixture, rejection, startGateway } from './gateway-fixture';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const INTERNAL = '__consumer_offsets';

let gateway: GatewayFixture;

beforeAll(async () => {
  gateway = await startGateway();
  await gateway.caller.topics.create({ name: 'plain', partitions: 1 });
});
afterAll(async () => {
  await gateway?.dispose();
});

async function forbidden(promise: Promise<unknown>): Promise<TRPCError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(TRPCError);
  expect((error as TRPCError).code).toBe('FORBIDDEN');
  return error as TRPCError;
}

describe('topic allowedActions', () => {
  it('allows everything on an ordinary topic', async () => {
    const detail = await gateway.caller.topics.get({ topic: 'plain' });
    for (const permission of Object.values(detail.allowedActions)) {
      expect(permission).toEqual({ allowed: true, reason: null, deniedBy: null });
    }
  });

  it('denies changes to an internal topic with the reason, in the list and the detail', async () => {
    const list = await gateway.caller.topics.list({ includeInternal: true, search: INTERNAL });
    const row = list.topics.find((topic) => topic.name === INTERNAL);
    expect(row?.allowedActions.delete.allowed).toBe(false);
    expect(row?.allowedActions.delete.reason).toContain('is an internal topic');
    expect(row?.allowedActions.delete.deniedBy).toBe('state');
    const detail = await gateway.caller.topics.get({ topic: INTERNAL });
    expect(detail.allowedActions).toMatchObject({
      delete: { allowed: false, deniedBy: 'state' },
      deleteRecords: { allowed: false, deniedBy: 'state' },
      addPartitions: { allowed: false, deniedBy: 'state' },
      produce: { allowed: false, deniedBy: 'state' },
      editConfigs: { allowed: true, reason: null, deniedBy: null },
    });
  });

  it('refuses the denied mutations when asked directly, with the same reason', async () => {
    const detail = await gateway.caller.topics.get({ topic: INTERNAL });
    const reason = detail.allowedActions.delete.reason!;
    expect((await forbidden(gateway.caller.topics.delete({ topic: INTERNAL }))).message).toBe(reason);
    await forbidden(
      gateway.caller.topics.deleteRecords({
        topic: INTERNAL,
        partitions: [{ partition: 0, beforeOffset: '-1' }],
      }),
    );
    await forbidden(gateway.caller.topics.addPartitions({ topic: INTERNAL, count: 100 }));
    await forbidden(
      gateway.caller.messages.produce({
        topic: INTERNAL,
        partition: 0,
        value: { encoding: 'utf8', data: 'x' },
      }),
    );
    expect((await gateway.caller.topics.get({ topic: INTERNAL })).partitionCount).toBe(detail.partitionCount);
  });
});
