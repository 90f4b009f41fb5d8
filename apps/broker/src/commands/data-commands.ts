import {
  BATCH_HEADER_BYTES,
  BATCH_LOG_OVERHEAD_BYTES,
  BatchLayout,
  ErrorCode,
  isTransactionalBatch,
  iterateBatches,
  type RecordBatchHeader,
  readBatchHeader,
  WeirError,
} from '@weir/protocol';
import type { PartitionLog } from '../log/partition-log';
import type { TopicManager } from '../topics/topic-manager';
import type { TransactionMembership, TransactionMembershipCheck } from '../txn/transaction-contracts';
import { type CommandResult, failureOf, resultOf } from './command-result';
import { watchForChange } from './wait-for-change';

export interface ProduceResult {
  baseOffset: number;
  logAppendTimeMs: number;
  logStartOffset: number;
}

export interface FetchPartitionRequest {
  topic: string;
  partition: number;
  fetchOffset: number;
  partitionMaxBytes: number;
}

export type IsolationLevel = 'read_uncommitted' | 'read_committed';

export interface FetchRequest {
  partitions: FetchPartitionRequest[];
  maxWaitMs: number;
  minBytes: number;
  maxBytes: number;
  isolationLevel: IsolationLevel;
}

/** An aborted transaction a read_committed client must drop, as Fetch reports it. */
export interface FetchAbortedTransaction {
  producerId: number;
  firstOffset: number;
}

export interface FetchPartitionResult {
  topic: string;
  partition: number;
  errorCode: number;
  highWatermark: number;
  lastStableOffset: number;
  logStartOffset: number;
  /** read_committed: the aborted transactions overlapping `records`; null for read_uncommitted. */
  abortedTransactions: FetchAbortedTransaction[] | null;
  records: Buffer;
}

/** Bytes, records and topics a produce or fetch moved; the metrics layer counts them. */
export interface TrafficObserver {
  bytesIn(topic: string, bytes: number, records: number): void;
  bytesOut(topic: string, bytes: number, records: number): void;
}

const EMPTY = Buffer.alloc(0);
const VALID_ACKS = new Set([-1, 0, 1]);

/** Whether the batch's attributes say transactional; the cheap test before the header is read. */
function mayBeTransactional(records: Buffer): boolean {
  return (
    records.length >= BATCH_HEADER_BYTES && isTransactionalBatch(records.readInt16BE(BatchLayout.attributes))
  );
}

/**
 * Admits every transactional batch. Only a constructor default, until the broker passes the
 * transaction coordinator's check; never use it where a coordinator exists.
 */
const EVERY_PARTITION_IS_A_MEMBER: TransactionMembershipCheck = { membership: async () => 'member' };

/**
 * The data path: produce, fetch (with long-poll), list offsets and delete records. Produce with
 * acks=-1 waits for an fdatasync (standalone durability); acks=1 answers once the write is done.
 * read_committed fetches and offset lookups stop at the last stable offset.
 */
export class DataCommands {
  constructor(
    private readonly topics: TopicManager,
    private readonly traffic: TrafficObserver,
    /** Asked before each transactional batch is appended (the transaction coordinator). */
    private readonly transactions: TransactionMembershipCheck = EVERY_PARTITION_IS_A_MEMBER,
  ) {}

