import { DecodeError, type DecodeResult, tryDecode } from '../codec/decode-error';
import { Reader } from '../codec/reader';
import { Writer } from '../codec/writer';
import { type ApiSchema, isFlexible, type RequestOf, type ResponseOf, supportsVersion } from '../schema/api';
import {
  type RequestHeader,
  readRequestHeaderPrefix,
  usesFlexibleResponseHeader,
  writeRequestHeader,
} from './header';

/** Looks up the schema for an API key; the broker and the SDK pass the shared registry. */
export type ApiLookup = (apiKey: number) => ApiSchema | undefined;

/**
 * A decoded request, or why it could not be decoded. When the header itself was readable it is
 * returned with the failure, so the broker can still answer with the right correlation id (for
 * example UNSUPPORTED_VERSION for an API version it does not define).
 */
export type DecodedRequest =
  | { ok: true; header: RequestHeader; api: ApiSchema; body: Record<string, unknown> }
  | { ok: false; header: RequestHeader | null; api: ApiSchema | undefined; error: DecodeError };

function assertVersion(api: ApiSchema, version: number): void {
  if (!supportsVersion(api, version)) {
    // Encoding a version the schema does not define is a bug in the caller, not bad input.
    throw new RangeError(
      `${api.name} v${version} is not defined (defined: ${api.versions.min}-${api.versions.max})`,
    );
  }
}

/**
 * Encodes a request as a complete frame: int32 size, header (v1, or v2 for flexible versions) and
 * body, ready to write to a socket.
 */
export function encodeRequestFrame<A extends ApiSchema>(
  api: A,
  version: number,
  correlationId: number,
  clientId: string | null,
  body: RequestOf<A>,
): Buffer {
  assertVersion(api, version);
  const flexible = isFlexible(api, version);
  const writer = new Writer(256);
  const sizeAt = writer.reserveInt32();
  writeRequestHeader(writer, { apiKey: api.apiKey, apiVersion: version, correlationId, clientId }, flexible);
  api.request.write(writer, body as never, flexible, version);
  writer.patchInt32(sizeAt, writer.length - 4);
  return writer.finish();
}

/**
 * Decodes a request frame (the bytes after the int32 size). Never throws for bad input: an unknown
 * API key or version, a short or lying body, or trailing bytes all come back as a typed failure.
 */
export function decodeRequestFrame(frame: Uint8Array, lookup: ApiLookup): DecodedRequest {
  const reader = new Reader(frame);
  const headerResult = tryDecode(() => readRequestHeaderPrefix(reader));
  if (!headerResult.ok) return { ok: false, header: null, api: undefined, error: headerResult.error };
  const header = headerResult.value;
  const api = lookup(header.apiKey);
  if (!api || !supportsVersion(api, header.apiVersion)) {
    const what = api ? `${api.name} v${header.apiVersion}` : `API key ${header.apiKey}`;
    return {
      ok: false,
      header,
      api,
      error: new DecodeError('unsupported-version', `${what} is not supported`, 0),
    };
  }
  const flexible = isFlexible(api, header.apiVersion);
  const bodyResult = tryDecode(() => {
    if (flexible) reader.taggedFields();
    const body = api.request.read(reader, flexible, header.apiVersion);
    reader.expectEnd(`${api.name} v${header.apiVersion} request`);
    return body as Record<string, unknown>;
  });
  if (!bodyResult.ok) return { ok: false, header, api, error: bodyResult.error };
  return { ok: true, header, api, body: bodyResult.value };
}

/** Decodes the body of a request whose API is already known, typed by its schema. */
export function decodeRequestBody<A extends ApiSchema>(
  api: A,
  version: number,
  body: Uint8Array,
): DecodeResult<RequestOf<A>> {
  assertVersion(api, version);
  const flexible = isFlexible(api, version);
  return tryDecode(() => {
    const reader = new Reader(body);
    const value = api.request.read(reader, flexible, version);
    reader.expectEnd(`${api.name} v${version} request`);
    return value as RequestOf<A>;
  });
}

/**
 * Encodes a response as a complete frame: int32 size, header (v0, or v1 for flexible versions
 * except ApiVersions) and body.
 */
export function encodeResponseFrame<A extends ApiSchema>(
  api: A,
  version: number,
  correlationId: number,
  body: ResponseOf<A>,
): Buffer {
  assertVersion(api, version);
  const flexible = isFlexible(api, version);
  const writer = new Writer(256);
  const sizeAt = writer.reserveInt32();
  writer.int32(correlationId);
  if (usesFlexibleResponseHeader(api.apiKey, flexible)) writer.emptyTaggedFields();
  api.response.write(writer, body as never, flexible, version);
  writer.patchInt32(sizeAt, writer.length - 4);
  return writer.finish();
}

/** A decoded response with the correlation id from its header. */
export interface DecodedResponse<A extends ApiSchema> {
  correlationId: number;
  body: ResponseOf<A>;
}

/**
 * Decodes a response frame (the bytes after the int32 size) for a request the caller sent, so the
 * API and version are known. Never throws for bad input.
 */
export function decodeResponseFrame<A extends ApiSchema>(
  api: A,
  version: number,
  frame: Uint8Array,
): DecodeResult<DecodedResponse<A>> {
  assertVersion(api, version);
  const flexible = isFlexible(api, version);
  return tryDecode(() => {
    const reader = new Reader(frame);
    const correlationId = reader.int32();
    if (usesFlexibleResponseHeader(api.apiKey, flexible)) reader.taggedFields();
    const body = api.response.read(reader, flexible, version) as ResponseOf<A>;
    reader.expectEnd(`${api.name} v${version} response`);
    return { correlationId, body };
  });
}

/** Reads only the correlation id of a response frame, to match it to its request. */
export function peekCorrelationId(frame: Uint8Array): DecodeResult<number> {
  return tryDecode(() => new Reader(frame).int32());
}
