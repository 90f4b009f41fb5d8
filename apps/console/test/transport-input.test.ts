import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handleRestRequest, handleTrpcRequest } from '../src/server/api/http';
import { type GatewayFixture, startGateway } from './gateway-fixture';

/*
 * REST and tRPC run the same procedures, but REST coerces path and query strings. The coercion
 * must stay REST's: trpc-to-openapi coerces in place, so these tests make REST requests first and
 * then check that tRPC still refuses what only a query string may carry.
 */

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const ORIGIN = 'http://console.test';
const TOPIC = 'transport-input';

let gateway: GatewayFixture;

beforeAll(async () => {
  gateway = await startGateway();
  await gateway.caller.topics.create({ name: TOPIC, partitions: 2 });
  await gateway.caller.messages.produce({
    topic: TOPIC,
    partition: 1,
    value: { encoding: 'utf8', data: 'v' },
  });
});
afterAll(async () => {
  await gateway?.dispose();
});

function rest(method: string, path: string, body?: unknown): Promise<Response> {
  const init: RequestInit =
    body === undefined
      ? { method, headers: { 'x-weir-csrf': '1' } }
      : {
          method,
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json', 'x-weir-csrf': '1' },
        };
  return handleRestRequest(new Request(`${ORIGIN}/api/v1${path}`, init), gateway.services);
}

interface TrpcErrorBody {
  error: { data: { code: string; issues: { path: string; message: string }[] | null } };
}

/** A tRPC query over HTTP, as the console's client sends it. */
async function trpcQuery(
  procedure: string,
  input: unknown,
): Promise<{ status: number; body: TrpcErrorBody }> {
  const encoded = encodeURIComponent(JSON.stringify(input));
  const response = await handleTrpcRequest(
    new Request(`${ORIGIN}/api/trpc/${procedure}?input=${encoded}`),
    gateway.services,
  );
  return { status: response.status, body: (await response.json()) as TrpcErrorBody };
}

function issuePaths(body: TrpcErrorBody): string[] {
  return (body.error.data.issues ?? []).map((issue) => issue.path);
}

describe('input coercion belongs to REST only', () => {
  it('REST reads numbers and booleans from the path and the query string', async () => {
    const record = await rest('GET', `/topics/${TOPIC}/partitions/1/records/0?maxValueBytes=10`);
    expect(record.status).toBe(200);
    expect((await record.json()).record).toMatchObject({ partition: 1, offset: '0' });
    const list = await rest('GET', '/topics?includeInternal=false&descending=true&limit=5&offset=0');
    expect(list.status).toBe(200);
    const browse = await rest('GET', `/topics/${TOPIC}/messages?partitions=1&pageSize=5`);
    expect((await browse.json()).rows).toHaveLength(1);
  });

  it('after REST requests, tRPC refuses null and numeric strings for numbers, naming the field', async () => {
    expect((await rest('GET', `/topics/${TOPIC}/partitions/1/records/0`)).status).toBe(200);

    const nullPartition = await trpcQuery('messages.get', { topic: TOPIC, partition: null, offset: '0' });
    expect(nullPartition.status).toBe(400);
    expect(nullPartition.body.error.data.code).toBe('BAD_REQUEST');
    expect(issuePaths(nullPartition.body)).toEqual(['partition']);

    const stringPartition = await trpcQuery('messages.get', { topic: TOPIC, partition: '1', offset: '0' });
    expect(stringPartition.status).toBe(400);
    expect(issuePaths(stringPartition.body)).toEqual(['partition']);

    const stringLimit = await trpcQuery('topics.list', { limit: '5' });
    expect(stringLimit.body.error.data.code).toBe('BAD_REQUEST');
    expect(issuePaths(stringLimit.body)).toEqual(['limit']);

    const stringBoolean = await trpcQuery('topics.list', { includeInternal: 'true' });
    expect(issuePaths(stringBoolean.body)).toEqual(['includeInternal']);

    const stringInArray = await trpcQuery('messages.browse', { topic: TOPIC, partitions: ['1'] });
    expect(issuePaths(stringInArray.body)).toEqual(['partitions.0']);
  });

  it('REST bodies keep their JSON types: null is not 0 and "false" is not true', async () => {
    const nullPartition = await rest('POST', `/topics/${TOPIC}/messages`, {
      partition: null,
      value: { data: 'x' },
    });
    expect(nullPartition.status).toBe(400);
    expect(JSON.stringify(await nullPartition.json())).toContain('partition');

    const stringFlag = await rest('POST', `/topics/${TOPIC}/partitions`, { count: 3, validateOnly: 'false' });
    expect(stringFlag.status).toBe(400);
    expect(JSON.stringify(await stringFlag.json())).toContain('validateOnly');
    expect((await gateway.caller.topics.get({ topic: TOPIC })).partitions).toHaveLength(2);
  });
});
