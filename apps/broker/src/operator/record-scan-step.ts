import {
  BATCH_HEADER_BYTES,
  BATCH_LOG_OVERHEAD_BYTES,
  BatchLayout,
  batchCompression,
  batchTimestampType,
  type DecodedRecord,
  decodeRecordBatch,
  ErrorCode,
  isControlBatch,
  isTransactionalBatch,
  type RecordBatch,
  type ScannedRecord,
  WeirError,
} from '@weir/protocol';
import type { AbortedTransaction } from '../log/transaction-index';
import type { RecordPredicate } from './record-filter';
import type { ScanTransactionStatus, TransactionMarks } from './transaction-marks';

/** A returned record: the SDK's shape, with the statuses a broker knows (never `unknown`). */
export type ScanMatch = Omit<ScannedRecord, 'transaction'> & { readonly transaction: ScanTransactionStatus };

/** How a scan reads one partition: through its leader, never past what the scan may see. */
export interface ScanReader {
  /**
   * Whole batches from `fetchOffset`, up to `maxBytes`, with base offsets below `maxOffset`, and
   * the aborted transactions overlapping them.
   */
  read(
    fetchOffset: number,
    maxBytes: number,
    maxOffset: number,
  ): Promise<{ records: Buffer; abortedTransactions: readonly AbortedTransaction[] }>;
  /** The partition's log start now (retention may move it during a scan). */
  logStartOffset(): number;
}

/** One partition's scan in progress. */
export interface PartitionScan {
  readonly partition: number;
  /** Undefined only for a partition that could not be read from the start (and so finished). */
  readonly reader: ScanReader | undefined;
  errorCode: number;
  /** The offset after the last record examined. */
  nextOffset: number;
  /** Exclusive, resolved at the start of the call. */
  readonly endOffset: number;
  /** Reached its end or its match limit, or failed. */
  finished: boolean;
  readonly matches: ScanMatch[];
  /** Whether each transactional batch read was committed, aborted or is open. */
  readonly transactions: TransactionMarks;
}

/** What the whole call may still spend; `stopped` ends it for every partition. */
export interface ScanBudget {
  readonly deadlineMs: number;
  readonly clock: { nowMs(): number };
  recordsLeft: number;
  responseBytesLeft: number;
  scannedBytes: number;
  stopped: boolean;
}

export interface ScanStepOptions {
  /** Undefined: no filters, every record (control records too, when included) is a match. */
  predicate: RecordPredicate | undefined;
  maxMatches: number;
  maxValueBytes: number;
  /** read_committed skips aborted transactions' records (the range already ends at the LSO). */
  isolation: 'read_committed' | 'read_uncommitted';
  /** WeirScanRecords v0–1 show control records to an unfiltered scan; v2 never does. */
  includeControl: boolean;
}

/** One read per turn: enough batches to amortize the disk call, small enough to take turns. */
const READ_CHUNK_BYTES = 1024 * 1024;
/** What a returned record costs beyond its bytes, for the response budget. */
const RECORD_OVERHEAD_BYTES = 64;
const TWO_TO_32 = 0x1_0000_0000;

/**
 * Reads one chunk of whole batches of a partition from `scan.nextOffset` and examines its records
 * in offset order, until the chunk ends or a limit is reached. The clock is checked before each
 * batch, the record budget before each record. Records are decoded as views into the read (or
 * decompressed) bytes; only matches are copied, cut to `maxValueBytes`.
 */
export async function scanPartitionChunk(
  scan: PartitionScan,
  budget: ScanBudget,
  options: ScanStepOptions,
): Promise<void> {
  const reader = scan.reader;
  if (reader === undefined) throw new Error(`partition ${scan.partition} has no reader to scan with`);
  let bytes: Buffer;
  try {
    const read = await reader.read(scan.nextOffset, READ_CHUNK_BYTES, scan.endOffset);
    bytes = read.records;
    scan.transactions.addAborted(read.abortedTransactions);
  } catch (error) {
    failOrSkipAhead(scan, reader, error);
    return;
  }
  if (bytes.length === 0) {
    // Nothing below the end can be read from here (the start is at or past the last batch below
    // it), so the range is exhausted.
    scan.nextOffset = Math.max(scan.nextOffset, scan.endOffset);
    scan.finished = true;
    return;
  }
  const startedAt = scan.nextOffset;
  let position = 0;
  while (position + BATCH_HEADER_BYTES <= bytes.length) {
    const sizeBytes = BATCH_LOG_OVERHEAD_BYTES + bytes.readInt32BE(position + BatchLayout.batchLength);
    const batchStart = position;
    position += sizeBytes;
    const baseOffset =
      bytes.readInt32BE(batchStart + BatchLayout.baseOffset) * TWO_TO_32 +
      bytes.readUInt32BE(batchStart + BatchLayout.baseOffset + 4);
    const lastOffset = baseOffset + bytes.readInt32BE(batchStart + BatchLayout.lastOffsetDelta);
    // Only the first batch of a read can start before the scan's position.
    if (lastOffset < scan.nextOffset) continue;
    if (baseOffset >= scan.endOffset) {
      // Batches are in offset order, so every offset before the end is behind us.
      scan.nextOffset = scan.endOffset;
      scan.finished = true;
      return;
    }
    if (budget.recordsLeft === 0 || budget.clock.nowMs() >= budget.deadlineMs) {
      budget.stopped = true;
      return;
    }
    // The log checked every batch's CRC when it was appended or recovered; checking again would
    // cost a pass over every byte for no new information.
    const decoded = decodeRecordBatch(bytes.subarray(batchStart, position), { verifyCrc: false });
    if (!decoded.ok) {
      scan.errorCode = ErrorCode.CORRUPT_MESSAGE;
      scan.finished = true;
      return;
    }
    budget.scannedBytes += sizeBytes;
    examineBatch(scan, budget, options, decoded.value, baseOffset);
    if (scan.finished || budget.stopped) return;
    // The batch is done: offsets up to its last one are behind us even if compaction removed them.
    scan.nextOffset = Math.max(scan.nextOffset, Math.min(lastOffset + 1, scan.endOffset));
    if (scan.nextOffset >= scan.endOffset) {
      scan.finished = true;
      return;
    }
  }
  if (scan.nextOffset >= scan.endOffset) scan.finished = true;
  // The log's read starts with the batch holding `nextOffset`, so a whole chunk always moves it.
  if (!scan.finished && scan.nextOffset === startedAt) {
    throw new Error(`scan of partition ${scan.partition} made no progress at offset ${startedAt}`);
  }
}

