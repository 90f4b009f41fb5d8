import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleRestRequest } from '../src/server/api/http';
import type { GatewayServices } from '../src/server/gateway-services';

/** The gateway's REST API on a real HTTP server (127.0.0.1, an ephemeral port), as scripts reach it. */
export interface HttpGateway {
  readonly origin: string;
  /** A REST call under /api/v1; changes carry the CSRF header, as a script without login sends it. */
  rest(method: string, path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : Buffer.concat(chunks);
}

export async function startHttpGateway(services: GatewayServices): Promise<HttpGateway> {
  const server: Server = createServer((incoming, outgoing) => {
    void (async () => {
      try {
        const host = incoming.headers.host ?? '127.0.0.1';
        const body = await bodyOf(incoming);
        const headers = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (typeof value === 'string') headers.set(name, value);
        }
        const request = new Request(`http://${host}${incoming.url ?? '/'}`, {
          method: incoming.method ?? 'GET',
          headers,
          ...(body === undefined ? {} : { body: new Uint8Array(body) }),
        });
        const response = await handleRestRequest(request, services);
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      } catch (error) {
        outgoing.writeHead(500, { 'content-type': 'text/plain' });
        outgoing.end(String(error));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    rest(method, path, body) {
      const init: RequestInit = {
        method,
        headers: { 'x-weir-csrf': '1' },
        signal: AbortSignal.timeout(20_000),
      };
      if (body !== undefined) {
        init.body = JSON.stringify(body);
        init.headers = { 'content-type': 'application/json', 'x-weir-csrf': '1' };
      }
      return fetch(`${origin}/api/v1${path}`, init);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