  /**
   * Appends one partition's records. Produce v3+ carries exactly one batch per partition; the log
   * validates it (CRC, sizes, sequence) and assigns offsets.
   */
  async produce(request: {
    topic: string;
    partition: number;
    records: Buffer | null;
    acks: number;
  }): Promise<CommandResult<ProduceResult>> {
    return resultOf(async () => {
      if (!VALID_ACKS.has(request.acks)) {
        throw new WeirError(ErrorCode.INVALID_REQUIRED_ACKS, {
          detail: `acks ${request.acks} is not -1, 0 or 1`,
        });
      }
      const log = this.topics.partitionLog(request.topic, request.partition);
      if (this.topics.getTopic(request.topic)?.internal) {
        throw new WeirError(ErrorCode.INVALID_TOPIC_EXCEPTION, {
          detail: `clients cannot produce to the internal topic ${request.topic}`,
        });
      }
      const records = request.records;
      if (!records || records.length < BATCH_LOG_OVERHEAD_BYTES) {
        throw new WeirError(ErrorCode.CORRUPT_MESSAGE, { detail: 'the partition carries no record batch' });
      }
      // Only a second complete batch is "more than one batch"; bytes after a batchLength that lies
      // (short, zero, negative) are a corrupt batch, which the log answers with CORRUPT_MESSAGE.
      const [first, second] = iterateBatches(records);
      if (first?.kind === 'batch' && second?.kind === 'batch') {
        throw new WeirError(ErrorCode.INVALID_RECORD, {
          detail: 'produce requests of version 3 and above carry exactly one record batch per partition',
        });
      }
      const membership = mayBeTransactional(records)
        ? await this.#askTransactionMembership(request.topic, request.partition, records)
        : undefined;
      const result = await log.append(records, {
        origin: 'client',
        durable: request.acks === -1,
        admit: (header) =>
          this.#checkTransactionMembership(request.topic, request.partition, header, membership),
      });
      this.traffic.bytesIn(request.topic, records.length, result.lastOffset - result.baseOffset + 1);
      return {
        baseOffset: result.baseOffset,
        logAppendTimeMs: result.logAppendTimeMs,
        logStartOffset: result.logStartOffset,
      };
    });
  }

