import type { TimestampType } from '../records/batch-attributes';
import type { RecordHeader } from '../records/record';

/** Bytes as the SDK accepts them: raw, or a string sent as UTF-8. */
export type MessageBytes = Uint8Array | string;

/** One record header on the way in. Headers are an ordered list; a key may repeat. */
export interface MessageHeader {
  readonly key: string;
  readonly value: MessageBytes | null;
}

/** One record to produce. */
export interface ProducerMessage {
  /** Records with the same key go to the same partition (murmur2, as the Java client and kafkajs). */
  readonly key?: MessageBytes | null;
  /** `null` is a tombstone. */
  readonly value: MessageBytes | null;
  readonly headers?: readonly MessageHeader[];
  /** Sends to this partition, bypassing the partitioner. */
  readonly partition?: number;
  /** Create time in ms since the epoch. Default: when `send` was called. */
  readonly timestampMs?: number;
}

/** The input of `Producer.send`: records for one topic. */
export interface ProducerRecord {
  readonly topic: string;
  readonly messages: readonly ProducerMessage[];
}

/** Where a produced record was stored. */
export interface RecordMetadata {
  readonly topic: string;
  readonly partition: number;
  /** The record's offset; -1n with acks=0, where the broker says nothing. */
  readonly offset: bigint;
  /** The record's timestamp: its create time, or the broker's append time on LogAppendTime topics. */
  readonly timestampMs: number;
}

/**
 * One consumed record. Offsets are `bigint` because Kafka offsets are int64 and must stay exact;
 * the codec reads them that way too. `key`, `value` and header values are views into the fetched
 * bytes (copy them to keep them past the next poll if memory matters).
 */
export interface ConsumerRecord {
  readonly topic: string;
  readonly partition: number;
  readonly offset: bigint;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  /** In the order the producer wrote them, duplicates kept. */
  readonly headers: readonly RecordHeader[];
  readonly timestampMs: number;
  /** Whether `timestampMs` is the producer's create time or the broker's append time. */
  readonly timestampType: TimestampType;
}

/** `MessageBytes` as a Buffer (strings as UTF-8); `null` and `undefined` as `null`. */
export function toBuffer(bytes: MessageBytes | null | undefined): Buffer | null {
  if (bytes === null || bytes === undefined) return null;
  if (typeof bytes === 'string') return Buffer.from(bytes, 'utf8');
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
