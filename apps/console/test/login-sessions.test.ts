import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleTrpcRequest } from '../src/server/api/http';
import { handleBrowserSession } from '../src/server/auth/session-routes';
import { consoleHealth } from '../src/server/console-health';
import { SECURE_ADMIN, type SecureGateway, startSecureGateway } from './secure-gateway-fixture';

/*
 * Issue #15 items 4, 5, 7, 8 and 11: who can end whose sessions, sessions that end with their
 * credentials, what the login routes accept, and a console whose own token the broker refuses.
 */

const ORIGIN = 'http://console.test';
const RECHECK_MS = 5_000;

let gateway: SecureGateway;
/** The console's clock: sessions and credential rechecks read it, so tests move it on. */
let clockMs = Date.now();

beforeAll(async () => {
  gateway = await startSecureGateway({
    now: () => clockMs,
    credentialRecheckMs: RECHECK_MS,
    sessionLimits: { maxSessions: 5, maxSessionsPerUser: 3 },
  });
  await gateway.admin.createTopics([{ name: 'visible', partitions: 1 }]);
}, 60_000);

afterAll(async () => {
  await gateway?.dispose();
});

async function createUser(username: string, password: string): Promise<void> {
  await gateway.internal.upsertUser({ username, mechanism: 'SCRAM-SHA-256', password });
}

function post(path: string, body: BodyInit | null, headers: Record<string, string>): Request {
  return new Request(`${ORIGIN}${path}`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
}

/** A REST bearer token of the user. */
async function bearerFor(username: string, password: string): Promise<string> {
  const response = await gateway.rest('POST', '/sessions', { body: { username, password } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { token: string }).token;
}

/** The browser's cookie header of a new session of the user. */
async function cookieFor(username: string, password: string): Promise<string> {
  const response = await handleBrowserSession(
    post('/api/session', JSON.stringify({ username, password }), { 'content-type': 'application/json' }),
    gateway.auth,
  );
  expect(response.status).toBe(200);
  return response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ');
}

function topicsWithBearer(token: string): Promise<Response> {
  return gateway.rest('GET', '/topics', { headers: { authorization: `Bearer ${token}` } });
}

function topicsWithCookie(cookie: string): Promise<Response> {
  return handleTrpcRequest(
    new Request(`${ORIGIN}/api/trpc/topics.list?input=%7B%7D`, { headers: { cookie } }),
    gateway.services,
    gateway.auth,
  );
}

describe('the session cap (issue #15, item 4)', () => {
  it('ends a user’s own oldest session, never another user’s', async () => {
    await createUser('bystander', 'bystander-secret-9a0c');
    const bystander = await bearerFor('bystander', 'bystander-secret-9a0c');
    // More logins than the console keeps sessions in all (5), from one user with a cap of 3.
    const own: string[] = [];
    for (let index = 0; index < 6; index++) own.push(await bearerFor('admin', SECURE_ADMIN.password));
    expect((await topicsWithBearer(bystander)).status).toBe(200);
    const statuses = await Promise.all(own.map(async (token) => (await topicsWithBearer(token)).status));
    expect(statuses).toEqual([401, 401, 401, 200, 200, 200]);
    expect(gateway.auth.sessions.countOf('admin')).toBe(3);
  });
});

describe('sessions end with their credentials (issue #15, item 5)', () => {
  it('ends bearer and cookie sessions after a password change made outside the console', async () => {
    await createUser('changing', 'changing-secret-1');
    const bearer = await bearerFor('changing', 'changing-secret-1');
    const cookie = await cookieFor('changing', 'changing-secret-1');
    const unchanged = await bearerFor('bystander', 'bystander-secret-9a0c');
    // As `weir user passwd` does: through the broker's internal listener, not the console.
    await createUser('changing', 'changing-secret-2');
    clockMs += RECHECK_MS;
    expect((await topicsWithBearer(bearer)).status).toBe(401);
    expect((await topicsWithCookie(cookie)).status).toBe(401);
    expect((await topicsWithBearer(unchanged)).status).toBe(200);
    // The new password opens a session that keeps working.
    const renewed = await bearerFor('changing', 'changing-secret-2');
    clockMs += RECHECK_MS;
    expect((await topicsWithBearer(renewed)).status).toBe(200);
  });

  it('ends the sessions of a user deleted outside the console', async () => {
    await createUser('leaving', 'leaving-secret-1');
    const bearer = await bearerFor('leaving', 'leaving-secret-1');
    const cookie = await cookieFor('leaving', 'leaving-secret-1');
    expect((await topicsWithBearer(bearer)).status).toBe(200);
    await gateway.internal.deleteUser('leaving');
    clockMs += RECHECK_MS;
    expect((await topicsWithCookie(cookie)).status).toBe(401);
    expect((await topicsWithBearer(bearer)).status).toBe(401);
  });

  it('ends them at once when the console itself changes the password or deletes the user', async () => {
    await createUser('managed', 'managed-secret-1');
    const bearer = await bearerFor('managed', 'managed-secret-1');
    const admin = { authorization: `Bearer ${await bearerFor('admin', SECURE_ADMIN.password)}` };
    const changed = await gateway.rest('PUT', '/users/managed/password', {
      headers: admin,
      body: { password: 'managed-secret-2' },
    });
    expect(changed.status).toBe(200);
    // No time passes: the console compared the session with the broker right after its change.
    expect((await topicsWithBearer(bearer)).status).toBe(401);
    const second = await bearerFor('managed', 'managed-secret-2');
    expect((await gateway.rest('DELETE', '/users/managed', { headers: admin })).status).toBe(200);
    expect((await topicsWithBearer(second)).status).toBe(401);
  });
});

describe('what the login routes accept (issue #15, items 7 and 8)', () => {
  const credentials = JSON.stringify({ username: 'admin', password: SECURE_ADMIN.password });

  it('refuses every content type but application/json with 415, and sets no cookie', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
      const browser = await handleBrowserSession(
        post('/api/session', credentials, { 'content-type': contentType }),
        gateway.auth,
      );
      expect(browser.status).toBe(415);
      expect(browser.headers.getSetCookie()).toEqual([]);
      expect(await browser.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
      const rest = await gateway.rest('POST', '/sessions', { headers: { 'content-type': contentType } });
      expect(rest.status).toBe(415);
    }
    const utf8 = await handleBrowserSession(
      post('/api/session', credentials, { 'content-type': 'application/json; charset=utf-8' }),
      gateway.auth,
    );
    expect(utf8.status).toBe(200);
  });

  /** A body of `totalBytes` streamed in 64 KiB chunks, counting the bytes anyone pulled. */
  function countedBody(totalBytes: number) {
    const counter = { pulledBytes: 0 };
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (counter.pulledBytes >= totalBytes) {
            controller.close();
            return;
          }
          counter.pulledBytes += chunk.byteLength;
          controller.enqueue(chunk);
        },
      },
      { highWaterMark: 0 },
    );
    return { stream, counter };
  }

  it('refuses a body over the limit with 413 before reading it, declared or streamed', async () => {
    const fiftyMegabytes = 50 * 1024 * 1024;
    const declared = countedBody(fiftyMegabytes);
    const refused = await handleBrowserSession(
      post('/api/session', declared.stream, {
        'content-type': 'application/json',
        'content-length': String(fiftyMegabytes),
      }),
      gateway.auth,
    );
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(declared.counter.pulledBytes).toBe(0);

    const streamed = countedBody(fiftyMegabytes);
    const refusedRest = await handleBrowserSession(
      post('/api/session', streamed.stream, { 'content-type': 'application/json' }),
      gateway.auth,
    );
    expect(refusedRest.status).toBe(413);
    // Read only up to the limit (16 KiB, within one 64 KiB chunk), not the 50 MB.
    expect(streamed.counter.pulledBytes).toBeLessThanOrEqual(64 * 1024);
  });

  it('never reads the body of a request without a session on the other routes', async () => {
    const body = countedBody(50 * 1024 * 1024);
    const refused = await handleTrpcRequest(
      post('/api/trpc/topics.create', body.stream, { 'content-type': 'application/json' }),
      gateway.services,
      gateway.auth,
    );
    expect(refused.status).toBe(401);
    expect(body.counter.pulledBytes).toBe(0);
  });
});

