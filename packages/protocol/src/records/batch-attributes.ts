/**
 * The attribute bits of a RecordBatch v2 header (an int16), per Kafka's DefaultRecordBatch:
 * bits 0–2 compression codec, bit 3 timestamp type, bit 4 transactional, bit 5 control,
 * bit 6 delete horizon set. The other bits are unused and must be zero when we write them.
 */

/**
 * Every compression codec, by the name Kafka's `compression.type` uses, indexed by its codec id
 * (0–4). This file imports nothing, so the browser-safe entry (src/names.ts) exports the lists.
 */
export const COMPRESSION_TYPES = ['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const;
export type CompressionType = (typeof COMPRESSION_TYPES)[number];

/** How a batch's timestamps were assigned: by the producer, or by the broker on append (bit 3). */
export const TIMESTAMP_TYPES = ['create-time', 'log-append-time'] as const;
export type TimestampType = (typeof TIMESTAMP_TYPES)[number];

const COMPRESSION_MASK = 0x07;
const LOG_APPEND_TIME_FLAG = 0x08;
const TRANSACTIONAL_FLAG = 0x10;
const CONTROL_FLAG = 0x20;
const DELETE_HORIZON_FLAG = 0x40;

/** The decoded meaning of a batch's attribute bits; the input of {@link encodeBatchAttributes}. */
export interface BatchAttributeFlags {
  /** The codec of the records section. */
  compression: CompressionType;
  timestampType: TimestampType;
  /** The batch belongs to a transaction (bit 4). */
  isTransactional: boolean;
  /** The batch holds control records such as transaction markers (bit 5). */
  isControl: boolean;
  /** The base timestamp is a compaction delete horizon rather than a record time (bit 6, KIP-534). */
  hasDeleteHorizon: boolean;
}

/** The Kafka codec id (0–4) of a compression type. */
export function compressionTypeId(type: CompressionType): number {
  return COMPRESSION_TYPES.indexOf(type);
}

/** Packs attribute flags into the int16 stored in the batch header. Omitted flags are off. */
export function encodeBatchAttributes(flags: Partial<BatchAttributeFlags>): number {
  let attributes = compressionTypeId(flags.compression ?? 'none');
  if (flags.timestampType === 'log-append-time') attributes |= LOG_APPEND_TIME_FLAG;
  if (flags.isTransactional) attributes |= TRANSACTIONAL_FLAG;
  if (flags.isControl) attributes |= CONTROL_FLAG;
  if (flags.hasDeleteHorizon) attributes |= DELETE_HORIZON_FLAG;
  return attributes;
}

/** The raw 3-bit codec id. Ids 5–7 are not defined by Kafka; see {@link batchCompression}. */
export function batchCompressionId(attributes: number): number {
  return attributes & COMPRESSION_MASK;
}

/** The codec of a batch, or `undefined` for an id Kafka does not define (5–7). */
export function batchCompression(attributes: number): CompressionType | undefined {
  return COMPRESSION_TYPES[attributes & COMPRESSION_MASK];
}

export function batchTimestampType(attributes: number): TimestampType {
  return (attributes & LOG_APPEND_TIME_FLAG) !== 0 ? 'log-append-time' : 'create-time';
}

export function isTransactionalBatch(attributes: number): boolean {
  return (attributes & TRANSACTIONAL_FLAG) !== 0;
}

export function isControlBatch(attributes: number): boolean {
  return (attributes & CONTROL_FLAG) !== 0;
}

export function hasDeleteHorizon(attributes: number): boolean {
  return (attributes & DELETE_HORIZON_FLAG) !== 0;
}

/** Unpacks every flag at once. */
export function decodeBatchAttributes(attributes: number): BatchAttributeFlags | undefined {
  const compression = batchCompression(attributes);
  if (compression === undefined) return undefined;
  return {
    compression,
    timestampType: batchTimestampType(attributes),
    isTransactional: isTransactionalBatch(attributes),
    isControl: isControlBatch(attributes),
    hasDeleteHorizon: hasDeleteHorizon(attributes),
  };
}
