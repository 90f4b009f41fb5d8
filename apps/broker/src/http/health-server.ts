import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen, type RunningServer } from './listen';

/** One condition the broker must meet before it takes traffic, e.g. "storage recovered". */
export interface ReadinessCheck {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface HealthServerOptions {
  /** Loopback by default, so the probe endpoints are not exposed unless asked for. */
  host?: string;
  port: number;
  /** Asked on every `/ready` request, so the answer is never stale. */
  readiness: () => ReadinessCheck[];
}

export interface ReadinessReport {
  status: 'ready' | 'not ready';
  checks: ReadinessCheck[];
}

/**
 * Serves the probes: `GET /live` answers 200 as long as the process serves requests at all, and
 * `GET /ready` answers 200 only when every readiness check passes, else 503; both carry JSON.
 */
export async function startHealthServer(options: HealthServerOptions): Promise<RunningServer> {
  const server = createServer((request, response) => handle(request, response, options.readiness));
  return listen(server, options.host ?? '127.0.0.1', options.port);
}

/** Failing checks come first so that the reason for a 503 is the first thing a person reads. */
export function readinessReport(checks: readonly ReadinessCheck[]): ReadinessReport {
  const ordered = [...checks.filter((check) => !check.ok), ...checks.filter((check) => check.ok)];
  return { status: ordered.every((check) => check.ok) ? 'ready' : 'not ready', checks: ordered };
}

function handle(request: IncomingMessage, response: ServerResponse, readiness: () => ReadinessCheck[]): void {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  // HEAD is answered like GET (Node omits the body), since some probes use it.
  const isRead = request.method === 'GET' || request.method === 'HEAD';
  if (isRead && path === '/live') {
    sendJson(response, 200, { status: 'live' });
  } else if (isRead && path === '/ready') {
    const report = readinessReport(safeReadiness(readiness));
    sendJson(response, report.status === 'ready' ? 200 : 503, report);
  } else {
    sendJson(response, 404, { error: 'not found' });
  }
}

/** A readiness callback that throws means the broker cannot vouch for itself: that is not ready. */
function safeReadiness(readiness: () => ReadinessCheck[]): ReadinessCheck[] {
  try {
    return readiness();
  } catch (error) {
    return [{ name: 'readiness', ok: false, detail: error instanceof Error ? error.message : String(error) }];
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  response.end(text);
}
