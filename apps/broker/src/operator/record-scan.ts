import { ErrorCode, WeirError } from '@weir/protocol';
import { NO_OPEN_TRANSACTION } from '../log/producer-state';
import type { ClusterView } from '../metadata/cluster-view';
import type { ReplicaManager } from '../replica/replica-manager';
import { compileFilters, type RecordFilterSpec } from './record-filter';
import { type PartitionScan, type ScanBudget, type ScanMatch, scanPartitionChunk } from './record-scan-step';
import { type OpenTransactionStarts, TransactionMarks } from './transaction-marks';

/**
 * One partition's range as asked: `endOffset` -1 means the high watermark at the time of the call
 * (the last stable offset for read_committed).
 */
export interface ScanRange {
  partition: number;
  startOffset: number;
  endOffset: number;
}

export interface ScanRequest {
  topic: string;
  partitions: readonly ScanRange[];
  filters: readonly RecordFilterSpec[];
  maxMatchesPerPartition: number;
  maxScanRecords: number;
  maxScanMs: number;
  maxValueBytes: number;
  /** read_committed: each range ends at the last stable offset and aborted records are skipped. */
  isolation: 'read_committed' | 'read_uncommitted';
  /** Whether an unfiltered scan returns control records (WeirScanRecords v0–1 do, v2 does not). */
  includeControl: boolean;
}

/** Where one partition stands after the call; `errorCode` is non-zero when its log failed. */
export interface PartitionScanOutcome {
  partition: number;
  errorCode: number;
  nextOffset: number;
  endOffset: number;
  done: boolean;
}

export interface ScanOutcome {
  /** Per partition in request order, each in offset order. */
  records: ScanMatch[];
  partitions: PartitionScanOutcome[];
  scannedRecords: number;
  scannedBytes: number;
}

/** Bounds a caller may ask for; beyond them a request is INVALID_REQUEST, not silently cut. */
export const SCAN_LIMITS = {
  maxScanRecords: 1_000_000,
  maxScanMs: 5_000,
  maxMatchesPerPartition: 10_000,
  maxValueBytes: 1024 * 1024,
  partitions: 10_000,
} as const;
/**
 * Matches stop the call once their bytes pass this, whatever the other limits say, so a response
 * stays far below any client's frame limit (the SDK's default is 100 MiB).
 */
export const MAX_SCAN_RESPONSE_BYTES = 16 * 1024 * 1024;

/**
 * Broker-side record search: one bounded step of a scan over some partitions of a topic, reading
 * whole batches from the logs and matching records against filters on the raw bytes. Partitions
 * take turns a read (about 1 MiB) at a time, so a call cut short by its time or record budget has
 * made progress on all of them. Limits are validated first: a bad bound, a duplicate partition or
 * an empty partition list is INVALID_REQUEST; an unknown topic or any partition it does not have
 * fails the whole call with UNKNOWN_TOPIC_OR_PARTITION (the caller lists partitions from the
 * topic's description, so either is a stale view to refresh, not a per-row condition). A log that
 * is offline, or fails while read, ends only its own partition with its error code.
 */
export class RecordScan {
  constructor(
    private readonly view: ClusterView,
    private readonly replicas: Pick<ReplicaManager, 'offsets' | 'producers' | 'readRecords'>,
    private readonly clock: { nowMs(): number },
  ) {}

