import type { ApiSchema } from '../schema/api';
import { ADMIN_APIS } from './admin-apis';
import { ApiVersions } from './apis/api-versions';
import { Fetch } from './apis/fetch';
import { Metadata } from './apis/metadata';
import { Produce } from './apis/produce';
import { GROUP_APIS } from './group-apis';
import { INTERNAL_APIS } from './internal-apis';

/**
 * Every API this codec defines, in api-key order. The broker derives what it advertises from its
 * handler registry, which may be a subset; this list is what can be encoded and decoded at all.
 */
export const ALL_APIS: readonly ApiSchema[] = [
  Produce,
  Fetch,
  Metadata,
  ApiVersions,
  ...GROUP_APIS,
  ...ADMIN_APIS,
  ...INTERNAL_APIS,
].sort((left, right) => left.apiKey - right.apiKey);

const byKey = new Map<number, ApiSchema>();
for (const api of ALL_APIS) {
  if (byKey.has(api.apiKey)) throw new Error(`API key ${api.apiKey} is defined twice`);
  byKey.set(api.apiKey, api);
}

/** The schema for an API key, or undefined for a key this codec does not define. */
export function apiByKey(apiKey: number): ApiSchema | undefined {
  return byKey.get(apiKey);
}
