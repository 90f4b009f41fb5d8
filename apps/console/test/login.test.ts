import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleTrpcRequest } from '../src/server/api/http';
import { handleBrowserSession } from '../src/server/auth/session-routes';
import { SessionStore } from '../src/server/auth/sessions';
import { SECURE_ADMIN, type SecureGateway, startSecureGateway } from './secure-gateway-fixture';

const ORIGIN = 'http://console.test';
const READER_PASSWORD = 'reader-console-secret-2b9d';

let gateway: SecureGateway;

beforeAll(async () => {
  gateway = await startSecureGateway();
  await gateway.internal.upsertUser({
    username: 'reader',
    mechanism: 'SCRAM-SHA-256',
    password: READER_PASSWORD,
  });
  await gateway.admin.createTopics([
    { name: 'visible', partitions: 1 },
    { name: 'hidden', partitions: 1 },
  ]);
  await gateway.admin.createAcls(
    (['DESCRIBE', 'READ'] as const).map((operation) => ({
      resourceType: 'TOPIC' as const,
      resourceName: 'visible',
      patternType: 'LITERAL' as const,
      principal: 'User:reader',
      host: '*',
      operation,
      permission: 'ALLOW' as const,
    })),
  );
}, 60_000);

afterAll(async () => {
  await gateway?.dispose();
});

const rest: SecureGateway['rest'] = (...args) => gateway.rest(...args);

