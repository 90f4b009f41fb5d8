import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handleRestRequest } from '../src/server/api/http';
import { openApiDocument } from '../src/server/api/openapi';
import { type GatewayFixture, startGateway } from './gateway-fixture';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const ORIGIN = 'http://console.test';

let gateway: GatewayFixture;

function rest(method: string, path: string, body?: unknown): Promise<Response> {
  const init: RequestInit = { method, headers: { 'x-weir-csrf': '1' } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'content-type': 'application/json', 'x-weir-csrf': '1' };
  }
  return handleRestRequest(new Request(`${ORIGIN}/api/v1${path}`, init), gateway.services);
}

interface AuditBody {
  events: {
    id: string;
    atMs: number;
    principal: string;
    clientId: string;
    action: string;
    resourceName: string;
    input: Record<string, unknown>;
    outcomeName: string;
    ok: boolean;
  }[];
  nextCursor: string | null;
}

async function audit(query: string): Promise<AuditBody> {
  const response = await rest('GET', `/audit${query}`);
  expect(response.status).toBe(200);
  return response.json();
}

let startedMs: number;

beforeAll(async () => {
  gateway = await startGateway();
  startedMs = Date.now();
  expect((await rest('POST', '/topics', { name: 'audit-orders', partitions: 3 })).status).toBe(200);
  // Created twice: the second one fails, and is audited as failed.
  expect((await rest('POST', '/topics', { name: 'audit-orders', partitions: 3 })).status).toBe(409);
  expect((await rest('POST', '/topics', { name: 'audit-payments', partitions: 1 })).status).toBe(200);
});

afterAll(async () => {
  await gateway?.dispose();
});

describe('GET /api/v1/audit', () => {
  it('lists the actions done through REST, newest first, with principal, client and outcome', async () => {
    const body = await audit('');
    expect(body.events.map((event) => [event.action, event.resourceName, event.outcomeName])).toEqual([
      ['create-topic', 'audit-payments', 'NONE'],
      ['create-topic', 'audit-orders', 'TOPIC_ALREADY_EXISTS'],
      ['create-topic', 'audit-orders', 'NONE'],
    ]);
    const [, failed, created] = body.events;
    expect(created).toMatchObject({
      principal: 'User:weir-internal',
      clientId: 'weir-console',
      ok: true,
      input: { partitions: 3 },
    });
    expect(failed!.ok).toBe(false);
    expect(created!.atMs).toBeGreaterThanOrEqual(startedMs);
    expect(body.nextCursor).toBeNull();
  });

  it('filters by resource, principal, action, outcome and time, and pages with the cursor', async () => {
    const names = (body: AuditBody) => body.events.map((event) => event.resourceName);
    expect(names(await audit('?resource=PAYMENTS'))).toEqual(['audit-payments']);
    expect(names(await audit('?outcome=failed'))).toEqual(['audit-orders']);
    expect(names(await audit('?principal=weir-internal&action=create-topic&outcome=ok'))).toEqual([
      'audit-payments',
      'audit-orders',
    ]);
    expect(names(await audit('?principal=alice'))).toEqual([]);
    expect(names(await audit(`?until=${startedMs - 1}`))).toEqual([]);
    expect(names(await audit(`?since=${startedMs}`))).toHaveLength(3);
    const first = await audit('?pageSize=2');
    expect(names(first)).toEqual(['audit-payments', 'audit-orders']);
    expect(first.nextCursor).not.toBeNull();
    const second = await audit(`?pageSize=2&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect(names(second)).toEqual(['audit-orders']);
    expect(second.events[0]!.outcomeName).toBe('NONE');
    expect(second.nextCursor).toBeNull();
  });

  it('refuses bad and unknown parameters with 400 naming them', async () => {
    const unknown = await rest('GET', '/audit?topic=audit-orders');
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).issues[0].message).toContain('unknown query parameter "topic"');
    for (const [query, field] of [
      ['?outcome=maybe', 'outcome'],
      ['?action=drop-everything', 'action'],
      ['?pageSize=100000', 'pageSize'],
      ['?cursor=yesterday', 'cursor'],
      [`?since=${startedMs}&until=${startedMs - 1}`, 'until'],
    ] as const) {
      const response = await rest('GET', `/audit${query}`);
      expect(response.status, query).toBe(400);
      const { issues } = (await response.json()) as { issues: { path: (string | number)[] }[] };
      expect(
        issues.map((issue) => issue.path[0]),
        query,
      ).toContain(field);
    }
    // The gateway and the broker keep serving.
    expect((await audit('?pageSize=1')).events).toHaveLength(1);
  });

  it('is in the OpenAPI document with its query parameters', () => {
    const operation = (openApiDocument().paths?.['/audit'] as { get?: { parameters?: { name: string }[] } })
      ?.get;
    expect(operation?.parameters?.map((parameter) => parameter.name).sort()).toEqual(
      ['action', 'cursor', 'outcome', 'pageSize', 'principal', 'resource', 'since', 'until'].sort(),
    );
  });
});
