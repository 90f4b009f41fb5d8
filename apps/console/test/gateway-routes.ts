import { openApiDocument, REST_BASE_PATH } from '../src/server/api/openapi';
import { appRouter } from '../src/server/api/root';

/*
 * Every route of the gateway, read from the router and the OpenAPI document, so a procedure added
 * later is in the security suite without anyone listing it.
 */

export interface RestRoute {
  readonly method: string;
  /** Under /api/v1, path parameters filled in. */
  readonly path: string;
  /** As the document names it, `/topics/{topic}`. */
  readonly template: string;
}

export interface TrpcProcedure {
  readonly path: string;
  readonly type: 'query' | 'mutation' | 'subscription';
}

/** A value for each path parameter that the route's schema accepts. */
function filled(template: string): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === 'partition' || name === 'offset' ? '0' : name === 'side' ? 'value' : `probe-${name}`,
  );
}

/** Every REST operation but `/sessions` (which is how one logs in). */
export function restRoutes(): RestRoute[] {
  return Object.entries(openApiDocument().paths ?? {}).flatMap(([template, operations]) =>
    template === '/sessions'
      ? []
      : Object.keys(operations as object).map((method) => ({
          method: method.toUpperCase(),
          path: `${REST_BASE_PATH}${filled(template)}`,
          template,
        })),
  );
}

export function trpcProcedures(): TrpcProcedure[] {
  const procedures = appRouter._def.procedures as unknown as Record<
    string,
    { _def: { type: TrpcProcedure['type'] } }
  >;
  return Object.entries(procedures).map(([path, procedure]) => ({ path, type: procedure._def.type }));
}

/** A tRPC call over HTTP as the console's client sends it: queries and subscriptions GET, mutations POST. */
export function trpcRequest(
  origin: string,
  procedure: TrpcProcedure,
  headers: Record<string, string> = {},
): Request {
  if (procedure.type === 'mutation') {
    return new Request(`${origin}/api/trpc/${procedure.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: '{}',
    });
  }
  return new Request(`${origin}/api/trpc/${procedure.path}?input=${encodeURIComponent('{}')}`, { headers });
}