  /**
   * Asks the transaction coordinator, before the append, whether the batch's producer may write a
   * transactional batch here; undefined for a batch that is not transactional or whose header the
   * log will refuse anyway. A bridge until the replica layer asks the coordinator itself: the
   * question is asynchronous (the coordinator may be another broker), the log's admit hook is not.
   */
  async #askTransactionMembership(
    topic: string,
    partition: number,
    records: Buffer,
  ): Promise<TransactionMembership | undefined> {
    const header = readBatchHeader(records);
    if (!header.ok || !isTransactionalBatch(header.value.attributes)) return undefined;
    const { producerId, producerEpoch } = header.value;
    return this.transactions.membership({
      transactionalId: null,
      producerId,
      producerEpoch,
      topic,
      partition,
    });
  }

  /**
   * A transactional batch may only go to a partition its producer added to the ongoing
   * transaction (AddPartitionsToTxn): otherwise INVALID_TXN_STATE, or INVALID_PRODUCER_EPOCH when
   * a newer epoch owns the transactional id. Runs after the log validated the batch, with the
   * coordinator's answer to {@link askTransactionMembership}.
   */
  #checkTransactionMembership(
    topic: string,
    partition: number,
    header: RecordBatchHeader,
    verdict: TransactionMembership | undefined,
  ): void {
    if (!isTransactionalBatch(header.attributes)) return;
    const { producerId, producerEpoch } = header;
    if (verdict === 'member') return;
    if (verdict === 'fenced') {
      throw new WeirError(ErrorCode.INVALID_PRODUCER_EPOCH, {
        detail: `producer ${producerId} epoch ${producerEpoch} is fenced by a newer epoch`,
      });
    }
    if (verdict === 'unavailable') {
      // Retriable and known to every producer, as Kafka answers while it cannot verify a transaction.
      throw new WeirError(ErrorCode.NOT_ENOUGH_REPLICAS, {
        detail: `the transaction coordinator of producer ${producerId} is not available here yet`,
      });
    }
    throw new WeirError(ErrorCode.INVALID_TXN_STATE, {
      detail: `${topic}-${partition} is not part of an ongoing transaction of producer ${producerId}`,
    });
  }

  /**
   * Reads every requested partition; when fewer than `minBytes` came back, waits until an append
   * to one of them (our push delivery), `maxWaitMs`, or `signal` (the connection closed), then
   * reads again. The response's `maxBytes` is shared: only the first non-empty partition may
   * exceed it (KIP-74), the others stop at what is left.
   */
  async fetch(request: FetchRequest, signal: AbortSignal): Promise<FetchPartitionResult[]> {
    const deadlineMs = Date.now() + Math.max(0, request.maxWaitMs);
    for (;;) {
      // Subscribed before reading: a read waits on disk, and an append that lands meanwhile must
      // still wake this fetch (otherwise it sleeps until maxWaitMs with the data already there).
      const watch = request.maxWaitMs > 0 ? watchForChange(this.#logsOf(request.partitions)) : undefined;
      const results = await this.#readAll(request);
      const totalBytes = results.reduce((total, result) => total + result.records.length, 0);
      const anyError = results.some((result) => result.errorCode !== ErrorCode.NONE);
      const remainingMs = deadlineMs - Date.now();
      if (!watch || totalBytes >= request.minBytes || anyError || remainingMs <= 0 || signal.aborted) {
        watch?.cancel();
        for (const result of results)
          if (result.records.length > 0)
            this.traffic.bytesOut(result.topic, result.records.length, recordCountOf(result.records));
        return results;
      }
      await watch.wait(remainingMs, signal);
    }
  }

  async #readAll(request: FetchRequest): Promise<FetchPartitionResult[]> {
    let partitionBytesTotal = 0;
    for (const wanted of request.partitions) partitionBytesTotal += Math.max(0, wanted.partitionMaxBytes);
    if (request.partitions.length > 1 && partitionBytesTotal <= request.maxBytes) {
      return this.#readAllAtOnce(request);
    }
    const isolation = request.isolationLevel;
    let remainingBytes = request.maxBytes;
    let anyData = false;
    const results: FetchPartitionResult[] = [];
    for (const wanted of request.partitions) {
      const result = await this.#readPartition(wanted, {
        maxBytes: Math.max(0, Math.min(wanted.partitionMaxBytes, remainingBytes)),
        minOneBatch: !anyData,
        isolation,
      });
      remainingBytes -= result.records.length;
      anyData ||= result.records.length > 0;
      results.push(result);
    }
    return results;
  }

  /**
   * The same answer as the sequential read, with every partition read at once: each disk read
   * waits for the file system, so one after the other they add up, while together they overlap.
   * Used when every partition's own limit fits the response's, so reading each up to its own
   * limit never reads much more than the answer holds. The shared limit is then applied in order
   * as the sequential read would: a partition whose bytes pass what is left keeps only the whole
   * batches that fit, except the first partition with data, which keeps its first batch (KIP-74).
   * Aborted transactions listed for bytes cut off this way are harmless: clients only apply them
   * to records they receive.
   */
  async #readAllAtOnce(request: FetchRequest): Promise<FetchPartitionResult[]> {
    const isolation = request.isolationLevel;
    const results = await Promise.all(
      request.partitions.map((wanted) =>
        this.#readPartition(wanted, {
          maxBytes: Math.max(0, wanted.partitionMaxBytes),
          minOneBatch: true,
          isolation,
        }),
      ),
    );
    let remainingBytes = request.maxBytes;
    let anyData = false;
    for (const [index, result] of results.entries()) {
      const limitBytes = Math.max(0, Math.min(request.partitions[index]!.partitionMaxBytes, remainingBytes));
      if (result.records.length > limitBytes) {
        const keptBytes = wholeBatchesWithin(result.records, limitBytes);
        // The first batch alone over the limit of the first partition with data: the sequential
        // read returns just that batch.
        const firstOnly = !anyData && keptBytes === 0;
        result.records = result.records.subarray(0, firstOnly ? firstBatchBytes(result.records) : keptBytes);
      }
      remainingBytes -= result.records.length;
      anyData ||= result.records.length > 0;
    }
    return results;
  }

  async #readPartition(
    wanted: FetchPartitionRequest,
    limits: { maxBytes: number; minOneBatch: boolean; isolation: IsolationLevel },
  ): Promise<FetchPartitionResult> {
    const base = { topic: wanted.topic, partition: wanted.partition };
    const committed = limits.isolation === 'read_committed';
    let log: PartitionLog;
    try {
      log = this.topics.partitionLog(wanted.topic, wanted.partition);
    } catch (error) {
      return { ...base, ...emptyPartition(failureOf(error).errorCode, committed) };
    }
    const offsets = {
      highWatermark: log.highWatermark,
      lastStableOffset: log.lastStableOffset,
      logStartOffset: log.logStartOffset,
      abortedTransactions: committed ? [] : null,
    };
    // docs/kafka-compat.md §7: below the log start or above the high watermark is out of range; exactly
    // the high watermark is a valid, empty read.
    if (wanted.fetchOffset < log.logStartOffset || wanted.fetchOffset > log.highWatermark) {
      return { ...base, ...offsets, errorCode: ErrorCode.OFFSET_OUT_OF_RANGE, records: EMPTY };
    }
    try {
      // read_committed: only up to the last stable offset, with the aborted ranges overlapping
      // what is returned (docs/kafka-compat.md §7); clients drop those records themselves.
      const read = await log.read(wanted.fetchOffset, {
        maxBytes: limits.maxBytes,
        minOneBatch: limits.minOneBatch,
        isolation: limits.isolation,
      });
      return {
        ...base,
        errorCode: ErrorCode.NONE,
        highWatermark: read.highWatermark,
        lastStableOffset: read.lastStableOffset,
        logStartOffset: read.logStartOffset,
        abortedTransactions:
          read.abortedTransactions?.map(({ producerId, firstOffset }) => ({ producerId, firstOffset })) ??
          null,
        records: read.records,
      };
    } catch (error) {
      return { ...base, ...offsets, errorCode: failureOf(error).errorCode, records: EMPTY };
    }
  }

  #logsOf(partitions: FetchPartitionRequest[]): PartitionLog[] {
    const logs: PartitionLog[] = [];
    for (const { topic, partition } of partitions) {
      try {
        logs.push(this.topics.partitionLog(topic, partition));
      } catch {
        // A partition that does not exist has nothing to wait for.
      }
    }
    return logs;
  }

  /**
   * ListOffsets: -2 is the log start, -1 the high watermark (the last stable offset for
   * read_committed), anything else the first record at or after that time, below the same bound.
   * No such record gives offset -1 and timestamp -1.
   */
  async listOffset(request: {
    topic: string;
    partition: number;
    timestampMs: number;
    /** Default read_uncommitted (ListOffsets v0–1 have no isolation level). */
    isolationLevel?: IsolationLevel;
  }): Promise<CommandResult<{ offset: number; timestampMs: number }>> {
    return resultOf(async () => {
      const log = this.topics.partitionLog(request.topic, request.partition);
      const end = request.isolationLevel === 'read_committed' ? log.lastStableOffset : log.highWatermark;
      if (request.timestampMs === -2) return { offset: log.logStartOffset, timestampMs: -1 };
      if (request.timestampMs === -1) return { offset: end, timestampMs: -1 };
      if (request.timestampMs < 0) {
        throw new WeirError(ErrorCode.INVALID_REQUEST, {
          detail: `unsupported timestamp ${request.timestampMs}`,
        });
      }
      const found = await log.offsetForTimestamp(request.timestampMs, end);
      return found
        ? { offset: found.offset, timestampMs: found.timestampMs }
        : { offset: -1, timestampMs: -1 };
    });
  }

  /** DeleteRecords: moves the log start offset; -1 means "up to the high watermark". */
  async deleteRecords(request: {
    topic: string;
    partition: number;
    offset: number;
  }): Promise<CommandResult<{ lowWatermark: number }>> {
    return resultOf(async () => {
      const log = this.topics.partitionLog(request.topic, request.partition);
      const offset = request.offset === -1 ? log.highWatermark : request.offset;
      return { lowWatermark: await log.deleteRecordsBefore(offset) };
    });
  }
}

