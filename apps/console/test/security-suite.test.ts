import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionSummary } from '../src/app/acls/effective/_components/permission-summary';
import { handleRestRequest, handleTrpcRequest } from '../src/server/api/http';
import { handleBrowserSession } from '../src/server/auth/session-routes';
import { type GatewayFixture, startGateway } from './gateway-fixture';
import { restRoutes, trpcProcedures, trpcRequest } from './gateway-routes';
import { SECURE_ADMIN, type SecureGateway, startSecureGateway } from './secure-gateway-fixture';

/*
 * The console's security suite (issue #15), over every route the router has: without a session
 * nothing answers but 401, and no change is taken from another site's page, in either mode. The
 * Host check and the headers are in security-proxy.test.ts; the browser's side of it (cross-site
 * forms, fetches and frames) in e2e/cross-site.spec.ts.
 */

const ORIGIN = 'http://127.0.0.1:3000';
const FOREIGN = 'http://127.0.0.1:8080';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

function restRequest(method: string, path: string, headers: Record<string, string> = {}): Request {
  return SAFE.has(method)
    ? new Request(`${ORIGIN}${path}`, { method, headers })
    : new Request(`${ORIGIN}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: '{}',
      });
}

describe('login mode: no session, no answer', () => {
  let gateway: SecureGateway;
  beforeAll(async () => {
    gateway = await startSecureGateway();
  }, 60_000);
  afterAll(async () => {
    await gateway?.dispose();
  });

  it('refuses every REST operation with 401 (with and without the CSRF header)', async () => {
    const routes = restRoutes();
    // The document has every procedure REST exposes; a handful of them would mean it broke.
    expect(routes.length).toBeGreaterThan(30);
    const answers: string[] = [];
    for (const route of routes) {
      for (const headers of [{}, { 'x-weir-csrf': '1' }, { authorization: 'Bearer not-a-session' }] as Record<
        string,
        string
      >[]) {
        const response = await handleRestRequest(
          restRequest(route.method, route.path, headers),
          gateway.services,
          gateway.auth,
        );
        answers.push(`${route.method} ${route.template} ${response.status}`);
      }
    }
    expect(answers.filter((answer) => !answer.endsWith(' 401'))).toEqual([]);
  });

  it('refuses every tRPC procedure with 401', async () => {
    const procedures = trpcProcedures();
    expect(procedures.length).toBeGreaterThan(30);
    const answers: string[] = [];
    for (const procedure of procedures) {
      const response = await handleTrpcRequest(
        trpcRequest(ORIGIN, procedure, { 'x-weir-csrf': '1', cookie: 'weir_session=forged' }),
        gateway.services,
        gateway.auth,
      );
      answers.push(`${procedure.type} ${procedure.path} ${response.status}`);
    }
    expect(answers.filter((answer) => !answer.endsWith(' 401'))).toEqual([]);
  });

  it("refuses a logged-in browser's change sent from another origin, even with the CSRF token", async () => {
    const login = await handleBrowserSession(
      new Request(`${ORIGIN}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(SECURE_ADMIN),
      }),
      gateway.auth,
    );
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .map((header) => header.split(';')[0])
      .join('; ');
    const { csrfToken } = (await login.json()) as { csrfToken: string };
    const create = (origin: string) =>
      handleRestRequest(
        new Request(`${ORIGIN}/api/v1/topics`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie, 'x-weir-csrf': csrfToken, origin },
          body: JSON.stringify({ name: 'login-cross-site', partitions: 1 }),
        }),
        gateway.services,
        gateway.auth,
      );
    const refused = await create(FOREIGN);
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toContain('another origin');
    expect(await gateway.admin.listTopics()).not.toContain('login-cross-site');
    expect((await create(ORIGIN)).status).toBe(200);
    expect(await gateway.admin.listTopics()).toContain('login-cross-site');
  });
});

describe('no-login mode: changes only from the console itself', () => {
  let gateway: GatewayFixture;
  beforeAll(async () => {
    gateway = await startGateway();
  }, 60_000);
  afterAll(async () => {
    await gateway?.dispose();
  });

  it('refuses every REST change from another origin, or without the CSRF header and an Origin', async () => {
    const changes = restRoutes().filter((route) => !SAFE.has(route.method));
    expect(changes.length).toBeGreaterThan(10);
    const answers: string[] = [];
    for (const route of changes) {
      for (const headers of [{ origin: FOREIGN, 'x-weir-csrf': '1' }, { origin: 'null' }, {}] as Record<
        string,
        string
      >[]) {
        const response = await handleRestRequest(
          restRequest(route.method, route.path, headers),
          gateway.services,
        );
        answers.push(`${route.method} ${route.template} ${JSON.stringify(headers)} ${response.status}`);
      }
    }
    expect(answers.filter((answer) => !answer.endsWith(' 403'))).toEqual([]);
  });

  it('refuses every tRPC mutation from another origin or without the CSRF header', async () => {
    const mutations = trpcProcedures().filter((procedure) => procedure.type === 'mutation');
    expect(mutations.length).toBeGreaterThan(10);
    const answers: string[] = [];
    for (const procedure of mutations) {
      for (const headers of [{ origin: FOREIGN }, {}] as Record<string, string>[]) {
        const response = await handleTrpcRequest(trpcRequest(ORIGIN, procedure, headers), gateway.services);
        answers.push(`${procedure.path} ${JSON.stringify(headers)} ${response.status}`);
      }
    }
    expect(answers.filter((answer) => !answer.endsWith(' 403'))).toEqual([]);
  });

  it('changes nothing for a refused request, and takes the same change from the console or a script', async () => {
    const create = (name: string, headers: Record<string, string>) =>
      handleRestRequest(
        new Request(`${ORIGIN}/api/v1/topics`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ name, partitions: 1 }),
        }),
        gateway.services,
      );
    const foreign = await create('csrf-foreign', { origin: FOREIGN });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).message).toContain(FOREIGN);
    const bare = await create('csrf-bare', {});
    expect(bare.status).toBe(403);
    expect((await bare.json()).message).toContain('x-weir-csrf');
    const names = async () => gateway.clients.admin().listTopics();
    expect(await names()).not.toEqual(expect.arrayContaining(['csrf-foreign']));
    expect(await names()).not.toEqual(expect.arrayContaining(['csrf-bare']));

    expect((await create('csrf-same-origin', { origin: ORIGIN })).status).toBe(200);
    expect((await create('csrf-script', { 'x-weir-csrf': '1' })).status).toBe(200);
    // Behind a proxy that forwards the public name, the page's origin is that name.
    expect(
      (
        await create('csrf-proxied', {
          origin: 'https://console.example.com',
          'x-forwarded-host': 'console.example.com',
        })
      ).status,
    ).toBe(200);
    expect(await names()).toEqual(
      expect.arrayContaining(['csrf-same-origin', 'csrf-script', 'csrf-proxied']),
    );
  });

  it("says the console's own principal is a super user, which it is (no-login mode acts as it)", async () => {
    const view = await gateway.caller.acls.effective({ principal: 'User:weir-internal' });
    expect(view.superUser).toBe(true);
    // The page says whose identity that is.
    const summary = renderToStaticMarkup(createElement(PermissionSummary, { view }));
    expect(summary).toContain('Super user');
    expect(summary).toContain('the console&#x27;s own identity');
    const users = await gateway.caller.acls.effective({ principal: 'User:someone' });
    expect(users.superUser).toBe(false);
  });

  it('still answers reads without the header', async () => {
    const response = await handleRestRequest(new Request(`${ORIGIN}/api/v1/topics`), gateway.services);
    expect(response.status).toBe(200);
  });
});
