import { COMPRESSION_TYPES, TIMESTAMP_TYPES } from '@weir/protocol/names';
import { z } from 'zod';
import { asOfMsSchema, decimalSchema, partitionSchema, topicNameSchema } from './common';
import { FILTER_TEXT_HINT, FILTER_TEXT_PATTERN } from './record-filter-syntax';

/*
 * Message browsing. Every parameter is URL-friendly (strings, numbers, repeated values) so the UI
 * can keep a search in its address bar and REST can take it as query parameters unchanged.
 *
 * Paging is exact: a cursor is, per partition, the next offset to read ("0:120,1:98,2:0"). A page
 * answers `nextCursor`, which continues right after the last row taken from each partition, so
 * Next never repeats or skips a record. The server keeps no state: for Previous the UI keeps the
 * stack of cursors it has used and goes back to the one before.
 */

export const startModeSchema = z
  .enum(['beginning', 'end', 'offset', 'timestamp', 'newest'])
  .meta({ description: 'Where reading starts when no cursor is given.' });

/**
 * `<field>:<operator>:<value>`, e.g. `value:contains:timeout`, `headerKey:equals:trace-id`, or a
 * JSON path such as `value.user.id:equals:42` (record-filter-syntax.ts).
 */
export const recordFilterSchema = z.string().max(1700).regex(FILTER_TEXT_PATTERN, FILTER_TEXT_HINT);

/** Per-partition next offsets: `partition:offset` pairs separated by commas. */
export const cursorSchema = z
  .string()
  .max(20_000)
  .regex(/^(\d{1,7}:\d{1,19})(,\d{1,7}:\d{1,19})*$/, 'a cursor is "partition:offset" pairs joined by ","');

/**
 * `schema` adds `key.decoded` / `value.decoded` to each row: the record decoded with the topic's
 * uploaded Avro or Protobuf schema (`{ json }`, or `{ error }` when it does not decode).
 */
export const decodeModeSchema = z.enum(['none', 'schema']).meta({
  description: 'With `schema`, rows carry `key.decoded` / `value.decoded` from the topic’s uploaded schemas.',
});

export const isolationSchema = z.enum(['read_uncommitted', 'read_committed']).meta({
  description:
    'read_uncommitted shows every record, each marked with its transaction status; read_committed shows what a read_committed consumer sees: no aborted records, and nothing at or past the last stable offset (the first record of a still-open transaction).',
});

/**
 * Where a record stands in its transaction: none outside any, committed, aborted, open while its
 * transaction is undecided, unknown from a broker that does not say (older than WeirScanRecords v2).
 */
export const transactionStatusSchema = z.enum(['none', 'committed', 'aborted', 'open', 'unknown']).meta({
  description:
    "The record's transaction: none (not transactional), committed, aborted, open (not decided yet: at or past the last stable offset), or unknown (the broker does not say).",
});

export const browseInputSchema = z.object({
  topic: topicNameSchema,
  decode: decodeModeSchema.default('none'),
  start: startModeSchema.default('beginning'),
  /** With `start=offset`: the same offset in every selected partition (clamped to the log). */
  startOffset: decimalSchema.optional(),
  /** With `start=timestamp`: the first record at or after this time, per partition. */
  startTimestampMs: z.number().int().min(0).optional(),
  /** With `start=newest`: about this many of the newest records, split over the partitions, newest first. */
  newestCount: z.number().int().min(1).max(100_000).optional(),
  /** Only these partitions; default all. */
  partitions: z.array(partitionSchema).max(1000).optional(),
  /** ANDed conditions on key, value and headers, evaluated by the broker. */
  filters: z.array(recordFilterSchema).max(8).optional(),
  /** Continue from a cursor returned earlier; `start` is then ignored. */
  cursor: cursorSchema.optional(),
  /**
   * A `key:equals` filter normally narrows the search to the partition the key hashes to (murmur2,
   * the default partitioner). True reads every selected partition: for custom partitioners, or
   * records written before partitions were added.
   */
  allPartitions: z.boolean().optional(),
  pageSize: z.number().int().min(1).max(500).default(50),
  /** Default read_uncommitted. */
  isolation: isolationSchema.optional(),
  /** Keys, values and header values longer than this come back cut (their size is kept). */
  maxValueBytes: z.number().int().min(0).max(1_048_576).default(16_384),
});

