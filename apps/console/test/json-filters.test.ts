import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handleRestRequest } from '../src/server/api/http';
import { type GatewayFixture, startGateway } from './gateway-fixture';

/*
 * JSON-path filters end to end: the console's filter text, the broker's scan, and the rows back,
 * through tRPC and REST against a real broker.
 */

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const TOPIC = 'json-orders';
let gateway: GatewayFixture;

const values = [
  { key: '{"tenant":"a"}', value: '{"user":{"id":42,"name":"ada"},"items":[{"sku":"x-1"}]}' },
  { key: '{"tenant":"b"}', value: '{"user":{"id":"42"},"items":[]}' },
  { key: 'plain', value: '{"user":{"id":7},"items":[{"sku":"y-2"}],"a.b":true}' },
  { key: 'plain', value: 'user.id=42 (not JSON)' },
];

beforeAll(async () => {
  gateway = await startGateway();
  await gateway.caller.topics.create({ name: TOPIC, partitions: 1 });
  for (const record of values) {
    await gateway.caller.messages.produce({
      topic: TOPIC,
      partition: 0,
      key: { encoding: 'utf8', data: record.key },
      value: { encoding: 'utf8', data: record.value },
    });
  }
});
afterAll(async () => {
  await gateway?.dispose();
});

function rest(path: string): Promise<Response> {
  return handleRestRequest(new Request(`http://console.test/api/v1${path}`), gateway.services);
}

async function offsetsFor(filters: string[]): Promise<string[]> {
  const page = await gateway.caller.messages.browse({ topic: TOPIC, filters });
  return page.rows.map((row) => row.offset);
}

describe('JSON-path filters', () => {
  it('match the value at a path, as JSON or as the text of a string', async () => {
    expect(await offsetsFor(['value.user.id:equals:42'])).toEqual(['0', '1']);
    expect(await offsetsFor(['value.items[0].sku:contains:-'])).toEqual(['0', '2']);
    expect(await offsetsFor(['value["a.b"]:equals:true'])).toEqual(['2']);
    expect(await offsetsFor(['value.user.id:equals:42', 'key.tenant:equals:b'])).toEqual(['1']);
    // A record that is not JSON has nothing at any path.
    expect(await offsetsFor(['value.user.id:notContains:4'])).toEqual(['2', '3']);
  });

  it('answer the REST example in the README, unencoded as curl sends it', async () => {
    const response = await rest(`/topics/${TOPIC}/messages?filters=value.user.id:equals:42`);
    expect(response.status).toBe(200);
    const page = (await response.json()) as { rows: { offset: string }[] };
    expect(page.rows.map((row) => row.offset)).toEqual(['0', '1']);
  });

  it('work over REST with the same text form', async () => {
    const response = await rest(
      `/topics/${TOPIC}/messages?filters=${encodeURIComponent('value.user.name:equals:ada')}&pageSize=10`,
    );
    expect(response.status).toBe(200);
    const page = (await response.json()) as { rows: { offset: string; value: { text: string } }[] };
    expect(page.rows.map((row) => row.offset)).toEqual(['0']);
    expect(JSON.parse(page.rows[0]!.value.text).user.name).toBe('ada');
  });

  it('refuse a bad path with 400 naming the path, and a field the syntax does not know', async () => {
    const badPath = await rest(
      `/topics/${TOPIC}/messages?filters=${encodeURIComponent('value.user..id:equals:1')}`,
    );
    expect(badPath.status).toBe(400);
    expect(JSON.stringify(await badPath.json())).toContain('filter path \\"user..id\\"');

    const badField = await rest(
      `/topics/${TOPIC}/messages?filters=${encodeURIComponent('values.x:equals:1')}`,
    );
    expect(badField.status).toBe(400);
    expect(JSON.stringify(await badField.json())).toContain('value.<json path>');
  });
});
