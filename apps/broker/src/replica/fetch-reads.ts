import {
  BATCH_HEADER_BYTES,
  BATCH_LOG_OVERHEAD_BYTES,
  BatchLayout,
  ErrorCode,
  iterateBatches,
  WeirError,
} from '@weir/protocol';
import { releaseStoredRecords, SegmentRegion, type StoredRecords } from '../log/segment-region';
import type { Partition } from './partition';

export type IsolationLevel = 'read_uncommitted' | 'read_committed';

export interface FetchPartitionRequest {
  topic: string;
  partition: number;
  fetchOffset: number;
  partitionMaxBytes: number;
  /** Fetch v9+ (KIP-320); -1 when the client does not know it or sends an older version. */
  currentLeaderEpoch?: number;
}

export interface FetchRequest {
  partitions: FetchPartitionRequest[];
  maxWaitMs: number;
  minBytes: number;
  maxBytes: number;
  isolationLevel: IsolationLevel;
  /**
   * A follower's broker id (Kafka's `replica_id`): it reads up to the log end instead of the high
   * watermark, and its fetch offsets are its replicas' log ends (docs/architecture.md §6.5).
   */
  followerId?: number;
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
  /**
   * Whole stored batches; a segment region when they were left on disk. Whoever drops a result
   * instead of answering with it releases them (`releaseFetchResults`).
   */
  records: StoredRecords;
}

/** Finds the partition a fetch names, or throws why there is none here. */
export type PartitionLookup = (topic: string, partition: number) => Partition;

const EMPTY = Buffer.alloc(0);

/**
 * Reads every requested partition once. The response's `maxBytes` is shared: only the first
 * non-empty partition may exceed it (KIP-74), the others stop at what is left. At most
 * `inMemoryBytes` of records are read into memory; beyond that they stay on disk as segment
 * regions, read as the client's socket takes them (segment-region.ts), so a client that asks for a
 * lot and reads slowly holds little of the broker's memory (docs/architecture.md).
 */
