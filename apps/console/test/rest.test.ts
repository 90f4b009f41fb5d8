import SwaggerParser from '@apidevtools/swagger-parser';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveToken } from '../src/env';
import { createBrokerClients } from '../src/server/admin-client';
import { handleRestRequest, handleTrpcRequest } from '../src/server/api/http';
import { openApiDocument } from '../src/server/api/openapi';
import { DEFAULT_SEARCH_LIMITS } from '../src/server/services/message-search';
import { type GatewayFixture, startGateway } from './gateway-fixture';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let gateway: GatewayFixture;

beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway?.dispose();
});

const ORIGIN = 'http://console.test';

/** A REST call as a script makes it: changes carry the CSRF header (any value without login). */
function rest(method: string, path: string, body?: unknown): Promise<Response> {
  const init: RequestInit = { method, headers: { 'x-weir-csrf': '1' } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { 'content-type': 'application/json', 'x-weir-csrf': '1' };
  }
  return handleRestRequest(new Request(`${ORIGIN}/api/v1${path}`, init), gateway.services);
}

describe('REST /api/v1', () => {
  it('creates, lists, reads and deletes a topic', async () => {
    const created = await rest('POST', '/topics', {
      name: 'rest-topic',
      partitions: 2,
      preset: 'retention-1d',
    });
    expect(created.status).toBe(200);
    expect(await created.json()).toMatchObject({ name: 'rest-topic', partitions: 2 });

    const conflict = await rest('POST', '/topics', { name: 'rest-topic', partitions: 2 });
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({
      data: { brokerCode: 36, brokerError: 'TOPIC_ALREADY_EXISTS' },
    });

    const listed = await rest('GET', '/topics?search=rest&includeInternal=false&limit=5');
    expect(listed.status).toBe(200);
    expect((await listed.json()).topics.map((topic: { name: string }) => topic.name)).toEqual(['rest-topic']);

    const detail = await rest('GET', '/topics/rest-topic');
    expect((await detail.json()).partitions).toHaveLength(2);

    const deleted = await rest('DELETE', '/topics/rest-topic');
    expect(deleted.status).toBe(200);
    const missing = await rest('GET', '/topics/rest-topic');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ data: { brokerCode: 3 } });
  });

  it('produces and browses messages page by page', async () => {
    await rest('POST', '/topics', { name: 'rest-messages', partitions: 3 });
    for (let index = 0; index < 9; index++) {
      const produced = await rest('POST', '/topics/rest-messages/messages', {
        partition: index % 3,
        key: { data: `k${index}` },
        value: { data: `value ${index}` },
      });
      expect(produced.status).toBe(200);
    }
    const first = await (
      await rest('GET', '/topics/rest-messages/messages?start=beginning&pageSize=5')
    ).json();
    expect(first.rows).toHaveLength(5);
    expect(first.rows[0].value.text).toMatch(/^value /);
    const second = await (
      await rest(
        'GET',
        `/topics/rest-messages/messages?pageSize=5&cursor=${encodeURIComponent(first.nextCursor)}`,
      )
    ).json();
    expect(second.rows).toHaveLength(4);
    expect(second.done).toBe(true);
    const offsets = [...first.rows, ...second.rows].map(
      (row: { partition: number; offset: string }) => `${row.partition}:${row.offset}`,
    );
    expect(new Set(offsets).size).toBe(9);
    const onePartition = await (
      await rest('GET', '/topics/rest-messages/messages?partitions=1&pageSize=50')
    ).json();
    expect(onePartition.rows.map((row: { partition: number }) => row.partition)).toEqual([1, 1, 1]);
  });

  it('answers malformed input with 400 naming the field, never 500', async () => {
    const badType = await rest('POST', '/topics', { name: 'ok-name', partitions: 'three' });
    expect(badType.status).toBe(400);
    expect((await badType.json()).data.issues).toEqual([
      { path: 'partitions', message: 'must be a number, not text' },
    ]);

    const badName = await rest('POST', '/topics', { name: 'bad name!' });
    expect(badName.status).toBe(400);
    expect(JSON.stringify(await badName.json())).toContain('name');

    const notJson = await rest('POST', '/topics', '{"name": ');
    expect(notJson.status).toBe(400);

    const plainText = await handleRestRequest(
      new Request(`${ORIGIN}/api/v1/topics`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'x-weir-csrf': '1' },
        body: '{"name":"plain-text"}',
      }),
      gateway.services,
    );
    expect(plainText.status).toBe(415);
    expect(await plainText.json()).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Unsupported content-type "text/plain": send the body as application/json',
    });

    const badQuery = await rest('GET', '/topics/rest-messages/messages?pageSize=100000');
    expect(badQuery.status).toBe(400);
    expect(JSON.stringify(await badQuery.json())).toContain('pageSize');

    const missingStart = await rest('GET', '/topics/rest-messages/messages?start=offset');
    expect(missingStart.status).toBe(400);
    expect((await missingStart.json()).message).toContain('startOffset');

    const badReset = await rest('POST', '/groups/g/reset-offsets', { target: 'timestamp' });
    expect(badReset.status).toBe(400);
    expect(JSON.stringify(await badReset.json())).toContain('timestampMs');
  });

  it('refuses invalid Base64 in a produce body with 400 naming the field, and writes nothing', async () => {
    await rest('POST', '/topics', { name: 'rest-base64', partitions: 1 });
    const cases = [
      { body: { value: { encoding: 'base64', data: 'aGVsbG8!' } }, field: 'value.data', what: '"!"' },
      {
        body: { key: { encoding: 'base64', data: 'a' }, value: null },
        field: 'key.data',
        what: '1 characters',
      },
      {
        body: { value: null, headers: [{ key: 'h', value: { encoding: 'base64', data: 'ab=c' } }] },
        field: 'headers.0.value.data',
        what: '"="',
      },
    ];
    for (const { body, field, what } of cases) {
      const refused = await rest('POST', '/topics/rest-base64/messages', { partition: 0, ...body });
      expect(refused.status).toBe(400);
      const answer = await refused.json();
      expect(answer.data.issues).toEqual([{ path: field, message: expect.stringContaining(what) }]);
    }
    const detail = await (await rest('GET', '/topics/rest-base64')).json();
    expect(detail.partitions[0].highWatermark).toBe('0');

    // Base64 as `base64` prints it (wrapped, padded) and URL-safe or unpadded text are bytes.
    const wrapped = Buffer.from('x'.repeat(60))
      .toString('base64')
      .replace(/(.{76})/g, '$1\n');
    for (const data of [wrapped, 'aGk', '-_8=']) {
      const accepted = await rest('POST', '/topics/rest-base64/messages', {
        partition: 0,
        value: { encoding: 'base64', data },
      });
      expect(accepted.status).toBe(200);
    }
    const stored = await (await rest('GET', '/topics/rest-base64/messages?pageSize=10')).json();
    expect(stored.rows.map((row: { value: { base64: string } }) => row.value.base64)).toEqual([
      Buffer.from('x'.repeat(60)).toString('base64'),
      'aGk=',
      Buffer.from([0xfb, 0xff]).toString('base64'),
    ]);
  });

  it("answers a config the broker refuses with 400 and the broker's reason, naming the key", async () => {
    const kafkaMessage = 'Invalid value abc for configuration retention.ms: Not a number of type LONG';
    const created = await rest('POST', '/topics', {
      name: 'rest-bad-config',
      partitions: 1,
      configs: { 'retention.ms': 'abc' },
    });
    expect(created.status).toBe(400);
    const createdBody = await created.json();
    expect(createdBody.message).toContain(kafkaMessage);
    expect(createdBody.data).toMatchObject({ brokerCode: 40, brokerError: 'INVALID_CONFIG' });

    await rest('POST', '/topics', { name: 'rest-bad-config', partitions: 1 });
    for (const dryRun of [true, false]) {
      const altered = await rest('PATCH', '/topics/rest-bad-config/configs', {
        changes: [{ name: 'retention.ms', operation: 'set', value: 'abc' }],
        dryRun,
      });
      expect(altered.status).toBe(400);
      const body = await altered.json();
      expect(body.message).toContain(kafkaMessage);
      expect(body.data).toMatchObject({ brokerError: 'INVALID_CONFIG' });
    }
    const unknown = await rest('PATCH', '/topics/rest-bad-config/configs', {
      changes: [{ name: 'retention.msec', operation: 'set', value: '1' }],
    });
    expect((await unknown.json()).message).toContain('Unknown topic config name: retention.msec');
  });

  it('answers DeleteRecords past the high watermark with 400 OFFSET_OUT_OF_RANGE, as documented', async () => {
    await rest('POST', '/topics', { name: 'rest-delete-records', partitions: 2 });
    for (let index = 0; index < 3; index++) {
      await rest('POST', '/topics/rest-delete-records/messages', {
        partition: 0,
        value: { data: `v${index}` },
      });
    }
    const pastEnd = await rest('POST', '/topics/rest-delete-records/delete-records', {
      partitions: [{ partition: 0, beforeOffset: '4' }],
    });
    expect(pastEnd.status).toBe(400);
    const body = await pastEnd.json();
    expect(body.data).toMatchObject({
      code: 'BAD_REQUEST',
      brokerCode: 1,
      brokerError: 'OFFSET_OUT_OF_RANGE',
    });
    expect(body.message).toContain('rest-delete-records-0');
    const detail = await (await rest('GET', '/topics/rest-delete-records')).json();
    expect(detail.partitions[0].logStartOffset).toBe('0');

    const noPartition = await rest('POST', '/topics/rest-delete-records/delete-records', {
      partitions: [{ partition: 7, beforeOffset: '1' }],
    });
    expect(noPartition.status).toBe(404);
    const trimmed = await rest('POST', '/topics/rest-delete-records/delete-records', {
      partitions: [{ partition: 0, beforeOffset: '3' }],
    });
    expect((await trimmed.json()).partitions).toEqual([{ partition: 0, logStartOffset: '3' }]);

    // A permalink to an offset with no record is a missing resource, not a bad value.
    const missing = await rest('GET', '/topics/rest-delete-records/partitions/0/records/1');
    expect(missing.status).toBe(404);
    expect((await missing.json()).data).toMatchObject({ brokerError: 'RESOURCE_NOT_FOUND' });

    const operation = openApiDocument().paths?.['/topics/{topic}/delete-records']?.post;
    expect(operation?.description).toContain('400 with OFFSET_OUT_OF_RANGE');
  });

  it('refuses query parameters an operation does not have with 400 naming them', async () => {
    await rest('POST', '/topics', { name: 'rest-unknown-params', partitions: 1 });
    const misnamed = await rest('GET', '/topics/rest-unknown-params/messages?limit=20&start=beginning');
    expect(misnamed.status).toBe(400);
    const [issue] = (await misnamed.json()).issues;
    expect(issue).toMatchObject({ code: 'unrecognized_keys', keys: ['limit'] });
    expect(issue.message).toContain('unknown query parameter "limit"');
    expect(issue.message).toContain('pageSize');
    expect(issue.message).not.toMatch(/\btopic\b/);

    const two = await rest('GET', '/cluster/overview?verbose=1&debug=true');
    expect(two.status).toBe(400);
    expect((await two.json()).issues[0].message).toBe(
      'unknown query parameters "verbose", "debug"; this operation takes: none',
    );

    // A body method's query string is not read at all, so any parameter in it is refused.
    const created = await rest('POST', '/topics?validateOnly=true', {
      name: 'rest-query-ignored',
      partitions: 1,
    });
    expect(created.status).toBe(400);
    expect((await created.json()).issues[0]).toMatchObject({ keys: ['validateOnly'] });
    const deleted = await rest('DELETE', '/topics/rest-unknown-params?force=true');
    expect(deleted.status).toBe(400);
    expect((await rest('GET', '/topics/rest-query-ignored')).status).toBe(404);
    expect((await rest('GET', '/topics/rest-unknown-params')).status).toBe(200);

    expect(openApiDocument().info.description).toContain(
      'query parameter an operation does not have is refused',
    );

    // Known parameters, repeated lists included, still work.
    const browsed = await rest('GET', '/topics/rest-unknown-params/messages?pageSize=5&partitions=0');
    expect(browsed.status).toBe(200);
  });

  it('serves a valid OpenAPI 3 document covering every REST procedure', async () => {
    const document = structuredClone(openApiDocument());
    await SwaggerParser.validate(document as never);
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths ?? {})).toEqual(
      expect.arrayContaining([
        '/topics',
        '/topics/{topic}/messages',
        '/groups/{groupId}/reset-offsets',
        '/cluster/overview',
        '/replication/health',
        '/reassignments',
        '/reassignments/plan',
        '/reassignments/cancel',
        '/leaders/elect',
        '/leaders/permission',
        '/acls/intents/preview',
        '/acls/intents/apply',
        '/acls/effective',
        '/users/{username}/password',
      ]),
    );
  });

  it("documents what denies an action in every allowedActions (null, 'acl' or 'state')", () => {
    const topicDetail = JSON.stringify(openApiDocument().paths?.['/topics/{topic}']?.get);
    expect(topicDetail).toContain('"deniedBy"');
    expect(topicDetail).toMatch(/"enum":\["acl","state"\]/);
  });
});