async function bearerFor(username: string, password: string): Promise<string> {
  const response = await rest('POST', '/sessions', { body: { username, password } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { token: string }).token;
}

/** Logs in as the browser does and answers the cookie header and the CSRF token. */
async function browserLogin(username: string, password: string) {
  const response = await handleBrowserSession(
    new Request(`${ORIGIN}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    }),
    gateway.auth,
  );
  expect(response.status).toBe(200);
  const setCookies = response.headers.getSetCookie();
  const session = setCookies.find((cookie) => cookie.startsWith('weir_session='))!;
  expect(session).toMatch(/HttpOnly/);
  expect(session).toMatch(/SameSite=Strict/);
  expect(session).toMatch(/Path=\//);
  expect(session).not.toMatch(/Secure/);
  const cookie = setCookies.map((header) => header.split(';')[0]).join('; ');
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  return { cookie, csrfToken };
}

describe('console login mode', () => {
  it('refuses REST and tRPC without a session', async () => {
    expect((await rest('GET', '/topics')).status).toBe(401);
    const trpc = await handleTrpcRequest(
      new Request(`${ORIGIN}/api/trpc/topics.list?input=%7B%7D`),
      gateway.services,
      gateway.auth,
    );
    expect(trpc.status).toBe(401);
  });

  it('refuses wrong credentials and reports missing fields', async () => {
    expect((await rest('POST', '/sessions', { body: { username: 'reader', password: 'nope' } })).status).toBe(
      401,
    );
    const missing = await rest('POST', '/sessions', { body: { username: '', password: '' } });
    expect(missing.status).toBe(400);
    expect((await missing.json()).issues.map((issue: { path: string }) => issue.path)).toEqual([
      'username',
      'password',
    ]);
  });

  it("runs a bearer's requests as the user: the broker's ACLs filter and refuse", async () => {
    const token = await bearerFor('reader', READER_PASSWORD);
    const authorization = { authorization: `Bearer ${token}` };
    const listed = await rest('GET', '/topics?limit=50', { headers: authorization });
    expect(listed.status).toBe(200);
    expect((await listed.json()).topics.map((topic: { name: string }) => topic.name)).toEqual(['visible']);
    const detail = await (await rest('GET', '/topics/visible', { headers: authorization })).json();
    expect(detail.allowedActions.delete).toMatchObject({ allowed: false, deniedBy: 'acl' });
    expect(detail.allowedActions.delete.reason).toContain('User:reader may not DELETE');
    expect(detail.allowedActions.produce.allowed).toBe(false);
    const adminToken = await bearerFor('admin', SECURE_ADMIN.password);
    const asAdmin = await (
      await rest('GET', '/topics/visible', { headers: { authorization: `Bearer ${adminToken}` } })
    ).json();
    expect(asAdmin.allowedActions.delete).toEqual({ allowed: true, reason: null, deniedBy: null });
    // The reader reaches the broker but may not DESCRIBE the cluster: its health is hidden, not down.
    const overview = await (await rest('GET', '/cluster/overview', { headers: authorization })).json();
    expect(overview.health).toMatchObject({ status: 'restricted', reasons: [{ check: 'authorization' }] });
    const refused = await rest('DELETE', '/topics/visible', { headers: authorization });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ data: { brokerError: 'TOPIC_AUTHORIZATION_FAILED' } });

    expect((await rest('DELETE', '/sessions', { headers: authorization })).status).toBe(204);
    expect((await rest('GET', '/topics', { headers: authorization })).status).toBe(401);
  });

  it('needs the CSRF header for changes made with the cookie, and refuses the cookie after logout', async () => {
    const { cookie, csrfToken } = await browserLogin('admin', SECURE_ADMIN.password);
    const mutation = (headers: Record<string, string>) =>
      handleTrpcRequest(
        new Request(`${ORIGIN}/api/trpc/topics.create`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie, ...headers },
          body: JSON.stringify({ name: 'made-by-admin', partitions: 1 }),
        }),
        gateway.services,
        gateway.auth,
      );
    expect((await mutation({})).status).toBe(403);
    expect((await mutation({ 'x-weir-csrf': 'forged' })).status).toBe(403);
    expect((await mutation({ 'x-weir-csrf': csrfToken })).status).toBe(200);
    const read = await handleTrpcRequest(
      new Request(`${ORIGIN}/api/trpc/topics.list?input=%7B%7D`, { headers: { cookie } }),
      gateway.services,
      gateway.auth,
    );
    expect(read.status).toBe(200);

    const logout = await handleBrowserSession(
      new Request(`${ORIGIN}/api/session`, {
        method: 'DELETE',
        headers: { cookie, 'x-weir-csrf': csrfToken },
      }),
      gateway.auth,
    );
    expect(logout.status).toBe(204);
    expect(logout.headers.getSetCookie().every((header) => header.includes('Max-Age=0'))).toBe(true);
    const replayed = await handleTrpcRequest(
      new Request(`${ORIGIN}/api/trpc/topics.list?input=%7B%7D`, { headers: { cookie } }),
      gateway.services,
      gateway.auth,
    );
    expect(replayed.status).toBe(401);
  });
});

describe('ACLs and users through the gateway', () => {
  it('lets the admin manage ACLs and users, and the broker refuses the reader', async () => {
    const admin = { authorization: `Bearer ${await bearerFor('admin', SECURE_ADMIN.password)}` };
    const reader = { authorization: `Bearer ${await bearerFor('reader', READER_PASSWORD)}` };

    const created = await rest('POST', '/users', { headers: admin, body: { username: 'temp-user' } });
    expect(created.status).toBe(200);
    const { password } = (await created.json()) as { password: string };
    expect(password.length).toBeGreaterThanOrEqual(24);
    expect((await gateway.sessionOf('temp-user', password)).username).toBe('temp-user');
    const users = await (await rest('GET', '/users', { headers: admin })).json();
    expect(users.users.map((user: { name: string }) => user.name)).toContain('temp-user');

    const binding = {
      resourceType: 'TOPIC',
      resourceName: 'temp-',
      patternType: 'PREFIXED',
      principal: 'User:temp-user',
      host: '*',
      operation: 'WRITE',
      permission: 'ALLOW',
    };
    expect((await rest('POST', '/acls', { headers: admin, body: binding })).status).toBe(200);
    const listed = await (await rest('GET', '/acls?principal=User:temp-user', { headers: admin })).json();
    expect(listed.acls).toEqual([binding]);
    const readerList = await rest('GET', '/acls', { headers: reader });
    expect(readerList.status).toBe(403);
    expect(await readerList.json()).toMatchObject({ data: { brokerError: 'CLUSTER_AUTHORIZATION_FAILED' } });
    expect((await rest('POST', '/acls', { headers: reader, body: binding })).status).toBe(403);
    const deleted = await rest('POST', '/acls/delete', { headers: admin, body: binding });
    expect(await deleted.json()).toMatchObject({ deleted: 1 });
    expect((await rest('DELETE', '/users/temp-user', { headers: reader })).status).toBe(403);
    expect((await rest('DELETE', '/users/temp-user', { headers: admin })).status).toBe(200);
  });
});

describe('SessionStore', () => {
  it('ends sessions unused for the idle time, and all after the absolute time', () => {
    let now = 0;
    const ended: string[] = [];
    const store = new SessionStore({
      now: () => now,
      limits: { idleMs: 100, absoluteMs: 250, maxSessions: 2, maxSessionsPerUser: 2 },
      onEnd: (session) => ended.push(session.username),
    });
    const first = store.create('a');
    now = 90;
    expect(store.touch(first.id)).toBeDefined();
    now = 180;
    expect(store.touch(first.id)).toBeDefined();
    now = 250;
    expect(store.touch(first.id)).toBeUndefined();
    expect(ended).toEqual(['a']);
    const idle = store.create('b');
    now = 351;
    expect(store.touch(idle.id)).toBeUndefined();
    store.create('c');
    store.create('d');
    store.create('e');
    expect(store.size).toBe(2);
  });
});
