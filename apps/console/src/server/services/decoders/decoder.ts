/** What a decoder makes of one key or value: the record as JSON, or why it could not be read. */
export type DecodeOutcome = { readonly json: unknown } | { readonly error: string };

/** Turns a record's bytes into JSON with a schema; never throws for bad bytes. */
export interface Decoder {
  decode(bytes: Uint8Array): DecodeOutcome;
}

/** How records carry the schema: bare, or in Confluent's wire format (magic byte 0, schema id, ...). */
export type SchemaFraming = 'none' | 'confluent';

/** A schema an operator uploaded for one side of a topic. */
export interface TopicSchema {
  readonly format: 'avro' | 'protobuf';
  /** The Avro JSON schema or the .proto source. */
  readonly schema: string;
  /** Protobuf only: the fully-qualified message type the records are. */
  readonly messageType?: string;
  readonly framing: SchemaFraming;
}

/**
 * A schema the library refused: the input field it came from and the library's reason. A RangeError,
 * so the API answers it as 400 (api/errors.ts) with the field named in the message.
 */
export class SchemaProblem extends RangeError {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = 'SchemaProblem';
  }
}

/**
 * Decoded values as plain JSON: bytes become Base64 text, 64-bit integers decimal text, maps and
 * class instances (avsc's records) plain objects, so the rows survive JSON serialization intact.
 */
export function toPlainJson(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value !== 'object') return value;
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (value instanceof Map) {
    return Object.fromEntries([...value.entries()].map(([key, item]) => [String(key), toPlainJson(item)]));
  }
  const plain: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) plain[key] = toPlainJson(item);
  return plain;
}

/** The message of anything thrown, for a decode error. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
