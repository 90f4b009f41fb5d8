import type { OpenApiMeta } from 'trpc-to-openapi';
import { z } from 'zod';

/*
 * REST's own input schemas, derived from the shared ones.
 *
 * trpc-to-openapi coerces REST input by setting `_def.coerce = true` on every number, boolean,
 * bigint and date schema it finds in a procedure's input, in place and on every request. Had REST
 * and tRPC shared those schema objects, the first REST request would have made tRPC accept "3"
 * for a number and turn `null` into 0. So REST gets copies:
 *
 * - Path and query parameters arrive as strings, so there numbers (and bigints, dates) are copies
 *   with explicit coercion, and booleans take the words "true"/"false" (plain coercion would read
 *   "false" as true).
 * - JSON bodies already carry real types, so body fields are sealed: wrapped in a pipe, which the
 *   library neither coerces nor looks into. `"dryRun": null` therefore stays an error instead of
 *   becoming false.
 *
 * The library still runs its coercion on these copies; for them it changes nothing.
 */

type AnySchema = z.ZodType;

interface WrapperDef {
  readonly type: string;
  readonly innerType?: AnySchema;
  readonly element?: AnySchema;
}

/** Kinds the library would coerce in place. */
const COERCIBLE_KINDS = new Set(['number', 'bigint', 'date']);

/** Methods whose input, path parameters aside, is a JSON body. */
export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/** A boolean query parameter: a boolean, or the words "true" and "false". */
export function queryBooleanSchema(): AnySchema {
  return z.codec(z.union([z.boolean(), z.enum(['true', 'false'])]), z.boolean(), {
    decode: (value) => value === true || value === 'true',
    encode: (value) => value,
  });
}

/** A copy with a definition of its own; `parent` keeps the original's meta (descriptions). */
function copy(schema: AnySchema, def: object): AnySchema {
  return schema.clone(def as never, { parent: true });
}

/**
 * Rebuilds the wrappers the library looks through (optional, nullable, default, prefault, array)
 * as copies, and lets `leaf` decide about what they wrap.
 */
function rebuild(schema: AnySchema, leaf: (schema: AnySchema) => AnySchema): AnySchema {
  const def = schema.def as WrapperDef;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
      return copy(schema, { ...schema.def, innerType: rebuild(def.innerType as AnySchema, leaf) });
    case 'array':
      return copy(schema, { ...schema.def, element: rebuild(def.element as AnySchema, leaf) });
    default:
      return leaf(schema);
  }
}

/** A field of the path or the query string. */
function stringCarried(schema: AnySchema): AnySchema {
  return rebuild(schema, (leaf) => {
    const kind = leaf.def.type;
    if (COERCIBLE_KINDS.has(kind)) return copy(leaf, { ...leaf.def, coerce: true });
    if (kind === 'boolean') return queryBooleanSchema();
    // A query string carries no objects; sealing keeps the library out of one anyway.
    if (kind === 'object') return sealed(leaf);
    return leaf;
  });
}

/**
 * A path parameter. The library hands path segments over as they are in the URL, still
 * percent-encoded, so ids with spaces, `<`, `%` or `/` could not be addressed; they are decoded
 * here, and a malformed escape is an issue on the parameter (a 400 that names it). The decoding
 * wraps the field in a pipe, which the library leaves alone, so the field's own (coercing) copy
 * still validates the decoded text.
 */
function pathCarried(name: string, schema: AnySchema): AnySchema {
  const decoded = z.preprocess((value, context) => {
    if (typeof value !== 'string') return value;
    try {
      return decodeURIComponent(value);
    } catch {
      context.addIssue({
        code: 'custom',
        message: `${name}: "${value.slice(0, 200)}" is not valid percent-encoding (write % as %25)`,
        input: value,
      });
      return z.NEVER;
    }
  }, stringCarried(schema));
  // A preprocess step accepts anything, `undefined` included, so zod marks the pipe as optional
  // input and the OpenAPI document would lose the parameter's `required`. The value is whatever
  // the decoded field requires, so the pipe takes the field's own answer.
  Object.defineProperty(decoded._zod, 'optin', { value: schema._zod.optin, configurable: true });
  return decoded;
}

