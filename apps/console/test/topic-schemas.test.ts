import { InternalAdmin, Producer } from '@weir/protocol';
import avro from 'avsc';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBrokerClients } from '../src/server/admin-client';
import { handleRestRequest } from '../src/server/api/http';
import type { GatewayServices } from '../src/server/gateway-services';
import { writeConfluentFrame } from '../src/server/services/decoders/confluent-framing';
import { DEFAULT_SEARCH_LIMITS } from '../src/server/services/message-search';
import { SCHEMAS_TOPIC, SchemaStore } from '../src/server/services/schema-store';
import { type GatewayFixture, startGateway } from './gateway-fixture';

/*
 * Uploaded schemas end to end against a real broker: stored in the compacted schemas topic,
 * decoding Avro records produced with the SDK over REST, seen by a second console instance (its own
 * clients and store), and deleted with a tombstone.
 */

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const TOPIC = 'avro-orders';
const ORDER = {
  type: 'record',
  name: 'Order',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'customer', type: 'string' },
  ],
};
const orderType = avro.Type.forSchema(ORDER as avro.Schema);
let gateway: GatewayFixture;

beforeAll(async () => {
  gateway = await startGateway();
  await gateway.caller.topics.create({ name: TOPIC, partitions: 1 });
  const producer = new Producer(gateway.clients.client(), { acks: -1 });
  try {
    await producer.send({
      topic: TOPIC,
      messages: [
        { key: 'a', value: orderType.toBuffer({ id: 1, customer: 'ada' }) },
        { key: 'b', value: writeConfluentFrame(5, orderType.toBuffer({ id: 2, customer: 'bo' })) },
        { key: 'c', value: Buffer.from('not avro at all, long enough to fail') },
      ],
    });
  } finally {
    await producer.close();
  }
});
afterAll(async () => {
  await gateway?.dispose();
});

function rest(
  path: string,
  services: GatewayServices = gateway.services,
  init?: RequestInit,
): Promise<Response> {
  // Changes carry the console's CSRF header, as its own pages send them (security/cross-site-mutations.ts).
  const headers = { 'x-weir-csrf': '1', ...(init?.headers as Record<string, string> | undefined) };
  return handleRestRequest(new Request(`http://console.test/api/v1${path}`, { ...init, headers }), services);
}

function put(body: unknown): Promise<Response> {
  return rest(`/topics/${TOPIC}/schemas/value`, gateway.services, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

type Row = { offset: string; value: { decoded?: { json?: unknown; error?: string } } };

describe('topic schemas', () => {
  it('refuses a bad schema with 400 naming the field and avsc’s reason, storing nothing', async () => {
    const bad = await put({
      format: 'avro',
      schema: '{"type":"record","name":"X","fields":[{"name":"a","type":"nope"}]}',
    });
    expect(bad.status).toBe(400);
    const text = JSON.stringify(await bad.json());
    expect(text).toContain('schema: ');
    expect(text).toContain('nope');
    const noType = await put({
      format: 'protobuf',
      schema: 'syntax = "proto3"; message A { string b = 1; }',
    });
    expect(noType.status).toBe(400);
    expect(JSON.stringify(await noType.json())).toContain('messageType');
    const huge = await put({ format: 'avro', schema: 'x'.repeat(262_145) });
    expect(huge.status).toBe(400);
    expect((await rest(`/topics/${TOPIC}/schemas/value`)).status).toBe(404);
  });

  it('stores an Avro value schema in the compacted topic and decodes records over REST', async () => {
    const response = await put({ format: 'avro', schema: JSON.stringify(ORDER) });
    expect(response.status).toBe(200);
    const [config] = await gateway.clients.admin().describeConfigs([{ type: 'topic', name: SCHEMAS_TOPIC }]);
    expect(config?.configs.find((entry) => entry.name === 'cleanup.policy')?.value).toBe('compact');

    const page = await rest(`/topics/${TOPIC}/messages?decode=schema`);
    expect(page.status).toBe(200);
    const rows = ((await page.json()) as { rows: Row[] }).rows;
    expect(rows.map((row) => row.value.decoded)).toEqual([
      { json: { id: 1, customer: 'ada' } },
      // Bare Avro was declared: the framed record does not decode, and says why.
      { error: expect.stringMatching(/^not Avro of this schema/) },
      { error: expect.stringMatching(/^not Avro of this schema/) },
    ]);
    const plain = ((await (await rest(`/topics/${TOPIC}/messages`)).json()) as { rows: Row[] }).rows;
    expect(plain[0]!.value.decoded).toBeUndefined();
    expect((await rest(`/topics/${TOPIC}/messages?decode=schemas`)).status).toBe(400);
    expect((await rest(`/topics/${TOPIC}/messages?decoder=schema`)).status).toBe(400);
  });

  it('decodes the Confluent wire format once the schema says so', async () => {
    expect((await put({ format: 'avro', schema: JSON.stringify(ORDER), framing: 'confluent' })).status).toBe(
      200,
    );
    const record = await rest(`/topics/${TOPIC}/partitions/0/records/1?decode=schema`);
    expect(((await record.json()) as { record: Row }).record.value.decoded).toEqual({
      json: { id: 2, customer: 'bo' },
    });
  });

  it('is seen by a second console instance, which reads it from the topic', async () => {
    const clients = createBrokerClients({
      bootstrap: [gateway.broker.internalBootstrap],
      token: () => gateway.broker.internalToken,
      createInternalAdmin: (client) => new InternalAdmin(client),
    });
    try {
      const second: GatewayServices = {
        broker: clients,
        schemas: new SchemaStore(clients),
        logger: pino({ level: 'silent' }),
        now: Date.now,
        searchLimits: DEFAULT_SEARCH_LIMITS,
      };
      const response = await rest(`/topics/${TOPIC}/schemas`, second);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { key: unknown; value: { format: string; framing: string } };
      expect(body.key).toBeNull();
      expect(body.value).toMatchObject({ format: 'avro', framing: 'confluent' });
      const page = await rest(`/topics/${TOPIC}/messages?decode=schema`, second);
      const rows = ((await page.json()) as { rows: Row[] }).rows;
      expect(rows[1]!.value.decoded).toEqual({ json: { id: 2, customer: 'bo' } });
    } finally {
      await clients.close();
    }
  });

  it('is deleted with a tombstone, which the other instance sees too', async () => {
    const deleted = await rest(`/topics/${TOPIC}/schemas/value`, gateway.services, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(
      (await rest(`/topics/${TOPIC}/schemas/value`, gateway.services, { method: 'DELETE' })).status,
    ).toBe(404);
    const fresh = new SchemaStore(gateway.clients);
    expect(await fresh.get(TOPIC, 'value')).toBeUndefined();
    const rows = ((await (await rest(`/topics/${TOPIC}/messages?decode=schema`)).json()) as { rows: Row[] })
      .rows;
    expect(rows.every((row) => row.value.decoded === undefined)).toBe(true);
  });

  it('refuses a schema for a topic that does not exist', async () => {
    const response = await rest('/topics/no-such-topic/schemas/key', gateway.services, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'avro', schema: '"string"' }),
    });
    expect(response.status).toBe(404);
  });
});