/** The size of the first batch in `records` (whole batches only, as the log returns them). */
function firstBatchBytes(records: Buffer): number {
  return BATCH_LOG_OVERHEAD_BYTES + records.readInt32BE(8);
}

/** How many bytes of `records`, counted in whole batches from the start, fit in `limitBytes`. */
function wholeBatchesWithin(records: Buffer, limitBytes: number): number {
  let position = 0;
  while (records.length - position >= BATCH_LOG_OVERHEAD_BYTES) {
    const next = position + BATCH_LOG_OVERHEAD_BYTES + records.readInt32BE(position + 8);
    if (next > limitBytes || next > records.length) break;
    position = next;
  }
  return position;
}

function emptyPartition(errorCode: number, committed: boolean) {
  return {
    errorCode,
    highWatermark: -1,
    lastStableOffset: -1,
    logStartOffset: -1,
    abortedTransactions: committed ? [] : null,
    records: EMPTY,
  };
}

/**
 * The records in whole stored batches, from each batch header's record count: a walk over the
 * headers only, so counting what a fetch returns costs nothing next to reading it.
 */
function recordCountOf(records: Buffer): number {
  let count = 0;
  for (const item of iterateBatches(records)) {
    if (item.kind !== 'batch' || item.bytes.length < BATCH_HEADER_BYTES) break;
    count += item.bytes.readInt32BE(BatchLayout.recordCount);
  }
  return count;
}
