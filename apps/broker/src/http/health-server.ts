import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen, type RunningServer } from './listen';

/** One condition the broker is checked for, e.g. "storage recovered" or "no partition offline". */
export interface ReadinessCheck {
  name: string;
  /** Whether this part of the broker is fully healthy. */
  ok: boolean;
  detail?: string;
  /**
   * What a failing check does to the broker: `unavailable` (the default) stops it serving, so
   * `/ready` answers 503 and a load balancer takes it out of rotation; `degraded` leaves it
   * serving with something missing, so `/ready` answers 200 and lists what.
   */
  impact?: 'degraded' | 'unavailable';
  /** What a failing check found, one entry per affected thing, each with what to do about it. */
  problems?: readonly ReadinessProblem[];
}

/** One thing a check found wrong, e.g. one offline partition. */
export interface ReadinessProblem {
  /** What is affected, e.g. `orders-3`. */
  subject: string;
  /** Its state, e.g. `offline` or `out-of-space`. */
  state: string;
  /** The error behind it, as the broker saw it. */
  error: string;
  /** What an operator can do about it, e.g. the repair command to run. */
  action: string;
  /** Since when (ISO 8601), where known. */
  since?: string;
}

export interface HealthServerOptions {
  /** Loopback by default, so the probe endpoints are not exposed unless asked for. */
  host?: string;
  port: number;
  /** Asked on every `/ready` request, so the answer is never stale. */
  readiness: () => ReadinessCheck[];
}

export interface ReadinessReport {
  /** `ready`: all checks pass; `degraded`: serving, with what is missing listed; `not ready`: not serving. */
  status: 'ready' | 'degraded' | 'not ready';
  /** One line for a person: the status and the failing checks' details. */
  summary: string;
  checks: ReadinessCheck[];
}

/**
 * Serves the probes: `GET /live` answers 200 as long as the process serves requests at all, and
 * `GET /ready` answers 200 while the broker serves (every check passes, or the failing ones only
 * degrade it) and 503 when a check that stops it serving fails; both carry JSON.
 */
export async function startHealthServer(options: HealthServerOptions): Promise<RunningServer> {
  const server = createServer((request, response) => handle(request, response, options.readiness));
  return listen(server, options.host ?? '127.0.0.1', options.port);
}

/**
 * Checks that stop the broker serving come first, then those that degrade it, so that the reason
 * for a 503 (or for a degraded broker) is the first thing a person reads.
 */
export function readinessReport(checks: readonly ReadinessCheck[]): ReadinessReport {
  const blocking = checks.filter((check) => !check.ok && check.impact !== 'degraded');
  const degrading = checks.filter((check) => !check.ok && check.impact === 'degraded');
  const status = blocking.length > 0 ? 'not ready' : degrading.length > 0 ? 'degraded' : 'ready';
  const failing = [...blocking, ...degrading];
  const summary =
    failing.length === 0
      ? 'ready'
      : `${status}: ${failing.map((check) => `${check.name}: ${check.detail ?? 'failing'}`).join('; ')}`;
  return { status, summary, checks: [...failing, ...checks.filter((check) => check.ok)] };
}

function handle(request: IncomingMessage, response: ServerResponse, readiness: () => ReadinessCheck[]): void {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  // HEAD is answered like GET (Node omits the body), since some probes use it.
  const isRead = request.method === 'GET' || request.method === 'HEAD';
  if (isRead && path === '/live') {
    sendJson(response, 200, { status: 'live' });
  } else if (isRead && path === '/ready') {
    const report = readinessReport(safeReadiness(readiness));
    sendJson(response, report.status === 'not ready' ? 503 : 200, report);
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
