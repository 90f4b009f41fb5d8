import type { OpenApiMeta, OpenApiMethod } from 'trpc-to-openapi';

/**
 * The REST exposure of a procedure under /api/v1. Protected: in login mode (WEIR_CONSOLE_AUTH=login)
 * every call needs a bearer token from `POST /sessions` (or the console's session cookie), so the
 * document lists the `bearer` scheme on each operation; without login the scheme is not enforced.
 */
export function rest(
  tag: string,
  method: OpenApiMethod,
  path: `/${string}`,
  summary: string,
  description?: string,
): OpenApiMeta {
  return {
    openapi: { method, path, tags: [tag], summary, protect: true, ...(description ? { description } : {}) },
  };
}
