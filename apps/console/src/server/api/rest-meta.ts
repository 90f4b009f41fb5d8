import type { OpenApiMeta, OpenApiMethod } from 'trpc-to-openapi';

/**
 * The REST exposure of a procedure under /api/v1. `protect: false`: the gateway has no login of its
 * own yet (the broker authorizes the console's token), so the document declares no security scheme.
 */
export function rest(
  tag: string,
  method: OpenApiMethod,
  path: `/${string}`,
  summary: string,
  description?: string,
): OpenApiMeta {
  return {
    openapi: { method, path, tags: [tag], summary, protect: false, ...(description ? { description } : {}) },
  };
}