/** The streaming search takes the same parameters with a larger row cap. */
export const searchInputSchema = browseInputSchema.extend({
  pageSize: z.number().int().min(1).max(5000).default(500),
});

export const payloadSchema = z.object({
  /** The bytes (possibly cut to maxValueBytes), base64. */
  base64: z.string(),
  /** The same bytes as text when they are valid UTF-8, else null. */
  text: z.string().nullable(),
  /** The size before any cut. */
  sizeBytes: z.number().int(),
  truncated: z.boolean(),
  /** With `decode=schema` and a schema for this side: the decoded record, or why it did not decode. */
  decoded: z.union([z.object({ json: z.json() }), z.object({ error: z.string() })]).optional(),
});

export const messageRowSchema = z.object({
  partition: z.number().int(),
  offset: decimalSchema,
  timestampMs: z.number().int(),
  timestampType: z.enum(TIMESTAMP_TYPES),
  key: payloadSchema.nullable(),
  value: payloadSchema.nullable(),
  /** In record order, duplicates kept. */
  headers: z.array(z.object({ key: z.string(), value: payloadSchema.nullable() })),
  transactional: z.boolean(),
  control: z.boolean(),
  /**
   * For a control record: the transaction marker its key encodes (int16 version, int16 type:
   * 0 ABORT, 1 COMMIT); UNKNOWN for another type or a short key. Null for ordinary records.
   */
  controlType: z.enum(['COMMIT', 'ABORT', 'UNKNOWN']).nullable(),
  producerId: z.string(),
  /** The batch's producer epoch; -1 when it has none (or the broker does not say). */
  producerEpoch: z.number().int(),
  transaction: transactionStatusSchema,
  compression: z.enum(COMPRESSION_TYPES),
});

export const partitionPositionSchema = z.object({
  partition: z.number().int(),
  /** Where this request began reading: progress is the share of [startOffset, endOffset) behind nextOffset. */
  startOffset: decimalSchema,
  /** Where the next page continues in this partition. */
  nextOffset: decimalSchema,
  /** The end of the range read (the high watermark when the read started). */
  endOffset: decimalSchema,
  done: z.boolean(),
});

/** Set when a `key:equals` filter narrowed the search to the one partition the key hashes to. */
export const keyPartitionSchema = z
  .object({
    partition: z.number().int(),
    /** The partition count the key was hashed over. */
    partitionCount: z.number().int(),
  })
  .nullable()
  .meta({ description: 'The partition a key filter narrowed the search to (default partitioner), or null.' });

export const browseResultSchema = z.object({
  asOfMs: asOfMsSchema,
  topic: z.string(),
  /** The cursor this page started from (the resolved start position). */
  cursor: z.string(),
  rows: z.array(messageRowSchema),
  /** Continue here for the next page; equals `cursor` when nothing more was found. */
  nextCursor: z.string(),
  partitions: z.array(partitionPositionSchema),
  keyPartition: keyPartitionSchema,
  /** Every selected partition has been read to its end. */
  done: z.boolean(),
  /** The request's work budget ran out before the page filled; the next page continues the scan. */
  budgetExhausted: z.boolean(),
  scannedRecords: z.number().int(),
  scannedBytes: z.number().int(),
});

export const getMessageInputSchema = z.object({
  topic: topicNameSchema,
  partition: partitionSchema,
  offset: decimalSchema,
  decode: decodeModeSchema.default('none'),
  /** At most 1 MiB: the broker's scan cuts payloads there (SCAN_LIMITS.maxValueBytes). */
  maxValueBytes: z.number().int().min(0).max(1_048_576).default(1_048_576),
});

export const getMessageResultSchema = z.object({
  asOfMs: asOfMsSchema,
  topic: z.string(),
  record: messageRowSchema,
});

/**
 * Base64 as people paste it: the standard or the URL-safe alphabet, padding optional, line breaks
 * and other whitespace ignored (`base64` wraps its output at 76 columns). Anything else must be
 * refused: Node's decoder skips characters it does not know, so "hello!" would be stored as the
 * bytes of "hello" with no error at all.
 */
