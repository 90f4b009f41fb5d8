import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { Admin } from '@weir/protocol';
import { withClient } from './support/sdk';

/*
 * The console against another site's page (issue #15), in Chromium: a page served on another
 * local port (cross-origin, though same-site, so SameSite cookies would not help) tries to change
 * the broker through the console with a form and with fetches, and to frame it. The console
 * without login is the target, since it acts with its full rights for whoever reaches it.
 */

/** A web server on 127.0.0.1 (a port of its own) answering `page` at `/`. */
async function serveForeignPage(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

async function closeServer(server: Server): Promise<void> {
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

async function topicNames(): Promise<string[]> {
  return withClient((client) => new Admin(client).listTopics());
}

/** The console's own address (Playwright's baseURL), for the foreign page to aim at. */
function consoleOrigin(baseURL: string | undefined): string {
  if (baseURL === undefined) throw new Error('the console URL (baseURL) is not set');
  return new URL(baseURL).origin;
}

/** The JSON body a text/plain form can forge: `name=value` where the `=` lands inside a string. */
function forgedJsonForm(id: string, action: string, body: Record<string, unknown>): string {
  const json = JSON.stringify({ ...body, pad: '' });
  const name = json.slice(0, -2);
  return `<form id="${id}" method="POST" enctype="text/plain" action="${action}" target="${id}-frame">
    <input name='${name.replaceAll("'", '&#39;')}' value='"}'>
  </form><iframe name="${id}-frame"></iframe>`;
}

/** Collects Content-Security-Policy violations the page reports. */
function cspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
      violations.push(message.text());
    }
  });
  return violations;
}

test('a cross-site form or fetch cannot change anything, while the console’s own page can', async ({
  page,
  baseURL,
}) => {
  const target = consoleOrigin(baseURL);
  const foreign = await serveForeignPage(`<!doctype html><title>foreign</title>
    ${forgedJsonForm('rest', `${target}/api/v1/topics`, { name: 'xsite-rest-form', partitions: 1 })}
    ${forgedJsonForm('trpc', `${target}/api/trpc/topics.create`, { name: 'xsite-trpc-form', partitions: 1 })}`);
  try {
    await page.goto(foreign.url);
    for (const id of ['rest', 'trpc']) {
      const answered = page.waitForResponse(
        (response) => response.request().method() === 'POST' && response.url().startsWith(target),
      );
      await page.evaluate((formId) => (document.getElementById(formId) as HTMLFormElement).submit(), id);
      expect((await answered).status(), id).toBe(403);
    }
    // A fetch that needs no preflight (no-cors, text/plain), and one with the CSRF header, which does.
    const outcomes = await page.evaluate(async (console) => {
      const simple = await fetch(`${console}/api/trpc/topics.create`, {
        method: 'POST',
        mode: 'no-cors',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ name: 'xsite-fetch-simple', partitions: 1 }),
      }).then(
        (response) => response.type,
        (error: Error) => `failed: ${error.message}`,
      );
      const preflighted = await fetch(`${console}/api/trpc/topics.create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-weir-csrf': 'forged' },
        body: JSON.stringify({ name: 'xsite-fetch-header', partitions: 1 }),
      }).then(
        (response) => `answered ${response.status}`,
        (error: Error) => `failed: ${error.message}`,
      );
      return { simple, preflighted };
    }, target);
    // The browser sends the simple one (its answer is opaque to the page); the preflight fails.
    expect(outcomes.simple).toBe('opaque');
    expect(outcomes.preflighted).toMatch(/^failed/);
  } finally {
    await closeServer(foreign.server);
  }
  const names = await topicNames();
  for (const name of ['xsite-rest-form', 'xsite-trpc-form', 'xsite-fetch-simple', 'xsite-fetch-header']) {
    expect(names, name).not.toContain(name);
  }

  // The same change from the console's own page goes through, so the refusals above are the guard's.
  await page.goto('/topics');
  const status = await page.evaluate(async () => {
    const response = await fetch('/api/trpc/topics.create', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-weir-csrf': 'same-origin' },
      body: JSON.stringify({ name: 'xsite-own-page', partitions: 1 }),
    });
    return response.status;
  });
  expect(status).toBe(200);
  expect(await topicNames()).toContain('xsite-own-page');
});

test('another site cannot frame the console', async ({ page, baseURL }) => {
  const target = consoleOrigin(baseURL);
  const foreign = await serveForeignPage(`<!doctype html><title>framing</title>
    <iframe id="console" src="${target}/topics" onload="document.title = 'frame loaded'"></iframe>`);
  try {
    await page.goto(foreign.url);
    // The frame's load event fires for the console's page and for the browser's refusal alike;
    // by then a served page's server-rendered heading would be there.
    await expect(page).toHaveTitle('frame loaded');
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    expect(frame).toBeDefined();
    // Chromium shows its own error page in place of a refused frame: none of the console is there.
    await expect(frame!.getByRole('heading', { name: 'Topics' })).toHaveCount(0);
    await expect(frame!.getByRole('navigation', { name: 'Console sections' })).toHaveCount(0);
    expect(await frame!.content()).not.toContain('Weir console');
  } finally {
    await closeServer(foreign.server);
  }
});

test('pages render and hydrate under the policy, with the security headers and the no-login notice', async ({
  page,
  request,
}) => {
  const violations = cspViolations(page);
  const response = await page.goto('/topics');
  const headers = response?.headers() ?? {};
  expect(headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  expect(headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('same-origin');
  await expect(page.getByRole('heading', { level: 1, name: 'Topics' })).toBeVisible();
  // Hydrated: the theme toggle renders aria-pressed only once React runs, and the toggle works.
  const toggle = page.getByRole('button', { name: 'Dark mode' });
  await expect(toggle).toHaveAttribute('aria-pressed', /^(true|false)$/);
  const before = await toggle.getAttribute('aria-pressed');
  await toggle.click();
  await expect(toggle).not.toHaveAttribute('aria-pressed', before ?? '');
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('link', { name: 'Brokers' })
    .click();
  await expect(page.getByRole('table', { name: 'Brokers' })).toBeVisible();
  await expect(page.getByRole('note', { name: 'Security notice' })).toContainText('full rights');
  expect(violations).toEqual([]);

  for (const path of ['/api/v1/topics', '/api/health', '/icon.svg']) {
    const answer = await request.get(path);
    expect(answer.headers()['content-security-policy'], path).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(answer.headers()['x-frame-options'], path).toBe('DENY');
    expect(answer.headers()['x-content-type-options'], path).toBe('nosniff');
  }
});

test('a request under a foreign Host name is refused, naming the setting', async ({ request }) => {
  for (const path of ['/topics', '/api/v1/topics']) {
    const refused = await request.get(path, { headers: { host: 'rebound.example:3000' } });
    expect(refused.status(), path).toBe(421);
    expect(await refused.text(), path).toContain('WEIR_CONSOLE_ALLOWED_HOSTS');
  }
  expect((await request.get('/api/v1/topics', { headers: { host: 'localhost' } })).status()).toBe(200);
});
