import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import { listen, type RunningServer } from './listen';

export interface MetricsServerOptions {
  /** Loopback by default, so metrics are not exposed unless asked for. */
  host?: string;
  port: number;
  registry: Registry;
}

/** Serves `GET /metrics` in the registry's exposition format for Prometheus to scrape. */
export async function startMetricsServer(options: MetricsServerOptions): Promise<RunningServer> {
  const server = createServer((request, response) => {
    void handle(request, response, options.registry);
  });
  return listen(server, options.host ?? '127.0.0.1', options.port);
}

async function handle(request: IncomingMessage, response: ServerResponse, registry: Registry): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  if ((request.method !== 'GET' && request.method !== 'HEAD') || path !== '/metrics') {
    sendText(response, 404, 'text/plain; charset=utf-8', 'not found\n');
    return;
  }
  try {
    sendText(response, 200, registry.contentType, await registry.metrics());
  } catch (error) {
    // A failing collector must not take the process down; the scraper records a failed scrape.
    const message = error instanceof Error ? error.message : String(error);
    sendText(response, 500, 'text/plain; charset=utf-8', `collecting metrics failed: ${message}\n`);
  }
}

function sendText(response: ServerResponse, status: number, contentType: string, body: string): void {
  response.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}
