import { DecodeError, tryDecode } from '../codec/decode-error';
import { ErrorCode } from '../errors/error-codes';
import { WeirError } from '../errors/weir-error';
import {
  batchCompression,
  batchTimestampType,
  isControlBatch,
  isTransactionalBatch,
} from '../records/batch-attributes';
import {
  BATCH_HEADER_BYTES,
  BatchLayout,
  batchLastOffset,
  type RecordBatchHeader,
  readBatchHeader,
  verifyBatchCrcOrThrow,
} from '../records/batch-header';
import { splitBatches } from '../records/batch-scanner';
import { DEFAULT_MAX_DECOMPRESSED_BYTES } from '../records/compression/compression-codec';
import { compressionCodec } from '../records/compression/registry';
import { decodeControlRecord } from '../records/control-record';
import type { RecordHeader } from '../records/record';
import { decodeRecordBatch } from '../records/record-batch';
import { RecordReader } from '../records/record-reader';
import type { ConsumerRecord } from './message';

/** What one partition's fetched bytes held. */
export interface FetchedRecords {
  /** Records at or after the fetch offset, in offset order. */
  readonly records: ConsumerRecord[];
  /** Where the next fetch starts: after the last complete batch (or the fetch offset if none). */
  readonly nextOffset: bigint;
  /** Set when a batch could not be read; `records` and `nextOffset` stop before it. */
  readonly error: WeirError | undefined;
}

/** An aborted transaction a read_committed Fetch answer lists: its producer and first offset. */
export interface FetchedAbortedTransaction {
  readonly producerId: bigint;
  readonly firstOffset: bigint;
}

/** How to read a partition's records: everything, or only committed transactional data. */
export type FetchIsolation =
  | { readonly kind: 'read_uncommitted' }
  /** With the answer's aborted transactions (null or empty when it listed none). */
  | {
      readonly kind: 'read_committed';
      readonly abortedTransactions: readonly FetchedAbortedTransaction[] | null;
    };

const READ_UNCOMMITTED: FetchIsolation = { kind: 'read_uncommitted' };

/** Records without headers (nearly all) share this list; it is frozen, so none can change it. */
const NO_HEADERS: readonly RecordHeader[] = Object.freeze([]);
const MAX_SAFE_OFFSET = BigInt(Number.MAX_SAFE_INTEGER);
/** The smallest encoded record: length, attributes, two deltas, null key, null value, no headers. */
const MIN_RECORD_BYTES = 7;

/**
 * Decodes the RECORDS of one fetched partition (checking CRCs and decompressing). The broker
 * returns whole stored batches, so the first may start before `fetchOffset`: records below it
 * are dropped. The answer may end in a partial batch when the broker cut at a size limit; it is
 * ignored and fetched whole next time. Control batches (transaction markers) are skipped but move
 * the position past them. With read_committed, the batches of aborted transactions are skipped
 * the same way (see {@link AbortedTransactionFilter}).
 */