describe('tRPC over HTTP', () => {
  it('takes a query without input as an empty one, so defaults apply and missing fields are named', async () => {
    const overview = await handleTrpcRequest(
      new Request(`${ORIGIN}/api/trpc/cluster.overview`),
      gateway.services,
    );
    expect(overview.status).toBe(200);
    expect((await overview.json()).result.data.health.status).not.toBe('unreachable');

    const topics = await handleTrpcRequest(new Request(`${ORIGIN}/api/trpc/topics.list`), gateway.services);
    expect(topics.status).toBe(200);
    expect((await topics.json()).result.data.topics).toEqual(expect.any(Array));

    const detail = await handleTrpcRequest(new Request(`${ORIGIN}/api/trpc/topics.get`), gateway.services);
    expect(detail.status).toBe(400);
    expect((await detail.json()).error.data.issues).toEqual([expect.objectContaining({ path: 'topic' })]);
  });

  it('keeps the Kafka code in the error shape', async () => {
    const input = encodeURIComponent(JSON.stringify({ topic: 'no-such-topic' }));
    const response = await handleTrpcRequest(
      new Request(`${ORIGIN}/api/trpc/topics.get?input=${input}`),
      gateway.services,
    );
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body.error.data).toMatchObject({
      code: 'NOT_FOUND',
      brokerCode: 3,
      brokerError: 'UNKNOWN_TOPIC_OR_PARTITION',
    });
  });
});

describe('without a token', () => {
  it('reports the missing variable as a health reason and a 503 elsewhere', async () => {
    const services = {
      ...gateway.services,
      broker: createBrokerClients({
        bootstrap: [gateway.broker.internalBootstrap],
        token: () => resolveToken({ kind: 'missing' }),
        createInternalAdmin: () => {
          throw new Error('not reached');
        },
      }),
      logger: pino({ level: 'silent' }),
      searchLimits: DEFAULT_SEARCH_LIMITS,
    };
    const overview = await handleRestRequest(new Request(`${ORIGIN}/api/v1/cluster/overview`), services);
    expect(overview.status).toBe(200);
    const body = await overview.json();
    expect(body.health.status).toBe('unreachable');
    expect(body.health.reasons[0].detail).toContain('WEIR_CONSOLE_INTERNAL_TOKEN');
    const topics = await handleRestRequest(new Request(`${ORIGIN}/api/v1/topics`), services);
    expect(topics.status).toBe(503);
    expect((await topics.json()).message).toContain('WEIR_CONSOLE_INTERNAL_TOKEN');
  });
});
