import 'server-only';
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { restRouter } from './root';

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
      'Administration of a Weir broker: cluster, brokers, topics, messages, consumer groups and transactions. ' +
      'Offsets, sizes, producer ids and lags are decimal strings; lag is transaction-aware (measured against the last stable offset); every answer carries `asOfMs`, when the broker state was read. ' +
      'Errors carry the Kafka error code in `data.brokerCode` and its name in `data.brokerError`.',
    version: '1.0.0',
    baseUrl: REST_BASE_PATH,
    tags: ['cluster', 'brokers', 'topics', 'messages', 'groups', 'transactions'],
  });
  return document;
}
