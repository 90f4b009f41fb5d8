import { createRequire } from 'node:module';

/**
 * Typed handles on kafkajs 2.2.4's internal RecordBatch encoder and decoder, for cross-checking our
 * codec against an independent implementation. kafkajs ships no types for these modules, so they
 * are loaded with `require` and given the minimal shapes the tests use.
 */

const require = createRequire(import.meta.url);

/** kafkajs's growable encoder; only its bytes are needed. */
export interface KafkajsEncoder {
  buffer: Buffer;
}

/** A kafkajs compression codec, as registered in `CompressionCodecs`. */
export interface KafkajsCodec {
  compress(encoder: KafkajsEncoder): Promise<Buffer>;
  decompress(buffer: Buffer): Promise<Buffer>;
}

/** The input of kafkajs's `RecordBatch` encoder. Int64 fields accept numbers or decimal strings. */
export interface KafkajsRecordBatchInput {
  compression?: number;
  firstOffset?: string;
  firstTimestamp: number;
  maxTimestamp: number;
  partitionLeaderEpoch?: number;
  lastOffsetDelta: number;
  transactional?: boolean;
  producerId?: string;
  producerEpoch?: number;
  firstSequence?: number;
  records: KafkajsEncoder[];
}

/** The input of kafkajs's record encoder. Header values may be arrays (duplicate keys). */
export interface KafkajsRecordInput {
  offsetDelta: number;
  timestampDelta: number;
  key: Buffer | null;
  value: Buffer | null;
  headers?: Record<string, Buffer | Buffer[]>;
}

/** A record as kafkajs's decoder returns it: int64s as decimal strings, headers as an object. */
export interface KafkajsDecodedRecord {
  timestamp: string;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, Buffer | null | (Buffer | null)[]>;
  isControlRecord: boolean;
}

export interface KafkajsDecodedBatch {
  firstOffset: string;
  firstTimestamp: string;
  maxTimestamp: string;
  partitionLeaderEpoch: number;
  inTransaction: boolean;
  isControlBatch: boolean;
  lastOffsetDelta: number;
  producerId: string;
  producerEpoch: number;
  firstSequence: number;
  records: KafkajsDecodedRecord[];
}

const recordBatchModule = require('kafkajs/src/protocol/recordBatch/v0') as {
  RecordBatch: (input: KafkajsRecordBatchInput) => Promise<KafkajsEncoder>;
};
const encodeKafkajsRecordModule = require('kafkajs/src/protocol/recordBatch/record/v0') as (
  input: KafkajsRecordInput,
) => KafkajsEncoder;
const KafkajsDecoder = require('kafkajs/src/protocol/decoder') as new (buffer: Buffer) => unknown;
const decodeKafkajsBatchModule = require('kafkajs/src/protocol/recordBatch/v0/decoder') as (
  decoder: unknown,
) => Promise<KafkajsDecodedBatch>;
const kafkajs = require('kafkajs') as {
  CompressionTypes: { None: number; GZIP: number; Snappy: number; LZ4: number; ZSTD: number };
  CompressionCodecs: Record<number, () => KafkajsCodec>;
};

export const kafkajsCompressionTypes = kafkajs.CompressionTypes;
export const kafkajsCompressionCodecs = kafkajs.CompressionCodecs;

/** Encodes one record with kafkajs. */
export function encodeKafkajsRecord(input: KafkajsRecordInput): KafkajsEncoder {
  return encodeKafkajsRecordModule(input);
}

/** Encodes a batch with kafkajs and returns its bytes. */
export async function encodeKafkajsBatch(input: KafkajsRecordBatchInput): Promise<Buffer> {
  return (await recordBatchModule.RecordBatch(input)).buffer;
}

/** Decodes one batch with kafkajs (which does not check the CRC). */
export async function decodeKafkajsBatch(batch: Buffer): Promise<KafkajsDecodedBatch> {
  return decodeKafkajsBatchModule(new KafkajsDecoder(batch));
}

/** Loads a CommonJS dev dependency that has no types (kafkajs codec plugins, snappyjs, lz4). */
export function requireUntyped<T>(name: string): T {
  return require(name) as T;
}
