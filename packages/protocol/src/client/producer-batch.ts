import type { CompressionType } from '../records/batch-attributes';
import { BATCH_HEADER_BYTES } from '../records/batch-header';
import { compressionCodec } from '../records/compression/registry';
import type { RecordHeaderInput } from '../records/record';
import { recordBodySizeBytes, recordSizeBytes, writeRecord } from '../records/record';
import { writeRecordBatchHeader } from '../records/record-batch';
import type { BatchBufferPool } from './batch-buffer-pool';
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

/** One record of a `send`, checked and converted, on its way into a batch. */
export interface PendingRecord {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: readonly RecordHeaderInput[];
  /** The partition the caller chose, if any. */
  readonly partition: number | undefined;
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

/** The smallest record buffer a batch starts with; it doubles as records arrive. */
const MIN_CAPACITY_BYTES = 256;
const EMPTY_BUFFER = Buffer.alloc(0);

/**
 * Records for one partition that travel together in one RecordBatch. Each record is encoded into
 * the batch's buffer as it is appended (after room for the 61-byte header), so sending only fills
 * in the header and the CRC instead of measuring and writing every record again; the buffer starts
 * at the size the caller expects and doubles when that was too small. A retry resends the very
 * same bytes (same producer id, epoch and sequence), which is what lets the broker recognize the
 * duplicate; only a change of identity rewrites the header.
 */
export class ProducerBatch {
  readonly topic: string;
  readonly partition: number;
  /** Creation order within the producer; a partition's batches are sequenced in this order. */
  readonly serial: number;
  readonly createdAtMs: number;
  /** Estimated size: header plus records. */
  sizeBytes = BATCH_HEADER_BYTES;
  /** Sends so far. */
  attempts = 0;
  /** Set once a send ended without an answer: the broker may hold this batch already. */
  maybeAppended = false;
  /** Why the last attempt failed. */
  lastError: unknown;
  /** The header's room, then the encoded records. */
  #buffer: Buffer;
  #lengthBytes = BATCH_HEADER_BYTES;
  #recordCount = 0;
  #bufferedBytes = 0;
  #baseTimestampMs = 0;
  #maxTimestampMs = Number.NEGATIVE_INFINITY;
  /**
   * Who is told about each record, as runs of consecutive records of one `send` (record i of the
   * run is that send's record `firstIndex + i`), plus each record's timestamp. Keeping this instead
   * of the records themselves leaves no object per record alive while the batch is in flight,
   * which is most of what the garbage collector would otherwise copy around at high rates.
   */
  readonly #runs: { readonly tracker: SendTracker; readonly firstIndex: number; count: number }[] = [];
  /** A plain array of numbers is stored unboxed by V8 and, unlike a typed array, cheap to create. */
  readonly #timestampsMs: number[] = [];
  /** The compressed records, kept so a new identity only rewrites the header. */
  #compressed: Buffer | undefined;
  #encoded: Buffer | undefined;
  #identity: ProducerIdentity | undefined;
  #baseSequence = -1;
  #settled = false;

  /**
   * `capacityBytes` is a guess of the final size, so a batch that fills up rarely reallocates.
   * With `buffers`, the buffer comes from that pool and goes back to it once nothing can read it.
   */
  constructor(
    topic: string,
    partition: number,
    serial: number,
    createdAtMs: number,
    capacityBytes = 0,
    private readonly buffers?: BatchBufferPool,
  ) {
    this.topic = topic;
    this.partition = partition;
    this.serial = serial;
    this.createdAtMs = createdAtMs;
    const bytes = Math.max(MIN_CAPACITY_BYTES, capacityBytes);
    this.#buffer = buffers === undefined ? Buffer.allocUnsafe(bytes) : buffers.take(bytes);
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
    return this.#bufferedBytes;
  }

  /** Bytes of the uncompressed batch so far (header and encoded records). */
  get encodedLengthBytes(): number {
    return this.#lengthBytes;
  }

  /** How many records the batch holds. */
  get recordCount(): number {
    return this.#recordCount;
  }

  /** Whether `sizeBytes` more would push a non-empty batch past `batchBytes`. */
  wouldOverflow(sizeBytes: number, batchBytes: number): boolean {
    return this.#recordCount > 0 && this.sizeBytes + sizeBytes > batchBytes;
  }

