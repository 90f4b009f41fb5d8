import { z } from 'zod';
import { asOfMsSchema, topicNameSchema } from './common';

/*
 * Schemas an operator uploads so the message browser can decode Avro and Protobuf records
 * (services/schema-store.ts keeps them in the cluster). Each topic has at most one per side.
 */

/** Schema text past this is refused: real schemas are a few KiB, and every console caches them. */
export const MAX_SCHEMA_CHARS = 262_144;

export const schemaSideSchema = z.enum(['key', 'value']).meta({ description: 'Which part of the records.' });

export const schemaSideRefInputSchema = z.object({ topic: topicNameSchema, side: schemaSideSchema });

export const putSchemaInputSchema = schemaSideRefInputSchema.extend({
  format: z.enum(['avro', 'protobuf']),
  /** The Avro JSON schema, or the .proto source (one file, no imports). */
  schema: z.string().min(1).max(MAX_SCHEMA_CHARS),
  /** Protobuf: the fully-qualified message type of the records, e.g. `shop.v1.Order`. */
  messageType: z
    .string()
    .max(512)
    .regex(
      /^\.?[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/,
      'a fully-qualified message type such as shop.v1.Order',
    )
    .optional(),
  /**
   * `confluent`: records start with Confluent's wire-format header (magic byte 0, 4-byte schema
   * id, and for Protobuf the message indexes, which then pick the type); `none`: bare encodings.
   */
  framing: z.enum(['none', 'confluent']).default('none'),
});

export const storedSchemaSchema = z.object({
  topic: z.string(),
  side: schemaSideSchema,
  format: z.enum(['avro', 'protobuf']),
  schema: z.string(),
  messageType: z.string().optional(),
  framing: z.enum(['none', 'confluent']),
  uploadedAtMs: z.number().int(),
});

export const topicSchemasResultSchema = z.object({
  asOfMs: asOfMsSchema,
  topic: z.string(),
  key: storedSchemaSchema.nullable(),
  value: storedSchemaSchema.nullable(),
});

export const schemaResultSchema = z.object({ asOfMs: asOfMsSchema, schema: storedSchemaSchema });

export const deleteSchemaResultSchema = z.object({
  asOfMs: asOfMsSchema,
  topic: z.string(),
  side: schemaSideSchema,
  deleted: z.literal(true),
});

export type PutSchemaInput = z.infer<typeof putSchemaInputSchema>;
export type StoredSchemaView = z.infer<typeof storedSchemaSchema>;