  async scanRecords(request: ScanRequest): Promise<ScanOutcome> {
    validateLimits(request);
    const predicate = compileFilters(request.filters);
    const topic = this.view.topic(request.topic);
    if (topic === undefined) {
      throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, {
        detail: `topic "${request.topic}" does not exist`,
      });
    }
    const scans: PartitionScan[] = request.partitions.map((range) => {
      if (range.partition < 0 || range.partition >= topic.partitionCount) {
        throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, {
          detail: `${request.topic} has no partition ${range.partition}`,
        });
      }
      return this.#open(request.topic, range, request.isolation);
    });
    const budget: ScanBudget = {
      deadlineMs: this.clock.nowMs() + request.maxScanMs,
      clock: this.clock,
      recordsLeft: request.maxScanRecords,
      responseBytesLeft: MAX_SCAN_RESPONSE_BYTES,
      scannedBytes: 0,
      stopped: false,
    };
    const options = {
      predicate,
      maxMatches: request.maxMatchesPerPartition,
      maxValueBytes: request.maxValueBytes,
      isolation: request.isolation,
      includeControl: request.includeControl,
    };
    for (;;) {
      const active = scans.filter((scan) => !scan.finished);
      if (active.length === 0 || budget.stopped) break;
      for (const scan of active) {
        if (budget.stopped) break;
        await scanPartitionChunk(scan, budget, options);
      }
    }
    return {
      records: scans.flatMap((scan) => scan.matches),
      partitions: scans.map((scan) => ({
        partition: scan.partition,
        errorCode: scan.errorCode,
        nextOffset: scan.nextOffset,
        endOffset: scan.endOffset,
        done: scan.errorCode === ErrorCode.NONE && scan.nextOffset >= scan.endOffset,
      })),
      scannedRecords: request.maxScanRecords - budget.recordsLeft,
      scannedBytes: budget.scannedBytes,
    };
  }

  #open(topic: string, range: ScanRange, isolation: ScanRequest['isolation']): PartitionScan {
    const base = { partition: range.partition, matches: [] as ScanMatch[] };
    let offsets: ReturnType<ReplicaManager['offsets']>;
    let openTransactions: OpenTransactionStarts;
    try {
      // Read together, with no await between, so the open transactions are those of the end below.
      offsets = this.replicas.offsets(topic, range.partition);
      openTransactions = openTransactionStarts(this.replicas.producers(topic, range.partition));
    } catch (error) {
      // Offline, or not led here: this partition ends with the code, the others are scanned.
      if (!(error instanceof WeirError)) throw error;
      return {
        ...base,
        transactions: new TransactionMarks(new Map()),
        reader: undefined,
        errorCode: error.code,
        nextOffset: range.startOffset,
        endOffset: range.endOffset,
        finished: true,
      };
    }
    // The end is fixed now: records appended during the scan are the next call's business. An end
    // beyond the high watermark is cut to it, and a start below the log start moves up to it
    // (retention removed those records). A read_committed scan sees only up to the last stable
    // offset, as a read_committed Fetch does.
    const visibleEnd = isolation === 'read_committed' ? offsets.lastStableOffset : offsets.highWatermark;
    const endOffset = range.endOffset === -1 ? visibleEnd : Math.min(range.endOffset, visibleEnd);
    const nextOffset = Math.max(range.startOffset, offsets.logStartOffset);
    const partition = range.partition;
    return {
      ...base,
      transactions: new TransactionMarks(openTransactions),
      reader: {
        read: (fetchOffset, maxBytes, maxOffset) =>
          this.replicas.readRecords(topic, partition, fetchOffset, { maxBytes, maxOffset }),
        logStartOffset: () => this.replicas.offsets(topic, partition).logStartOffset,
      },
      errorCode: ErrorCode.NONE,
      nextOffset,
      endOffset,
      finished: nextOffset >= endOffset,
    };
  }
}

/** The first offset of each producer's open transaction, from the leader's producer state. */
function openTransactionStarts(producers: ReturnType<ReplicaManager['producers']>): OpenTransactionStarts {
  const starts = new Map<number, number>();
  for (const producer of producers) {
    if (producer.currentTransactionFirstOffset !== NO_OPEN_TRANSACTION) {
      starts.set(producer.producerId, producer.currentTransactionFirstOffset);
    }
  }
  return starts;
}

function validateLimits(request: ScanRequest): void {
  const bounded = (name: keyof typeof SCAN_LIMITS, value: number, min: number) => {
    if (!Number.isInteger(value) || value < min || value > SCAN_LIMITS[name]) {
      throw new WeirError(ErrorCode.INVALID_REQUEST, {
        detail: `${name} ${value} is outside ${min}..${SCAN_LIMITS[name]}`,
      });
    }
  };
  bounded('maxScanRecords', request.maxScanRecords, 1);
  bounded('maxScanMs', request.maxScanMs, 1);
  bounded('maxMatchesPerPartition', request.maxMatchesPerPartition, 1);
  bounded('maxValueBytes', request.maxValueBytes, 0);
  bounded('partitions', request.partitions.length, 1);
  const seen = new Set<number>();
  for (const range of request.partitions) {
    if (seen.has(range.partition)) {
      throw new WeirError(ErrorCode.INVALID_REQUEST, {
        detail: `partition ${range.partition} is listed twice`,
      });
    }
    seen.add(range.partition);
    if (!Number.isSafeInteger(range.startOffset) || range.startOffset < 0) {
      throw new WeirError(ErrorCode.INVALID_REQUEST, {
        detail: `partition ${range.partition}: start offset ${range.startOffset} is negative`,
      });
    }
    const end = range.endOffset;
    if (!Number.isSafeInteger(end) || (end !== -1 && end < range.startOffset)) {
      throw new WeirError(ErrorCode.INVALID_REQUEST, {
        detail: `partition ${range.partition}: end offset ${end} is neither -1 nor at or after the start ${range.startOffset}`,
      });
    }
  }
}