/** A field of a JSON body: validated as it is, out of the library's reach. */
function sealed(schema: AnySchema): AnySchema {
  return z.pipe(schema, z.unknown());
}

/** The names in a path template such as `/topics/{topic}/partitions/{partition}`. */
function pathParameters(path: string): Set<string> {
  return new Set(Array.from(path.matchAll(/\{(\w+)\}/g), (match) => match[1] as string));
}

/**
 * Refuses query parameters the operation does not have. Left alone, zod would drop them, and a
 * client asking for `limit=20` where the parameter is `pageSize` would get 50 rows and no hint of
 * its mistake. The issue names every unknown parameter and lists the operation's own.
 */
function refusingUnknownQuery(schema: AnySchema, queryNames: readonly string[]): AnySchema {
  const accepted = queryNames.length === 0 ? 'none' : queryNames.join(', ');
  return copy(schema, {
    ...schema.def,
    catchall: z.never(),
    error: (issue: { code?: string; keys?: readonly string[] }) => {
      if (issue.code !== 'unrecognized_keys' || issue.keys === undefined) return undefined;
      const names = issue.keys.map((key) => `"${key}"`).join(', ');
      const noun = issue.keys.length === 1 ? 'query parameter' : 'query parameters';
      return `unknown ${noun} ${names}; this operation takes: ${accepted}`;
    },
  });
}

/**
 * REST's copy of a shared input schema. Its static type is the shared one's: REST's router is only
 * served and documented, and clients type against tRPC's. Operations without a body take their
 * input from the query string and refuse parameters they do not have (a body method's query
 * string is refused whole in http.ts, since the library does not read it).
 */
export function restInputSchema<S extends z.ZodObject>(schema: S, meta: OpenApiMeta): S {
  const openapi = meta.openapi;
  if (openapi === undefined) return schema;
  const inPath = pathParameters(openapi.path);
  const hasBody = BODY_METHODS.has(openapi.method);
  const shape: Record<string, AnySchema> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, AnySchema>)) {
    shape[key] = inPath.has(key) ? pathCarried(key, field) : hasBody ? sealed(field) : stringCarried(field);
  }
  const copied = copy(schema, { ...schema.def, shape });
  if (hasBody) return copied as S;
  return refusingUnknownQuery(
    copied,
    Object.keys(shape).filter((key) => !inPath.has(key)),
  ) as S;
}

/**
 * A body method's query string: the library reads only the body (and the path), so a parameter
 * there would be ignored without a word. The 400 it gets has the shape of the library's own input
 * errors, with the same kind of issue the query schemas raise; undefined when there is none.
 */
export function refusedBodyMethodQuery(request: Request): Response | undefined {
  if (!BODY_METHODS.has(request.method)) return undefined;
  const keys = [...new Set(new URL(request.url).searchParams.keys())];
  if (keys.length === 0) return undefined;
  const names = keys.map((key) => `"${key}"`).join(', ');
  const noun = keys.length === 1 ? 'query parameter' : 'query parameters';
  const message = `unknown ${noun} ${names}; ${request.method} takes its input from the JSON body`;
  return Response.json(
    {
      message: 'Input validation failed',
      code: 'BAD_REQUEST',
      issues: [{ code: 'unrecognized_keys', keys, path: [], message }],
    },
    { status: 400 },
  );
}

/**
 * A body method's body must be JSON. The library refuses anything else itself, but its message
 * lacks the closing quote (`Unsupported content-type "text/plain`), so the REST layer answers
 * first, with the same status (415) and code, and says what to send; undefined when it is JSON.
 */
export function refusedBodyMediaType(request: Request): Response | undefined {
  if (!BODY_METHODS.has(request.method)) return undefined;
  const contentType = request.headers.get('content-type');
  if (contentType?.startsWith('application/json')) return undefined;
  const problem = contentType ? `Unsupported content-type "${contentType}"` : 'Missing content-type header';
  return Response.json(
    { message: `${problem}: send the body as application/json`, code: 'UNSUPPORTED_MEDIA_TYPE', issues: [] },
    { status: 415 },
  );
}
