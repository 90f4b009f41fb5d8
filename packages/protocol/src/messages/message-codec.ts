import { DecodeError, type DecodeResult, tryDecode } from '../codec/decode-error';
import { type DeferredBytes, type FramePart, isDeferredBytes } from '../codec/deferred-bytes';
import { Reader } from '../codec/reader';
import { Writer } from '../codec/writer';
import {
  type ApiSchema,
  isFlexible,
  type RequestOf,
  type ResponseInputOf,
  type ResponseOf,
  supportsVersion,
} from '../schema/api';
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

/** Room for everything but byte fields when sizing an encoder: headers, names, numbers. */
const FIXED_FIELDS_ALLOWANCE_BYTES = 512;
/**
 * Byte fields at least this large (record batches) are not copied into a frame encoded as parts:
 * they go out as buffers of their own in the same vectored write.
 */
const REFERENCED_FIELD_MIN_BYTES = 16 * 1024;

/**
 * The bytes held in byte fields anywhere in a message body (the records of a Produce request or a
 * Fetch response) that are smaller than `belowBytes`. Sizing the encoder with it up front means
 * those bytes are copied once into the frame, instead of again each time a buffer that started at
 * 256 bytes doubles.
 */
function byteFieldsLength(value: object, belowBytes: number): number {
  if (value instanceof Uint8Array) return value.length < belowBytes ? value.length : 0;
  if (isDeferredBytes(value)) return 0;
  let total = 0;
  if (Array.isArray(value)) {
    for (const item of value) {
      if (typeof item === 'object' && item !== null) total += byteFieldsLength(item, belowBytes);
    }
    return total;
  }
  for (const field of Object.values(value)) {
    if (typeof field === 'object' && field !== null) total += byteFieldsLength(field, belowBytes);
  }
  return total;
}

/**
 * A Writer that keeps large byte fields by reference instead of copying them: the frame is the
 * written bytes with those buffers spliced in at the positions they were written, returned as a
 * list of parts for one vectored socket write (a corked socket turns them into a single writev).
 */
class FramePartsWriter extends Writer {
  readonly #references: { at: number; bytes: FramePart }[] = [];
  #referencedBytes = 0;

  override raw(bytes: Uint8Array): this {
    if (bytes.length < REFERENCED_FIELD_MIN_BYTES) return super.raw(bytes);
    this.#references.push({ at: this.length, bytes });
    this.#referencedBytes += bytes.length;
    return this;
  }

  override deferred(bytes: DeferredBytes): this {
    this.#references.push({ at: this.length, bytes });
    this.#referencedBytes += bytes.length;
    return this;
  }

  /** The size of the whole frame, referenced fields included. */
  get frameLength(): number {
    return this.length + this.#referencedBytes;
  }

  parts(): FramePart[] {
    const written = this.finish();
    const parts: FramePart[] = [];
    let from = 0;
    for (const { at, bytes } of this.#references) {
      if (at > from) parts.push(written.subarray(from, at));
      parts.push(bytes);
      from = at;
    }
    if (written.length > from) parts.push(written.subarray(from));
    return parts;
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
  const writer = new Writer(FIXED_FIELDS_ALLOWANCE_BYTES + byteFieldsLength(body, Number.POSITIVE_INFINITY));
  const sizeAt = writer.reserveInt32();
  writeRequestHeader(writer, { apiKey: api.apiKey, apiVersion: version, correlationId, clientId }, flexible);
  api.request.write(writer, body as never, flexible, version);
  writer.patchInt32(sizeAt, writer.length - 4);
  return writer.finish();
}

/**
 * The frame of {@link encodeRequestFrame} as a list of buffers whose concatenation it is: record
 * batches of 16 KiB and more are referenced, not copied (a Produce request of 1 MiB costs no copy
 * of its records). Write the parts in order, in one corked write; the referenced buffers must not
 * change until they are written.
 */
export function encodeRequestFrameParts<A extends ApiSchema>(
  api: A,
  version: number,
  correlationId: number,
  clientId: string | null,
  body: RequestOf<A>,
): Uint8Array[] {
  assertVersion(api, version);
  const flexible = isFlexible(api, version);
  const writer = new FramePartsWriter(
    FIXED_FIELDS_ALLOWANCE_BYTES + byteFieldsLength(body, REFERENCED_FIELD_MIN_BYTES),
  );
  const sizeAt = writer.reserveInt32();
  writeRequestHeader(writer, { apiKey: api.apiKey, apiVersion: version, correlationId, clientId }, flexible);
  api.request.write(writer, body as never, flexible, version);
  writer.patchInt32(sizeAt, writer.frameLength - 4);
  // Request bodies are decoded types, whose record sets are byte arrays, so no part is deferred.
  return writer.parts() as Uint8Array[];
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
  body: ResponseInputOf<A>,
): Buffer {
  assertVersion(api, version);
  const flexible = isFlexible(api, version);
  const writer = new Writer(FIXED_FIELDS_ALLOWANCE_BYTES + byteFieldsLength(body, Number.POSITIVE_INFINITY));
  const sizeAt = writer.reserveInt32();
  writer.int32(correlationId);
  if (usesFlexibleResponseHeader(api.apiKey, flexible)) writer.emptyTaggedFields();
  api.response.write(writer, body as never, flexible, version);
  writer.patchInt32(sizeAt, writer.length - 4);
  return writer.finish();
}

/**
 * The frame of {@link encodeResponseFrame} as a list of buffers whose concatenation it is, with
 * record batches of 16 KiB and more referenced instead of copied (a Fetch answer of megabytes is
 * written straight from the buffers the log read); see {@link encodeRequestFrameParts}.
 */
export function encodeResponseFrameParts<A extends ApiSchema>(
  api: A,
  version: number,
  correlationId: number,
  body: ResponseInputOf<A>,
): FramePart[] {
  assertVersion(api, version);
  const flexible = isFlexible(api, version);
  const writer = new FramePartsWriter(
    FIXED_FIELDS_ALLOWANCE_BYTES + byteFieldsLength(body, REFERENCED_FIELD_MIN_BYTES),
  );
  const sizeAt = writer.reserveInt32();
  writer.int32(correlationId);
  if (usesFlexibleResponseHeader(api.apiKey, flexible)) writer.emptyTaggedFields();
  api.response.write(writer, body as never, flexible, version);
  writer.patchInt32(sizeAt, writer.frameLength - 4);
  return writer.parts();
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