describe('a console whose own token the broker refuses (issue #15, item 11)', () => {
  it('says so in its log and its health, and never tells a user their password is wrong', async () => {
    const lines: { level: number; msg: string }[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(JSON.parse(String(chunk)));
          done();
        },
      }),
    );
    const misconfigured = await startSecureGateway({ consoleToken: 'not-the-broker-token', logger });
    try {
      const healthOf = (of: SecureGateway, now: () => number) =>
        consoleHealth({ credentials: of.credentials, credentialsStatus: of.credentialsStatus, now });
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await misconfigured.rest('POST', '/sessions', {
          body: { username: 'admin', password: SECURE_ADMIN.password },
        });
        expect(response.status).toBe(503);
        const body = (await response.json()) as { message: string };
        expect(body.message).toContain('the broker refused the console’s own credentials');
        expect(body.message).not.toContain('Wrong username or password');
      }
      const errors = lines.filter((line) => line.level >= 50);
      // Logged once for the change, not once per login.
      expect(errors.map((line) => line.msg)).toEqual([
        expect.stringContaining('The broker refused the console’s own credentials'),
      ]);
      expect(await healthOf(misconfigured, Date.now)).toMatchObject({
        status: 'degraded',
        consoleCredentials: {
          status: 'refused',
          message: expect.stringContaining('WEIR_CONSOLE_INTERNAL_TOKEN'),
        },
      });
      // A console with the right token is healthy, whether or not anyone has logged in yet.
      expect(await healthOf(gateway, () => clockMs)).toMatchObject({
        status: 'ok',
        consoleCredentials: { status: 'accepted' },
      });
    } finally {
      await misconfigured.dispose();
    }
  });
});