export function decodeFetchedRecords(
  topic: string,
  partition: number,
  fetchOffset: bigint,
  bytes: Buffer | null,
  isolation: FetchIsolation = READ_UNCOMMITTED,
): FetchedRecords {
  const aborted =
    isolation.kind === 'read_committed'
      ? new AbortedTransactionFilter(isolation.abortedTransactions)
      : undefined;
  const records: ConsumerRecord[] = [];
  let nextOffset = fetchOffset;
  const name = `${topic}-${partition}`;
  const corrupt = (reason: string) =>
    new WeirError(ErrorCode.CORRUPT_MESSAGE, { detail: `${name} at offset ${nextOffset}: ${reason}` });
  if (bytes === null || bytes.length === 0) return { records, nextOffset, error: undefined };
  const split = splitBatches(bytes);
  if (!split.ok) return { records, nextOffset, error: corrupt(split.error.message) };
  for (const batchBytes of split.value.batches) {
    const header = readBatchHeader(batchBytes);
    if (!header.ok) return { records, nextOffset, error: corrupt(header.error.message) };
    const lastOffset = batchLastOffset(header.value);
    // The aborted-transaction bookkeeping sees every batch, even one below the position: an ABORT
    // marker there still ends its producer's aborted range.
    const abortedBatch = aborted?.skips(header.value, lastOffset, batchBytes) ?? false;
    // Wholly below the position: skip it without decoding its records.
    if (lastOffset < nextOffset) continue;
    if (!isControlBatch(header.value.attributes) && !abortedBatch) {
      const kept = records.length;
      const decoded = tryDecode(() =>
        appendRecords(records, topic, partition, nextOffset, batchBytes, header.value),
      );
      if (!decoded.ok) {
        // A batch is delivered whole or not at all.
        records.length = kept;
        return { records, nextOffset, error: corrupt(decoded.error.message) };
      }
    }
    nextOffset = lastOffset + 1n;
  }
  if (split.value.batches.length === 0 && split.value.partialTail !== null) {
    // Brokers send at least one whole batch whatever the limits (KIP-74); one that does not would
    // leave this partition stuck, so say so rather than fetch the same bytes forever.
    const error = new WeirError(ErrorCode.RECORD_LIST_TOO_LARGE, {
      detail: `${name} at offset ${nextOffset}: the broker sent only part of a batch of unknown size; raise partitionMaxBytes and maxBytes.`,
    });
    return { records, nextOffset, error };
  }
  return { records, nextOffset, error: undefined };
}

/**
 * The read_committed filter, as the Java consumer and librdkafka apply it: the answer lists each
 * aborted transaction by producer and first offset. Going through the batches in offset order, a
 * producer becomes "aborted" once a batch reaches its transaction's first offset, its
 * transactional batches are skipped from then on, and its ABORT marker ends that. Batches without
 * a producer id, and committed transactions' batches, pass.
 */
class AbortedTransactionFilter {
  readonly #pending: FetchedAbortedTransaction[];
  #nextPending = 0;
  readonly #abortedProducers = new Set<bigint>();

  constructor(abortedTransactions: readonly FetchedAbortedTransaction[] | null) {
    this.#pending = [...(abortedTransactions ?? [])].sort((left, right) =>
      left.firstOffset < right.firstOffset ? -1 : left.firstOffset > right.firstOffset ? 1 : 0,
    );
  }

  /** Whether the batch belongs to an aborted transaction (control batches are skipped anyway). */
  skips(header: RecordBatchHeader, lastOffset: bigint, batch: Buffer): boolean {
    if (header.producerId < 0n) return false;
    while (
      this.#nextPending < this.#pending.length &&
      this.#pending[this.#nextPending]!.firstOffset <= lastOffset
    ) {
      this.#abortedProducers.add(this.#pending[this.#nextPending++]!.producerId);
    }
    if (isControlBatch(header.attributes)) {
      if (isAbortMarker(batch)) this.#abortedProducers.delete(header.producerId);
      return false;
    }
    return isTransactionalBatch(header.attributes) && this.#abortedProducers.has(header.producerId);
  }
}

/** True for a control batch whose (first) record is an ABORT marker. */
function isAbortMarker(batch: Buffer): boolean {
  const decoded = decodeRecordBatch(batch, { verifyCrc: false });
  const first = decoded.ok ? decoded.value.records[0] : undefined;
  if (first === undefined) return false;
  const control = decodeControlRecord(first);
  return control.ok && control.value.type === 'abort';
}

/**
 * Checks one whole batch (CRC, codec, record framing) and appends its records at or after
 * `fromOffset` to `records` as consumer records, without the intermediate objects of a general
 * batch decode: one object, one offset BigInt and one view per key and value for each record
 * handed out, nothing for the records it skips. Throws {@link DecodeError}.
 */
