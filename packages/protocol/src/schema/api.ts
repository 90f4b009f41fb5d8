import { type Fields, type StructInput, type StructType, type StructValue, struct } from './struct';
import { inRange, parseVersionRange, type VersionRange } from './version-range';

/**
 * The schema of one Kafka API: its key, the versions this codec defines, the versions that use the
 * flexible (KIP-482) encoding, and the request and response structs. Encode and decode in both
 * directions come from this one definition, for the broker and the SDK alike.
 */
export interface ApiSchema<Req extends Fields = Fields, Res extends Fields = Fields> {
  readonly apiKey: number;
  readonly name: string;
  readonly versions: VersionRange;
  readonly flexibleVersions: VersionRange;
  readonly request: StructType<Req>;
  readonly response: StructType<Res>;
}

export interface ApiDefinition<Req extends Fields, Res extends Fields> {
  apiKey: number;
  name: string;
  /** Versions defined here, e.g. "3-7". Only these can be encoded or decoded. */
  versions: string;
  /** Versions that use compact encodings and tagged fields, e.g. "3+" or "none". */
  flexibleVersions: string;
  request: Req;
  response: Res;
}

export function defineApi<Req extends Fields, Res extends Fields>(
  definition: ApiDefinition<Req, Res>,
): ApiSchema<Req, Res> {
  return {
    apiKey: definition.apiKey,
    name: definition.name,
    versions: parseVersionRange(definition.versions),
    flexibleVersions: parseVersionRange(definition.flexibleVersions),
    request: struct(definition.request),
    response: struct(definition.response),
  };
}

/** The decoded request body of an API. */
export type RequestOf<A> = A extends ApiSchema<infer Req, Fields> ? StructValue<Req> : never;
/** The decoded response body of an API. */
export type ResponseOf<A> = A extends ApiSchema<Fields, infer Res> ? StructValue<Res> : never;
/** The request body an API's request is encoded from. */
export type RequestInputOf<A> = A extends ApiSchema<infer Req, Fields> ? StructInput<Req> : never;
/** The response body an API's response is encoded from (record sets may be deferred bytes). */
export type ResponseInputOf<A> = A extends ApiSchema<Fields, infer Res> ? StructInput<Res> : never;

export function isFlexible(api: ApiSchema, version: number): boolean {
  return inRange(api.flexibleVersions, version);
}

export function supportsVersion(api: ApiSchema, version: number): boolean {
  return inRange(api.versions, version);
}