function examineBatch(
  scan: PartitionScan,
  budget: ScanBudget,
  options: ScanStepOptions,
  batch: RecordBatch,
  baseOffset: number,
): void {
  const control = isControlBatch(batch.attributes);
  const transaction = control
    ? 'none'
    : scan.transactions.statusOf(
        isTransactionalBatch(batch.attributes),
        Number(batch.producerId),
        baseOffset,
      );
  // Control records (transaction markers) are shown only to an unfiltered v0–1 browse; a filter
  // never matches them, since what it looks for is data. read_committed drops aborted
  // transactions' records, as a read_committed consumer does. Both still count against the
  // record budget.
  const hidden =
    (control && (options.predicate !== undefined || !options.includeControl)) ||
    (transaction === 'aborted' && options.isolation === 'read_committed');
  const predicate = hidden ? matchesNothing : options.predicate;
  const records = batch.records;
  for (let index = 0; index < records.length; index++) {
    const record = records[index]!;
    const offset = baseOffset + record.offsetDelta;
    if (offset < scan.nextOffset) continue;
    if (offset >= scan.endOffset) {
      scan.nextOffset = scan.endOffset;
      scan.finished = true;
      return;
    }
    if (budget.recordsLeft === 0) {
      budget.stopped = true;
      return;
    }
    budget.recordsLeft -= 1;
    scan.nextOffset = offset + 1;
    if (predicate !== undefined && !predicate(record)) continue;
    const scanned = toScannedRecord(
      scan.partition,
      batch,
      record,
      control,
      transaction,
      options.maxValueBytes,
    );
    scan.matches.push(scanned);
    budget.responseBytesLeft -= returnedBytes(scanned);
    if (scan.matches.length >= options.maxMatches) {
      scan.finished = true;
      return;
    }
    if (budget.responseBytesLeft <= 0) {
      budget.stopped = true;
      return;
    }
  }
}

/** The predicate of a filtered scan for control records, which no filter matches. */
function matchesNothing(): boolean {
  return false;
}

function toScannedRecord(
  partition: number,
  batch: RecordBatch,
  record: DecodedRecord,
  control: boolean,
  transaction: ScanTransactionStatus,
  maxValueBytes: number,
): ScanMatch {
  return {
    partition,
    offset: record.offset,
    timestampMs: BigInt(record.timestampMs),
    logAppendTime: batchTimestampType(batch.attributes) === 'log-append-time',
    key: cut(record.key, maxValueBytes),
    keyBytes: record.key === null ? -1 : record.key.length,
    value: cut(record.value, maxValueBytes),
    valueBytes: record.value === null ? -1 : record.value.length,
    headers: record.headers.map((header) => ({ key: header.key, value: cut(header.value, maxValueBytes) })),
    transactional: isTransactionalBatch(batch.attributes),
    control,
    producerId: batch.producerId,
    producerEpoch: batch.producerEpoch,
    transaction,
    // decodeRecordBatch refuses unknown codecs, so a decoded batch always has a known one.
    compression: batchCompression(batch.attributes) ?? 'none',
  };
}

/** A copy of at most `maxBytes` of a view, so the response does not pin the whole read buffer. */
function cut(bytes: Buffer | null, maxBytes: number): Buffer | null {
  if (bytes === null) return null;
  return Buffer.from(bytes.subarray(0, Math.min(bytes.length, maxBytes)));
}

function returnedBytes(record: ScanMatch): number {
  let total = RECORD_OVERHEAD_BYTES + (record.key?.length ?? 0) + (record.value?.length ?? 0);
  for (const header of record.headers) total += header.key.length + (header.value?.length ?? 0);
  return total;
}

/**
 * A read below the log start (retention moved it during the scan) continues from the new start;
 * any other failure ends the partition with its code.
 */
function failOrSkipAhead(scan: PartitionScan, reader: ScanReader, error: unknown): void {
  if (!(error instanceof WeirError)) throw error;
  if (error.code === ErrorCode.OFFSET_OUT_OF_RANGE) {
    let logStartOffset: number | undefined;
    try {
      logStartOffset = reader.logStartOffset();
    } catch {
      // The partition went away or offline meanwhile: the original error ends it below.
    }
    if (logStartOffset !== undefined && scan.nextOffset < logStartOffset) {
      scan.nextOffset = logStartOffset;
      scan.finished = scan.nextOffset >= scan.endOffset;
      return;
    }
  }
  scan.errorCode = error.code;
  scan.finished = true;
}