function appendRecords(
  records: ConsumerRecord[],
  topic: string,
  partition: number,
  fromOffset: bigint,
  batch: Buffer,
  header: RecordBatchHeader,
): void {
  verifyBatchCrcOrThrow(batch, 0);
  const compression = batchCompression(header.attributes);
  if (compression === undefined) {
    throw new DecodeError(
      'invalid-value',
      `unknown compression codec ${header.attributes & 0x07}`,
      BatchLayout.attributes,
    );
  }
  let data = batch;
  let start = BATCH_HEADER_BYTES;
  if (compression !== 'none') {
    try {
      data = compressionCodec(compression).decompress(
        batch.subarray(BATCH_HEADER_BYTES),
        DEFAULT_MAX_DECOMPRESSED_BYTES,
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new DecodeError('decompression-failed', `${compression}: ${reason}`, BATCH_HEADER_BYTES);
    }
    start = 0;
  }
  const count = header.recordCount;
  if (count * MIN_RECORD_BYTES > data.length - start) {
    throw new DecodeError(
      'invalid-length',
      `record count ${count} does not fit in ${data.length - start} bytes`,
      BatchLayout.recordCount,
    );
  }
  const timestampType = batchTimestampType(header.attributes);
  const logAppendTimeMs = timestampType === 'log-append-time' ? header.maxTimestampMs : undefined;
  // Offsets are added as numbers while that is exact, so each record costs one BigInt, not two.
  const baseOffset = Number(header.baseOffset);
  const exact = Number.isSafeInteger(baseOffset + header.lastOffsetDelta) && fromOffset <= MAX_SAFE_OFFSET;
  const from = Number(fromOffset);
  const reader = new RecordReader(data, start, data.length);
  for (let index = 0; index < count; index++) {
    const recordStart = reader.position;
    const bodySizeBytes = reader.varint();
    if (bodySizeBytes < 0 || bodySizeBytes > reader.remaining) {
      throw new DecodeError(
        'invalid-length',
        `record length ${bodySizeBytes} with ${reader.remaining} bytes left`,
        recordStart,
      );
    }
    const end = reader.position + bodySizeBytes;
    reader.int8();
    const timestampDelta = reader.varlongNumber();
    const offsetDelta = reader.varint();
    const key = reader.nullableBytes('record key');
    const value = reader.nullableBytes('record value');
    const headers = readHeaders(reader, end);
    if (reader.position !== end) {
      throw new DecodeError(
        'invalid-length',
        `record length says ${bodySizeBytes} bytes but its fields took ${reader.position - end + bodySizeBytes}`,
        recordStart,
      );
    }
    let offset: bigint;
    if (exact) {
      if (baseOffset + offsetDelta < from) continue;
      offset = BigInt(baseOffset + offsetDelta);
    } else {
      offset = header.baseOffset + BigInt(offsetDelta);
      if (offset < fromOffset) continue;
    }
    records.push({
      topic,
      partition,
      offset,
      key,
      value,
      headers,
      timestampMs: logAppendTimeMs ?? header.baseTimestampMs + timestampDelta,
      timestampType,
    });
  }
  if (reader.remaining !== 0) {
    throw new DecodeError(
      'trailing-bytes',
      `${reader.remaining} bytes left after ${count} records`,
      reader.position,
    );
  }
}

function readHeaders(reader: RecordReader, end: number): readonly RecordHeader[] {
  const countAt = reader.position;
  const count = reader.varint();
  if (count === 0) return NO_HEADERS;
  // Every header takes at least two bytes, so a larger count is a lie; reject it before allocating.
  if (count < 0 || count * 2 > end - reader.position) {
    throw new DecodeError('invalid-length', `header count ${count}`, countAt);
  }
  const headers: RecordHeader[] = new Array(count);
  for (let index = 0; index < count; index++) {
    const keyAt = reader.position;
    const keyLength = reader.varint();
    if (keyLength < 0) throw new DecodeError('invalid-length', `header key length ${keyLength}`, keyAt);
    const key = reader.raw(keyLength).toString('utf8');
    headers[index] = { key, value: reader.nullableBytes('header value') };
  }
  return headers;
}