const BASE64_TEXT = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Why `text` is not Base64, or undefined when it is. */
export function base64Problem(text: string): string | undefined {
  const compact = text.replace(/\s+/g, '');
  const invalid = /[^A-Za-z0-9+/_=-]/.exec(compact);
  if (invalid !== null) {
    return `not valid Base64: ${JSON.stringify(invalid[0])} at character ${invalid.index + 1} is not in the Base64 alphabet`;
  }
  if (!BASE64_TEXT.test(compact)) return 'not valid Base64: "=" may only pad the end';
  const padded = compact.endsWith('=');
  if (compact.length % 4 === 1 || (padded && compact.length % 4 !== 0)) {
    return `not valid Base64: ${compact.length} characters cannot encode whole bytes`;
  }
  return undefined;
}

export const payloadInputSchema = z
  .object({
    encoding: z.enum(['utf8', 'base64']).default('utf8'),
    data: z.string().max(10_485_760).meta({
      description:
        'The bytes as UTF-8 text, or as Base64 when `encoding` is `base64` (standard or URL-safe alphabet, padding optional, whitespace ignored); text that is not Base64 is refused with 400 naming the field.',
    }),
  })
  .superRefine((payload, context) => {
    if (payload.encoding !== 'base64') return;
    const problem = base64Problem(payload.data);
    if (problem !== undefined) context.addIssue({ code: 'custom', path: ['data'], message: problem });
  });

export const produceInputSchema = z.object({
  topic: topicNameSchema,
  /** Default: the key's partition (murmur2) or a sticky choice for null keys. */
  partition: partitionSchema.optional(),
  key: payloadInputSchema.nullable().optional(),
  /** null produces a tombstone. */
  value: payloadInputSchema.nullable(),
  /** In order; a key may repeat. */
  headers: z
    .array(z.object({ key: z.string().max(1024), value: payloadInputSchema.nullable() }))
    .max(100)
    .optional(),
  compression: z.enum(COMPRESSION_TYPES).default('none'),
  timestampMs: z.number().int().min(0).optional(),
});

export const produceResultSchema = z.object({
  asOfMs: asOfMsSchema,
  topic: z.string(),
  partition: z.number().int(),
  offset: decimalSchema,
  timestampMs: z.number().int(),
});

/** The events of `messages.search`, in order: phase, progress*, rows*, done. */
export const searchEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('phase'),
    phase: z.enum(['resolving-offsets', 'scanning', 'done']),
    asOfMs: asOfMsSchema,
    /** Known from `scanning` on; null while resolving. */
    keyPartition: keyPartitionSchema,
  }),
  z.object({
    type: z.literal('progress'),
    scannedRecords: z.number().int(),
    scannedBytes: z.number().int(),
    matchedRecords: z.number().int(),
    elapsedMs: z.number().int(),
    partitions: z.array(partitionPositionSchema),
  }),
  z.object({ type: z.literal('rows'), rows: z.array(messageRowSchema) }),
  z.object({
    type: z.literal('done'),
    asOfMs: asOfMsSchema,
    cursor: z.string(),
    nextCursor: z.string(),
    done: z.boolean(),
    budgetExhausted: z.boolean(),
    cancelled: z.boolean(),
    scannedRecords: z.number().int(),
    matchedRecords: z.number().int(),
    keyPartition: keyPartitionSchema,
  }),
]);

export type DecodeMode = z.infer<typeof decodeModeSchema>;
export type StartMode = z.infer<typeof startModeSchema>;
export type BrowseInput = z.infer<typeof browseInputSchema>;
export type SearchInput = z.infer<typeof searchInputSchema>;
export type BrowseResult = z.infer<typeof browseResultSchema>;
export type MessageRow = z.infer<typeof messageRowSchema>;
export type Isolation = z.infer<typeof isolationSchema>;
export type Payload = z.infer<typeof payloadSchema>;
export type PartitionPosition = z.infer<typeof partitionPositionSchema>;
export type ProduceInput = z.infer<typeof produceInputSchema>;
export type SearchEvent = z.infer<typeof searchEventSchema>;
export type KeyPartition = z.infer<typeof keyPartitionSchema>;
