import 'server-only';
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { z } from 'zod';
import { loginInput } from '../auth/session-routes';
import { restRouter } from './root';

const errorBody = z.object({ message: z.string(), code: z.string() });

/** `/sessions`: served beside the procedures (it sets up the bearer token they accept). */
const sessionPaths = {
  '/sessions': {
    post: {
      operationId: 'sessions-create',
      tags: ['sessions'],
      summary: 'Log in (console login mode)',
      description:
        'Checks a broker username and password (the broker rate-limits failures) and answers a session token for ' +
        '`Authorization: Bearer <token>`. Requests made with it run as that user: the broker applies its ACLs. ' +
        'Sessions end after 30 minutes unused or 8 hours, and on DELETE.',
      security: [],
      requestBody: { required: true, content: { 'application/json': { schema: loginInput } } },
      responses: {
        '201': {
          description: 'Logged in',
          content: {
            'application/json': {
              schema: z.object({ token: z.string(), username: z.string(), expiresAtMs: z.number() }),
            },
          },
        },
        '400': { description: 'Missing fields', content: { 'application/json': { schema: errorBody } } },
        '401': {
          description: 'Wrong username or password',
          content: { 'application/json': { schema: errorBody } },
        },
      },
    },
    delete: {
      operationId: 'sessions-delete',
      tags: ['sessions'],
      summary: 'Log out: the bearer token is refused from then on',
      responses: {
        '204': { description: 'Logged out' },
        '401': { description: 'No live session', content: { 'application/json': { schema: errorBody } } },
      },
    },
  },
};

/** Where the REST procedures are served; the OpenAPI document's server URL. */
export const REST_BASE_PATH = '/api/v1';

let document: OpenAPIObject | undefined;

/**
 * The OpenAPI 3 document of the REST API, generated from the same procedures (and zod schemas) as
 * the tRPC router. Built once: the router does not change while the process runs.
 */
export function openApiDocument(): OpenAPIObject {
  document ??= generateOpenApiDocument(restRouter, {
    title: 'Weir admin API',
    description:
      'Administration of a Weir broker: cluster, brokers, partition reassignments, topics, messages, consumer groups and transactions. ' +
      'Offsets, sizes, producer ids and lags are decimal strings; lag is transaction-aware (measured against the last stable offset); every answer carries `asOfMs`, when the broker state was read. ' +
      'Errors carry the Kafka error code in `data.brokerCode` and its name in `data.brokerError`. ' +
      'Invalid input is 400 with `issues` naming each field; a query parameter an operation does not have is refused the same way ' +
      '(an `unrecognized_keys` issue listing it and the parameters the operation takes), and POST, PUT and PATCH take no query parameters at all. ' +
      'When the console runs in login mode (WEIR_CONSOLE_AUTH=login), every call needs `Authorization: Bearer <token>` ' +
      'from `POST /sessions` (or the console session cookie with the `x-weir-csrf` header on changes) and runs as that ' +
      "user: the broker's ACLs decide, and a refusal is 403 with the Kafka code (e.g. TOPIC_AUTHORIZATION_FAILED).",
    version: '1.0.0',
    baseUrl: REST_BASE_PATH,
    tags: [
      'sessions',
      'cluster',
      'brokers',
      'reassignments',
      'topics',
      'messages',
      'groups',
      'transactions',
      'acls',
      'users',
    ],
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description: 'A session token from POST /sessions (login mode).',
      },
    },
    paths: sessionPaths,
  });
  return document;
}