export async function readFetchPartitions(
  request: FetchRequest,
  lookup: PartitionLookup,
  inMemoryBytes: number,
): Promise<FetchPartitionResult[]> {
  let partitionBytesTotal = 0;
  for (const wanted of request.partitions) partitionBytesTotal += Math.max(0, wanted.partitionMaxBytes);
  if (request.partitions.length > 1 && partitionBytesTotal <= request.maxBytes) {
    return readAllAtOnce(request, lookup, inMemoryBytes);
  }
  const isolation = request.isolationLevel;
  let remainingBytes = request.maxBytes;
  let inMemoryBytesLeft = inMemoryBytes;
  let anyData = false;
  const results: FetchPartitionResult[] = [];
  for (const wanted of request.partitions) {
    const result = await readPartition(wanted, lookup, {
      maxBytes: Math.max(0, Math.min(wanted.partitionMaxBytes, remainingBytes)),
      minOneBatch: !anyData,
      isolation,
      deferAboveBytes: inMemoryBytesLeft,
      followerId: request.followerId,
    });
    if (!(result.records instanceof SegmentRegion)) inMemoryBytesLeft -= result.records.length;
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
async function readAllAtOnce(
  request: FetchRequest,
  lookup: PartitionLookup,
  inMemoryBytes: number,
): Promise<FetchPartitionResult[]> {
  const isolation = request.isolationLevel;
  // Read together, the partitions share the in-memory allowance equally.
  const deferAboveBytes = Math.floor(inMemoryBytes / request.partitions.length);
  const results = await Promise.all(
    request.partitions.map((wanted) =>
      readPartition(wanted, lookup, {
        maxBytes: Math.max(0, wanted.partitionMaxBytes),
        minOneBatch: true,
        isolation,
        deferAboveBytes,
        followerId: request.followerId,
      }),
    ),
  );
  let remainingBytes = request.maxBytes;
  let anyData = false;
  for (const [index, result] of results.entries()) {
    const wanted = request.partitions[index]!;
    const limitBytes = Math.max(0, Math.min(wanted.partitionMaxBytes, remainingBytes));
    if (result.records.length > limitBytes) {
      if (result.records instanceof SegmentRegion) {
        // Rare (an earlier partition's first batch passed its own limit): read this one again
        // within what is left, as the sequential read would have.
        result.records.release();
        results[index] = await readPartition(wanted, lookup, {
          maxBytes: limitBytes,
          minOneBatch: !anyData,
          isolation,
          deferAboveBytes,
          followerId: request.followerId,
        });
      } else {
        const keptBytes = wholeBatchesWithin(result.records, limitBytes);
        // The first batch alone over the limit of the first partition with data: the sequential
        // read returns just that batch.
        const firstOnly = !anyData && keptBytes === 0;
        result.records = result.records.subarray(0, firstOnly ? firstBatchBytes(result.records) : keptBytes);
      }
    }
    remainingBytes -= results[index]!.records.length;
    anyData ||= results[index]!.records.length > 0;
  }
  return results;
}

/**
 * One partition's part of the answer. Its errors are answered on the partition (the others are
 * still served); an offset out of range still carries the partition's offsets, so the client can
 * reset. A failure that is not a Kafka error is a bug and is thrown on, to be logged.
 */
async function readPartition(
  wanted: FetchPartitionRequest,
  lookup: PartitionLookup,
  limits: {
    maxBytes: number;
    minOneBatch: boolean;
    isolation: IsolationLevel;
    deferAboveBytes: number;
    followerId: number | undefined;
  },
): Promise<FetchPartitionResult> {
  const base = { topic: wanted.topic, partition: wanted.partition };
  const committed = limits.isolation === 'read_committed';
  let partition: Partition;
  try {
    partition = lookup(wanted.topic, wanted.partition);
    const { offsets, read } =
      limits.followerId === undefined
        ? await partition.read(wanted.fetchOffset, {
            maxBytes: limits.maxBytes,
            minOneBatch: limits.minOneBatch,
            isolation: limits.isolation,
            currentLeaderEpoch: wanted.currentLeaderEpoch,
            deferAboveBytes: limits.deferAboveBytes,
          })
        : await partition.readForFollower(limits.followerId, wanted.fetchOffset, {
            maxBytes: limits.maxBytes,
            currentLeaderEpoch: wanted.currentLeaderEpoch ?? -1,
            deferAboveBytes: limits.deferAboveBytes,
          });
    return {
      ...base,
      errorCode: ErrorCode.NONE,
      highWatermark: offsets.highWatermark,
      lastStableOffset: offsets.lastStableOffset,
      logStartOffset: offsets.logStartOffset,
      abortedTransactions:
        read.abortedTransactions?.map(({ producerId, firstOffset }) => ({ producerId, firstOffset })) ?? null,
      records: read.records,
    };
  } catch (error) {
    if (!(error instanceof WeirError)) throw error;
    if (error.code === ErrorCode.OFFSET_OUT_OF_RANGE) {
      const offsets = lookup(wanted.topic, wanted.partition).offsets();
      return {
        ...base,
        errorCode: error.code,
        highWatermark: offsets.highWatermark,
        lastStableOffset: offsets.lastStableOffset,
        logStartOffset: offsets.logStartOffset,
        abortedTransactions: committed ? [] : null,
        records: EMPTY,
      };
    }
    return {
      ...base,
      errorCode: error.code,
      highWatermark: -1,
      lastStableOffset: -1,
      logStartOffset: -1,
      abortedTransactions: committed ? [] : null,
      records: EMPTY,
    };
  }
}

/** Releases the records of results that will not be answered with (a fetch read again). */
export function releaseFetchResults(results: readonly FetchPartitionResult[]): void {
  for (const result of results) releaseStoredRecords(result.records);
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

/**
 * The records in whole stored batches, from each batch header's record count: a walk over the
 * headers only, so counting what a fetch returns costs nothing next to reading it.
 */
export function recordCountOf(records: StoredRecords): number {
  if (records instanceof SegmentRegion) return records.recordCount;
  let count = 0;
  for (const item of iterateBatches(records)) {
    if (item.kind !== 'batch' || item.bytes.length < BATCH_HEADER_BYTES) break;
    count += item.bytes.readInt32BE(BatchLayout.recordCount);
  }
  return count;
}
