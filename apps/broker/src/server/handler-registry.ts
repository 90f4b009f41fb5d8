import type { ApiSchema } from '@weir/protocol';
import type { BrokerServices } from '../broker-services';
import { assertAclRulesFor } from '../security/acl/api-acl-rules';
import type { ApiHandler } from './handler';
import { type AdvertisedApi, createApiVersionsHandler } from './handlers/api-versions';

/**
 * Which handler serves which API key on one listener (its handlers come from the API table,
 * api-table.ts), with ApiVersions added to answer exactly what they serve. Built once; a duplicate
 * key, a handler advertising versions its schema does not define, or an API without an
 * authorization rule is a bug and fails at start.
 */
export class HandlerRegistry<Services = BrokerServices> {
  readonly #handlers = new Map<number, ApiHandler<ApiSchema, Services>>();

  constructor(handlers: readonly ApiHandler<ApiSchema, Services>[]) {
    for (const handler of handlers) this.#add(handler);
    this.#add(createApiVersionsHandler<Services>(() => this.advertised()) as ApiHandler<ApiSchema, Services>);
    assertAclRulesFor([...this.#handlers.values()].map((handler) => handler.api.name));
  }

  get(apiKey: number): ApiHandler<ApiSchema, Services> | undefined {
    return this.#handlers.get(apiKey);
  }

  /** What ApiVersions reports: exactly the served keys and versions, sorted by key. */
  advertised(): AdvertisedApi[] {
    return [...this.#handlers.values()]
      .map((handler) => ({
        apiKey: handler.api.apiKey,
        minVersion: handler.versions.min,
        maxVersion: handler.versions.max,
      }))
      .sort((left, right) => left.apiKey - right.apiKey);
  }

  #add(handler: ApiHandler<ApiSchema, Services>): void {
    const { api, versions } = handler;
    if (this.#handlers.has(api.apiKey)) throw new Error(`two handlers for ${api.name} (key ${api.apiKey})`);
    if (versions.min < api.versions.min || versions.max > api.versions.max || versions.min > versions.max) {
      throw new Error(`${api.name} handler advertises ${versions.min}-${versions.max} beyond its schema`);
    }
    this.#handlers.set(api.apiKey, handler);
  }
}
