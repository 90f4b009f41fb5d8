import type { OpenApiMeta } from 'trpc-to-openapi';
import type { z } from 'zod';
import { restInputSchema } from './rest-input';

/**
 * How one face of the gateway takes its input. The routers are built once per transport, so tRPC
 * and REST run the same resolvers over input schemas of their own (see rest-input.ts for why REST
 * cannot share tRPC's).
 */
export interface Transport {
  readonly name: 'trpc' | 'rest';
  input<S extends z.ZodObject>(schema: S, meta: OpenApiMeta): S;
}

/**
 * tRPC carries JSON with real types: the shared schemas as they are, and nothing coerced. A query
 * sent without `?input=` (`GET /api/trpc/cluster.overview`, as a person or a probe types it)
 * arrives as undefined, which an object schema would refuse; it is read as `{}` instead, so its
 * defaults apply and a required field is named as missing. The static type stays the shared
 * schema's: typed callers still pass an object.
 */
export const TRPC_TRANSPORT: Transport = {
  name: 'trpc',
  input: <S extends z.ZodObject>(schema: S) => schema.prefault({} as z.input<S>) as unknown as S,
};

/** REST carries path and query strings: copies with explicit coercion there, sealed bodies. */
export const REST_TRANSPORT: Transport = { name: 'rest', input: restInputSchema };