  /**
   * Encodes the record at the end of the batch. Throws RangeError (and appends nothing) for a
   * record that cannot be encoded, such as a timestamp too far from the batch's first one.
   */
  append(record: PendingRecord): void {
    if (this.#encoded !== undefined) throw new Error('cannot append to a batch that was already encoded');
    const offsetDelta = this.#recordCount;
    if (offsetDelta === 0) this.#baseTimestampMs = record.timestampMs;
    const timestampDelta = record.timestampMs - this.#baseTimestampMs;
    const bodySizeBytes = recordBodySizeBytes(
      timestampDelta,
      offsetDelta,
      record.key,
      record.value,
      record.headers,
    );
    const end = this.#lengthBytes + recordSizeBytes(bodySizeBytes);
    if (end > this.#buffer.length) this.#grow(end);
    this.#lengthBytes = writeRecord(
      this.#buffer,
      this.#lengthBytes,
      bodySizeBytes,
      0,
      timestampDelta,
      offsetDelta,
      record.key,
      record.value,
      record.headers,
    );
    if (record.timestampMs > this.#maxTimestampMs) this.#maxTimestampMs = record.timestampMs;
    this.#timestampsMs.push(record.timestampMs);
    const run = this.#runs.at(-1);
    if (run !== undefined && run.tracker === record.tracker && run.firstIndex + run.count === record.index) {
      run.count++;
    } else {
      this.#runs.push({ tracker: record.tracker, firstIndex: record.index, count: 1 });
    }
    this.#recordCount++;
    this.sizeBytes += record.sizeBytes;
    this.#bufferedBytes += record.sizeBytes;
  }

  #grow(neededBytes: number): void {
    let capacity = this.#buffer.length * 2;
    while (capacity < neededBytes) capacity *= 2;
    const grown = Buffer.allocUnsafe(capacity);
    this.#buffer.copy(grown, 0, 0, this.#lengthBytes);
    this.#buffer = grown;
  }

  /**
   * Fills in the header (and compresses, once), per identity; sequenced from `baseSequence` when
   * idempotent, and marked as part of a transaction when `transactional`.
   */
  encode(
    compression: CompressionType,
    identity: ProducerIdentity | undefined,
    baseSequence: number,
    transactional = false,
  ): Buffer {
    const count = this.#recordCount;
    if (count === 0) throw new Error('cannot encode an empty batch');
    this.#identity = identity;
    this.#baseSequence = identity === undefined ? -1 : baseSequence;
    let batch: Buffer;
    if (compression === 'none') {
      batch = this.#buffer.subarray(0, this.#lengthBytes);
    } else {
      if (this.#compressed === undefined) {
        this.#compressed = compressionCodec(compression).compress(
          this.#buffer.subarray(BATCH_HEADER_BYTES, this.#lengthBytes),
        );
        // The uncompressed records are not needed any more.
        this.buffers?.give(this.#buffer);
        this.#buffer = Buffer.alloc(0);
      }
      batch = Buffer.allocUnsafe(BATCH_HEADER_BYTES + this.#compressed.length);
      this.#compressed.copy(batch, BATCH_HEADER_BYTES);
    }
    writeRecordBatchHeader(batch, {
      compression,
      recordCount: count,
      lastOffsetDelta: count - 1,
      baseTimestampMs: this.#baseTimestampMs,
      maxTimestampMs: this.#maxTimestampMs,
      producerId: identity?.producerId ?? -1n,
      producerEpoch: identity?.producerEpoch ?? -1,
      baseSequence: this.#baseSequence,
      isTransactional: transactional,
    });
    this.#encoded = batch;
    return batch;
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
    this.#releaseBuffer();
    const appendTimeMs = logAppendTimeMs >= 0n ? Number(logAppendTimeMs) : undefined;
    // One BigInt per record instead of two: offsets are added as numbers while that stays exact.
    const base = Number(baseOffset);
    const exact = Number.isSafeInteger(base + this.#recordCount);
    let offsetDelta = 0;
    for (const run of this.#runs) {
      for (let index = 0; index < run.count; index++, offsetDelta++) {
        run.tracker.complete(run.firstIndex + index, {
          topic: this.topic,
          partition: this.partition,
          offset:
            baseOffset < 0n ? -1n : exact ? BigInt(base + offsetDelta) : baseOffset + BigInt(offsetDelta),
          timestampMs: appendTimeMs ?? this.#timestampsMs[offsetDelta]!,
        });
      }
    }
  }

  /**
   * Gives the buffer back once the batch is answered. Only a batch sent once qualifies: the answer
   * to its one request proves the broker read every byte of it. After a retry, an earlier attempt
   * may still sit unsent in a connection's write queue, and a reused buffer would change its bytes.
   * A failed batch keeps its buffer for the same reason.
   */
  #releaseBuffer(): void {
    if (this.buffers === undefined || this.attempts !== 1 || this.#compressed !== undefined) return;
    this.buffers.give(this.#buffer);
    this.#buffer = EMPTY_BUFFER;
    this.#encoded = undefined;
  }

  /** Fails every record's send. */
  fail(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    for (const run of this.#runs) run.tracker.fail(error);
  }
}
