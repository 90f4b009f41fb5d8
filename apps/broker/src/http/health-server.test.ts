import { afterEach, describe, expect, it } from 'vitest';
import { type ReadinessCheck, startHealthServer } from './health-server';
import type { RunningServer } from './listen';

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function start(readiness: () => ReadinessCheck[]): Promise<string> {
  const server = await startHealthServer({ host: '127.0.0.1', port: 0, readiness });
  running.push(server);
  return `http://127.0.0.1:${server.port}`;
}

async function get(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; type: string | null; body: unknown }> {
  const response = await fetch(url, init);
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: text ? JSON.parse(text) : '',
  };
}

describe('health server', () => {
  it('answers /live with 200 whatever the readiness', async () => {
    const base = await start(() => [{ name: 'storage', ok: false }]);
    expect(await get(`${base}/live`)).toEqual({
      status: 200,
      type: 'application/json; charset=utf-8',
      body: { status: 'live' },
    });
  });

  it('answers /ready with 200 and every check when all pass', async () => {
    const base = await start(() => [
      { name: 'storage', ok: true },
      { name: 'listeners', ok: true, detail: '127.0.0.1:9092' },
    ]);
    expect(await get(`${base}/ready`)).toMatchObject({
      status: 200,
      body: {
        status: 'ready',
        checks: [
          { name: 'storage', ok: true },
          { name: 'listeners', ok: true, detail: '127.0.0.1:9092' },
        ],
      },
    });
  });

  it('answers /ready with 503 and the failing checks first', async () => {
    const base = await start(() => [
      { name: 'storage', ok: true },
      { name: 'metadata', ok: true },
      { name: 'listeners', ok: false, detail: 'not bound yet' },
    ]);
    expect(await get(`${base}/ready`)).toMatchObject({
      status: 503,
      body: {
        status: 'not ready',
        checks: [
          { name: 'listeners', ok: false, detail: 'not bound yet' },
          { name: 'storage', ok: true },
          { name: 'metadata', ok: true },
        ],
      },
    });
  });

  it('answers /ready with 200 and status degraded while only checks that degrade the broker fail', async () => {
    const problem = {
      subject: 'orders-0',
      state: 'offline',
      error: 'read failed: EIO',
      action: 'weir log check orders 0',
    };
    const base = await start(() => [
      { name: 'storage', ok: true, detail: 'recovered' },
      {
        name: 'partitions',
        ok: false,
        impact: 'degraded',
        detail: '1 offline (orders-0)',
        problems: [problem],
      },
    ]);
    expect(await get(`${base}/ready`)).toMatchObject({
      status: 200,
      body: {
        status: 'degraded',
        summary: 'degraded: partitions: 1 offline (orders-0)',
        checks: [
          { name: 'partitions', ok: false, impact: 'degraded', problems: [problem] },
          { name: 'storage', ok: true },
        ],
      },
    });
  });

  it('answers 503 when a check that stops the broker serving fails, listing it before degraded ones', async () => {
    const base = await start(() => [
      { name: 'partitions', ok: false, impact: 'degraded', detail: '1 offline' },
      { name: 'storage', ok: true },
      { name: 'client-listener', ok: false, impact: 'unavailable', detail: 'shutting down' },
    ]);
    const answer = await get(`${base}/ready`);
    expect(answer).toMatchObject({
      status: 503,
      body: {
        status: 'not ready',
        summary: 'not ready: client-listener: shutting down; partitions: 1 offline',
        checks: [{ name: 'client-listener' }, { name: 'partitions' }, { name: 'storage' }],
      },
    });
  });

  it('asks for readiness on every request, so the answer follows the broker', async () => {
    let storageRecovered = false;
    const base = await start(() => [{ name: 'storage', ok: storageRecovered }]);
    expect((await get(`${base}/ready`)).status).toBe(503);
    storageRecovered = true;
    expect((await get(`${base}/ready`)).status).toBe(200);
  });

  it('answers 503 naming the failure when the readiness callback throws', async () => {
    const base = await start(() => {
      throw new Error('metadata store closed');
    });
    expect(await get(`${base}/ready`)).toMatchObject({
      status: 503,
      body: {
        status: 'not ready',
        checks: [{ name: 'readiness', ok: false, detail: 'metadata store closed' }],
      },
    });
  });

  it('answers 404 for other paths and methods, and ignores a query string', async () => {
    const base = await start(() => []);
    expect((await get(`${base}/`)).status).toBe(404);
    expect((await get(`${base}/metrics`)).status).toBe(404);
    expect((await get(`${base}/live`, { method: 'POST' })).status).toBe(404);
    expect((await get(`${base}/live?probe=k8s`)).status).toBe(200);
  });

  it('rejects when the port is taken and closes promptly with a keep-alive client', async () => {
    const base = await start(() => []);
    const port = Number(new URL(base).port);
    await expect(startHealthServer({ port, readiness: () => [] })).rejects.toThrow(/EADDRINUSE/);
    await get(`${base}/live`); // fetch keeps the connection alive; close must not wait for it
    const server = running.pop();
    await server?.close();
    await expect(fetch(`${base}/live`)).rejects.toThrow();
  });
});
