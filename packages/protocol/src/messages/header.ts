import type { Reader } from '../codec/reader';
import type { Writer } from '../codec/writer';

/**
 * A request header. Version 1 (non-flexible requests) is api key, api version, correlation id and
 * a nullable client id; version 2 (flexible requests) adds a tagged-field section. The client id
 * stays a classic (non-compact) string even in version 2.
 */
export interface RequestHeader {
  apiKey: number;
  apiVersion: number;
  correlationId: number;
  clientId: string | null;
}

/** The API key whose responses always use header v0, even at flexible versions. */
export const API_VERSIONS_KEY = 18;

export function writeRequestHeader(writer: Writer, header: RequestHeader, flexible: boolean): void {
  writer
    .int16(header.apiKey)
    .int16(header.apiVersion)
    .int32(header.correlationId)
    .nullableString(header.clientId);
  if (flexible) writer.emptyTaggedFields();
}

/** Reads the fixed part of a request header: everything but the v2 tagged fields. */
export function readRequestHeaderPrefix(reader: Reader): RequestHeader {
  const apiKey = reader.int16();
  const apiVersion = reader.int16();
  const correlationId = reader.int32();
  const clientId = reader.nullableString();
  return { apiKey, apiVersion, correlationId, clientId };
}

/**
 * Whether a response uses header v1 (with tagged fields). ApiVersions is the exception: its
 * response header stays v0 at every version so a client can always parse the version list.
 */
export function usesFlexibleResponseHeader(apiKey: number, flexible: boolean): boolean {
  return flexible && apiKey !== API_VERSIONS_KEY;
}
