import type { CompressionType } from '../records/batch-attributes';
import { BATCH_HEADER_BYTES } from '../records/batch-header';
import type { RecordHeaderInput } from '../records/record';
import { encodeRecordBatch } from '../records/record-batch';
import type { RecordMetadata } from './message';

/** The producer id and epoch an idempotent producer's sequence numbers belong to. */
export interface ProducerIdentity {
  readonly producerId: bigint;
  readonly producerEpoch: number;
}

const MAX_SEQUENCE = 0x7fffffff;

/** `sequence + delta`, wrapping past int32 max to 0 as Kafka's sequences do. */
export function incrementSequence(sequence: number, delta: number): number {
  return sequence > MAX_SEQUENCE - delta ? delta - (MAX_SEQUENCE - sequence) - 1 : sequence + delta;
}

/**
 * Collects the outcome of one `send` call, whose records may be spread over several batches and
 * partitions. It resolves when every record is stored and rejects at the first failure.
 */
export class SendTracker {
  readonly promise: Promise<RecordMetadata[]>;
  readonly #results: RecordMetadata[];
  #remaining: number;
  #settled = false;
  #resolve: (results: RecordMetadata[]) => void = () => {};
  #reject: (error: unknown) => void = () => {};

  constructor(recordCount: number) {
    this.#results = new Array(recordCount);
    this.#remaining = recordCount;
    this.promise = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    if (recordCount === 0) this.#finish();
  }

  get settled(): boolean {
    return this.#settled;
  }

  complete(index: number, metadata: RecordMetadata): void {
    if (this.#settled) return;
    if (this.#results[index] !== undefined) throw new Error(`record ${index} of a send completed twice`);
    this.#results[index] = metadata;
    if (--this.#remaining === 0) this.#finish();
  }

  fail(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#reject(error);
  }

  #finish(): void {
    this.#settled = true;
    this.#resolve(this.#results);
  }
}

/** One record waiting in a batch. */
export interface PendingRecord {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: readonly RecordHeaderInput[];
  readonly timestampMs: number;
  /** Estimated encoded size; also what the record holds of the producer's buffer. */
  readonly sizeBytes: number;
  readonly tracker: SendTracker;
  /** The record's index in its `send` call. */
  readonly index: number;
}

/** Upper bound of a record's framing: length, attributes, two deltas, key and value lengths, header count. */
const RECORD_OVERHEAD_BYTES = 26;
const HEADER_OVERHEAD_BYTES = 10;

/** The estimated encoded size of a record; exact enough to size batches and the buffer. */
export function estimateRecordBytes(
  key: Buffer | null,
  value: Buffer | null,
  headers: readonly RecordHeaderInput[],
): number {
  let size = RECORD_OVERHEAD_BYTES + (key?.length ?? 0) + (value?.length ?? 0);
  for (const header of headers) {
    size += HEADER_OVERHEAD_BYTES + Buffer.byteLength(header.key) + (header.value?.length ?? 0);
  }
  return size;
}

/**
 * Records for one partition that travel together in one RecordBatch. A batch is encoded when it is
 * first sent; a retry resends the very same bytes (same producer id, epoch and sequence), which is
 * what lets the broker recognize the duplicate. Only a change of identity re-encodes it.
 */
export class ProducerBatch {
  readonly topic: string;
  readonly partition: number;
  /** Creation order within the producer; a partition's batches are sequenced in this order. */
  readonly serial: number;
  readonly createdAtMs: number;
  readonly records: PendingRecord[] = [];
  /** Estimated size: header plus records. */
  sizeBytes = BATCH_HEADER_BYTES;
  /** Sends so far. */
  attempts = 0;
  /** Set once a send ended without an answer: the broker may hold this batch already. */
  maybeAppended = false;
  /** Why the last attempt failed. */
  lastError: unknown;
  #encoded: Buffer | undefined;
  #identity: ProducerIdentity | undefined;
  #baseSequence = -1;
  #settled = false;

  constructor(topic: string, partition: number, serial: number, createdAtMs: number) {
    this.topic = topic;
    this.partition = partition;
    this.serial = serial;
    this.createdAtMs = createdAtMs;
  }

  get settled(): boolean {
    return this.#settled;
  }

  /** The base sequence it was encoded with; -1 before encoding or without idempotence. */
  get baseSequence(): number {
    return this.#baseSequence;
  }

  /** Whether the batch has been encoded (and, when idempotent, given its sequence numbers). */
  get encoded(): boolean {
    return this.#encoded !== undefined;
  }

  /** The bytes of the last encoding. */
  get bytes(): Buffer {
    if (this.#encoded === undefined) throw new Error('the batch has not been encoded');
    return this.#encoded;
  }

  /** The identity the bytes carry, if idempotent. */
  get identity(): ProducerIdentity | undefined {
    return this.#identity;
  }

  /** The bytes held of the producer's buffer. */
  get bufferedBytes(): number {
    let total = 0;
    for (const record of this.records) total += record.sizeBytes;
    return total;
  }

  /** Whether `sizeBytes` more would push a non-empty batch past `batchBytes`. */
  wouldOverflow(sizeBytes: number, batchBytes: number): boolean {
    return this.records.length > 0 && this.sizeBytes + sizeBytes > batchBytes;
  }

  append(record: PendingRecord): void {
    if (this.#encoded !== undefined) throw new Error('cannot append to a batch that was already encoded');
    this.records.push(record);
    this.sizeBytes += record.sizeBytes;
  }

  /** Encodes the records, once per identity; sequenced from `baseSequence` when idempotent. */
  encode(compression: CompressionType, identity: ProducerIdentity | undefined, baseSequence: number): Buffer {
    if (this.records.length === 0) throw new Error('cannot encode an empty batch');
    this.#identity = identity;
    this.#baseSequence = identity === undefined ? -1 : baseSequence;
    this.#encoded = encodeRecordBatch({
      records: this.records,
      compression,
      producerId: identity?.producerId ?? -1n,
      producerEpoch: identity?.producerEpoch ?? -1,
      baseSequence: this.#baseSequence,
    });
    return this.#encoded;
  }

  /** Forgets the encoding, so the next send encodes it again under a new identity. */
  resetEncoding(): void {
    this.#encoded = undefined;
    this.#identity = undefined;
    this.#baseSequence = -1;
  }

  /** Reports every record stored from `baseOffset` on. `logAppendTimeMs` is -1 unless the topic uses it. */
  complete(baseOffset: bigint, logAppendTimeMs: bigint): void {
    if (this.#settled) return;
    this.#settled = true;
    const appendTimeMs = logAppendTimeMs >= 0n ? Number(logAppendTimeMs) : undefined;
    for (let index = 0; index < this.records.length; index++) {
      const record = this.records[index]!;
      record.tracker.complete(record.index, {
        topic: this.topic,
        partition: this.partition,
        offset: baseOffset < 0n ? -1n : baseOffset + BigInt(index),
        timestampMs: appendTimeMs ?? record.timestampMs,
      });
    }
  }

  /** Fails every record's send. */
  fail(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    for (const record of this.records) record.tracker.fail(error);
  }
}
