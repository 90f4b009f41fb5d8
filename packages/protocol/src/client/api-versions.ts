import type { DecodeResult } from '../codec/decode-error';
import { ErrorCode } from '../errors/error-codes';
import { WeirError } from '../errors/weir-error';
import { ApiVersions } from '../messages/apis/api-versions';
import { type DecodedResponse, decodeResponseFrame } from '../messages/message-codec';
import type { ApiSchema } from '../schema/api';

/** The version range a broker serves for one API. */
export interface ApiVersionRange {
  readonly minVersion: number;
  readonly maxVersion: number;
}

/** What a broker's ApiVersions answer advertised, by API key. */
export type BrokerApiVersions = ReadonlyMap<number, ApiVersionRange>;

/**
 * The version to speak for an API: the highest that both this codec and the broker define,
 * `min(our max, broker max)`, as kafkajs and librdkafka choose it. Throws UNSUPPORTED_VERSION when
 * the broker does not serve the API or the ranges do not overlap; the caller learns that before
 * anything is sent.
 */
export function negotiateVersion(api: ApiSchema, broker: BrokerApiVersions, brokerAddress: string): number {
  const range = broker.get(api.apiKey);
  if (range === undefined) {
    throw new WeirError(ErrorCode.UNSUPPORTED_VERSION, {
      detail: `the broker at ${brokerAddress} does not serve ${api.name} (API key ${api.apiKey}).`,
    });
  }
  const version = Math.min(api.versions.max, range.maxVersion);
  if (version < Math.max(api.versions.min, range.minVersion)) {
    throw new WeirError(ErrorCode.UNSUPPORTED_VERSION, {
      detail:
        `the broker at ${brokerAddress} serves ${api.name} v${range.minVersion}-${range.maxVersion}, ` +
        `this client speaks v${api.versions.min}-${api.versions.max}.`,
    });
  }
  return version;
}

/** Byte offset of the error code in an ApiVersions response frame: after the correlation id. */
const ERROR_CODE_AT = 4;

/**
 * Decodes an ApiVersions response to a request sent at `version`. A broker that cannot parse the
 * request version answers with a v0 body (UNSUPPORTED_VERSION and the ApiVersions range it does
 * serve) whatever version was asked, and that body does not parse as a flexible one, so it is
 * read as v0 then. Every version puts the error code first, which is how it is recognized.
 */
export function decodeApiVersionsResponse(
  version: number,
  frame: Buffer,
): DecodeResult<DecodedResponse<typeof ApiVersions>> {
  const decoded = decodeResponseFrame(ApiVersions, version, frame);
  const unsupported =
    frame.length >= ERROR_CODE_AT + 2 && frame.readInt16BE(ERROR_CODE_AT) === ErrorCode.UNSUPPORTED_VERSION;
  if (version === 0 || !unsupported) return decoded;
  const asV0 = decodeResponseFrame(ApiVersions, 0, frame);
  return asV0.ok ? asV0 : decoded;
}

/**
 * The ApiVersions version to try after an UNSUPPORTED_VERSION answer to `tried`: the highest the
 * broker says it serves when that is lower, else one less. Undefined when there is nothing left.
 */
export function nextApiVersionsVersion(tried: number, brokerMax: number | undefined): number | undefined {
  const next = brokerMax !== undefined && brokerMax < tried ? brokerMax : tried - 1;
  return next >= 0 ? next : undefined;
}
