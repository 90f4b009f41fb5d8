import { readFully, type ScannedBatch, type ScanStop, scanBatches } from './batch-scan';
import type { FileHandleCache } from './file-handle-cache';
import {
  LOG_SUFFIX,
  OFFSET_INDEX_SUFFIX,
  segmentFilePath,
  TIME_INDEX_SUFFIX,
  TXN_INDEX_SUFFIX,
} from './log-files';
import { OffsetIndex } from './offset-index';
import { SegmentRegion } from './segment-region';
import { StorageError, type StorageIo } from './storage';
import { TimeIndex } from './time-index';
import { TransactionIndex } from './transaction-index';

/** What a segment needs from its surroundings. */
export interface SegmentContext {
  io: StorageIo;
  handles: FileHandleCache;
  directory: string;
  indexIntervalBytes: number;
  maxIndexBytes: number;
}

/** A batch about to be written, with the facts the indexes need (computed once by the log). */
export interface BatchToWrite {
  bytes: Buffer;
  baseOffset: number;
  lastOffset: number;
  maxTimestampMs: number;
}

/** Where a batch lies in the segment file. */
export interface BatchLocation {
  positionBytes: number;
  baseOffset: number;
  lastOffset: number;
  sizeBytes: number;
}

/** The outcome of rescanning a segment at recovery. */
export interface SegmentRecovery {
  stop: ScanStop;
  /** Bytes of valid batches from the start of the file. */
  validBytes: number;
  /** One past the last offset of the last valid batch (the base offset when there is none). */
  nextOffset: number;
  /** Bytes cut off the end of the file. */
  truncatedBytes: number;
}

const LOCATE_CHUNK_BYTES = 16 * 1024;

/**
 * One segment: a `.log` file of RecordBatch v2 batches stored byte-for-byte as appended (only their
 * base offset and leader epoch rewritten), plus its sparse offset and time indexes and its index of
 * aborted transactions (`.txnindex`, kept by the log: see transaction-index.ts). Appends to a
 * segment are serialized by its log; reads may run concurrently with an append because they only
 * look at bytes below the size the log has published.
 */
export class Segment {
  readonly logPath: string;
  readonly offsetIndex: OffsetIndex;
  readonly timeIndex: TimeIndex;
  readonly txnIndex: TransactionIndex;
  #sizeBytes: number;
  #nextOffset: number;
  #maxTimestampMs = -1;
  #bytesSinceIndexEntry = 0;
  #lastBatchBaseOffset = -1;
  #firstAppendWallClockMs: number | undefined;

  private constructor(
    private readonly context: SegmentContext,
    readonly baseOffset: number,
    sizeBytes: number,
    nextOffset: number,
  ) {
    this.logPath = segmentFilePath(context.directory, baseOffset, LOG_SUFFIX);
    this.offsetIndex = new OffsetIndex(
      context.io,
      segmentFilePath(context.directory, baseOffset, OFFSET_INDEX_SUFFIX),
      baseOffset,
      context.maxIndexBytes,
    );
    this.timeIndex = new TimeIndex(
      context.io,
      segmentFilePath(context.directory, baseOffset, TIME_INDEX_SUFFIX),
      baseOffset,
      context.maxIndexBytes,
    );
    this.txnIndex = new TransactionIndex(
      context.handles,
      context.io,
      segmentFilePath(context.directory, baseOffset, TXN_INDEX_SUFFIX),
      baseOffset,
    );
    this.#sizeBytes = sizeBytes;
    this.#nextOffset = nextOffset;
  }

  /** Creates a new, empty segment with preallocated indexes and an empty transaction index. */
  static async create(context: SegmentContext, baseOffset: number): Promise<Segment> {
    const segment = new Segment(context, baseOffset, 0, baseOffset);
    await context.handles.use(segment.logPath, (file) => file.truncate(0));
    await Promise.all([segment.offsetIndex.create(), segment.timeIndex.create(), segment.txnIndex.create()]);
    return segment;
  }

  /**
   * Opens an existing segment without reading its batches. Its end offset is unknown until
   * `recover` or `loadTail` runs (only the last segment of a log needs it).
   */
  static async open(context: SegmentContext, baseOffset: number): Promise<Segment> {
    const segment = new Segment(context, baseOffset, 0, baseOffset);
    segment.#sizeBytes = await context.io.fileSizeBytes(segment.logPath);
    return segment;
  }

  get sizeBytes(): number {
    return this.#sizeBytes;
  }

  /** One past the last offset written to this segment. */
  get nextOffset(): number {
    return this.#nextOffset;
  }

  /** The largest record timestamp in the segment, or -1 when unknown or empty. */
  get maxTimestampMs(): number {
    return this.#maxTimestampMs;
  }

  get firstAppendWallClockMs(): number | undefined {
    return this.#firstAppendWallClockMs;
  }

  get isEmpty(): boolean {
    return this.#sizeBytes === 0;
  }

  /**
   * Writes batches at the end of the file in one `writev` and indexes them. The caller guarantees
   * they fit (segment size and index capacity) and that offsets increase.
   */
  async append(batches: readonly BatchToWrite[], nowMs: number): Promise<void> {
    if (batches.length === 0) return;
    const startPosition = this.#sizeBytes;
    await this.context.handles.use(this.logPath, (file) =>
      file.writev(
        batches.map((batch) => batch.bytes),
        startPosition,
      ),
    );
    await this.#ensureIndexesLoaded();
    let position = startPosition;
    for (const batch of batches) {
      this.#indexBatch(batch.baseOffset, batch.maxTimestampMs, position, batch.bytes.length);
      position += batch.bytes.length;
    }
    this.#sizeBytes = position;
    this.#nextOffset = batches[batches.length - 1]!.lastOffset + 1;
    this.#firstAppendWallClockMs ??= nowMs;
  }

  #indexBatch(baseOffset: number, maxTimestampMs: number, positionBytes: number, sizeBytes: number): void {
    // Like Kafka, index the batch that starts after at least index.interval.bytes of unindexed log.
    if (this.#bytesSinceIndexEntry > this.context.indexIntervalBytes) {
      this.offsetIndex.append(baseOffset, positionBytes);
      this.timeIndex.maybeAppend(Math.max(maxTimestampMs, this.#maxTimestampMs), baseOffset);
      this.#bytesSinceIndexEntry = 0;
    }
    this.#bytesSinceIndexEntry += sizeBytes;
    this.#lastBatchBaseOffset = baseOffset;
    if (maxTimestampMs > this.#maxTimestampMs) this.#maxTimestampMs = maxTimestampMs;
  }

  /** How many more entries both indexes can take; each appended batch adds at most one. */
  get indexEntriesLeft(): number {
    return Math.min(this.offsetIndex.entriesLeft, this.timeIndex.entriesLeft);
  }

  /**
   * Called when the segment stops being the active one: records its largest timestamp in the time
   * index (so retention and time lookups know it without a scan) and writes both indexes, trimmed.
   */
  async finishActive(): Promise<void> {
    await this.#ensureIndexesLoaded();
    if (this.#maxTimestampMs >= 0 && this.#lastBatchBaseOffset >= 0) {
      this.timeIndex.maybeAppend(this.#maxTimestampMs, this.#lastBatchBaseOffset);
    }
    await this.writeIndexes();
  }

  /** Reads `byteCount` bytes at `positionBytes` (the caller picked whole-batch boundaries). */
  async readBytes(positionBytes: number, byteCount: number): Promise<Buffer> {
    const buffer = Buffer.allocUnsafe(byteCount);
    const bytesRead = await this.context.handles.use(this.logPath, (file) =>
      readFully(file, buffer, positionBytes),
    );
    return buffer.subarray(0, bytesRead);
  }

  /**
   * Finds the batch that contains `offset` (the first batch whose last offset is ≥ it) at or after
   * `minPositionBytes`, scanning forward from the nearest index entry. Undefined when the segment
   * has no such batch below `endPositionBytes`.
   */
  async locate(offset: number, endPositionBytes = this.#sizeBytes): Promise<BatchLocation | undefined> {
    await this.#ensureIndexesLoaded();
    const start = this.offsetIndex.lookup(offset).positionBytes;
    let found: BatchLocation | undefined;
    await this.scan(
      start,
      endPositionBytes,
      { withBody: false, verifyCrc: false, chunkBytes: LOCATE_CHUNK_BYTES },
      (batch) => {
        if (batch.lastOffset < offset) return true;
        found = {
          positionBytes: batch.positionBytes,
          baseOffset: batch.baseOffset,
          lastOffset: batch.lastOffset,
          sizeBytes: batch.sizeBytes,
        };
        return false;
      },
    );
    return found;
  }

  /**
   * The whole batches from `first` on that end at or before `limitPositionBytes` and start below
   * `maxOffset` (`first` itself always, as KIP-74's first batch), as a region read later. Only the
   * batch headers after the last index entry within the bounds are read now, so finding the end of
   * megabytes costs a few kilobytes of reading. Bytes below `endPositionBytes` (the size published
   * before the read) are whole batches.
   */
  async regionOfWholeBatches(
    first: BatchLocation,
    limitPositionBytes: number,
    maxOffset: number,
    endPositionBytes: number,
  ): Promise<SegmentRegion> {
    const lease = await this.context.handles.lease(this.logPath);
    try {
      const limit = Math.min(limitPositionBytes, endPositionBytes);
      let endBytes = first.positionBytes + first.sizeBytes;
      let lastOffset = first.lastOffset;
      const indexed = endBytes < limit ? this.offsetIndex.floorWithin(limit, maxOffset) : undefined;
      if (indexed !== undefined && indexed.positionBytes > endBytes) {
        // Every batch between the first and the indexed one ends before it and starts below its
        // offset, so it is in; offsets are dense across batches, so the one before ends just below.
        endBytes = indexed.positionBytes;
        lastOffset = indexed.offset - 1;
      }
      if (endBytes < limit) {
        await scanBatches(
          lease.file,
          endBytes,
          limit,
          { withBody: false, verifyCrc: false, chunkBytes: LOCATE_CHUNK_BYTES },
          (batch) => {
            if (batch.baseOffset >= maxOffset || batch.positionBytes + batch.sizeBytes > limit) return false;
            endBytes = batch.positionBytes + batch.sizeBytes;
            lastOffset = batch.lastOffset;
            return true;
          },
        );
      }
      return new SegmentRegion(
        lease,
        first.positionBytes,
        endBytes - first.positionBytes,
        first.baseOffset,
        lastOffset,
      );
    } catch (error) {
      lease.release();
      throw error;
    }
  }

  /**
   * The newest record timestamp in the segment: tracked while it is active, and for a closed
   * segment the last time index entry (written when it rolled). -1 when it has none.
   */
  async largestTimestampMs(): Promise<number> {
    await this.#ensureIndexesLoaded();
    return Math.max(this.#maxTimestampMs, this.timeIndex.lastEntry?.timestampMs ?? -1);
  }

  /**
   * Where a search for the first record at or after `targetMs` can start: the position of the
   * batch at the last time index entry older than the target, or the segment start.
   */
  async positionBeforeTimestamp(targetMs: number): Promise<number> {
    await this.#ensureIndexesLoaded();
    const entry = this.timeIndex.lookupBefore(targetMs);
    return entry === undefined ? 0 : this.offsetIndex.lookup(entry.offset).positionBytes;
  }

  /** Walks this segment's batches; see {@link scanBatches}. */
  scan(
    fromPositionBytes: number,
    endPositionBytes: number,
    options: { withBody: boolean; verifyCrc: boolean; chunkBytes?: number },
    visit: (batch: ScannedBatch) => boolean | undefined,
  ): Promise<ScanStop> {
    return this.context.handles.use(this.logPath, (file) =>
      scanBatches(file, fromPositionBytes, endPositionBytes, options, visit),
    );
  }

  /**
   * Rescans the whole segment, checking every batch's length and CRC, and rebuilds both indexes
   * from what it finds. The segment then ends after the last valid batch; the caller decides
   * whether to cut the file there (`discardInvalidTail`). `onBatch` sees each valid batch.
   */
  async recover(onBatch?: (batch: ScannedBatch) => void): Promise<SegmentRecovery> {
    const fileSizeBytes = await this.context.io.fileSizeBytes(this.logPath);
    this.offsetIndex.reset();
    this.timeIndex.reset();
    this.#bytesSinceIndexEntry = 0;
    this.#maxTimestampMs = -1;
    let validBytes = 0;
    let nextOffset = this.baseOffset;
    let previousLastOffset = this.baseOffset - 1;
    let outOfOrder: ScanStop | undefined;
    const stop = await this.scan(0, fileSizeBytes, { withBody: true, verifyCrc: true }, (batch) => {
      if (batch.baseOffset <= previousLastOffset || batch.lastOffset < batch.baseOffset) {
        outOfOrder = {
          kind: 'corrupt',
          positionBytes: batch.positionBytes,
          reason: `batch offsets ${batch.baseOffset}..${batch.lastOffset} after ${previousLastOffset}`,
        };
        return false;
      }
      this.#indexBatch(batch.baseOffset, batch.header.maxTimestampMs, batch.positionBytes, batch.sizeBytes);
      previousLastOffset = batch.lastOffset;
      validBytes = batch.positionBytes + batch.sizeBytes;
      nextOffset = batch.lastOffset + 1;
      onBatch?.(batch);
      return true;
    });
    this.#sizeBytes = validBytes;
    this.#nextOffset = nextOffset;
    return { stop: outOfOrder ?? stop, validBytes, nextOffset, truncatedBytes: fileSizeBytes - validBytes };
  }

  /**
   * Cuts the file after the valid batches `recover` found. Kept apart from `recover` so damaged
   * flushed data can be left untouched for an operator instead of being cut away.
   */
  async discardInvalidTail(recovery: SegmentRecovery): Promise<void> {
    if (recovery.truncatedBytes === 0) return;
    await this.context.handles.use(this.logPath, (file) => file.truncate(recovery.validBytes));
  }

  /**
   * Learns the end offset of a segment that was closed cleanly: scans from its last index entry to
   * the end of the file, reading headers only.
   */
  async loadTail(): Promise<ScanStop> {
    // A segment smaller than one index interval has no index entries: skip reading the files.
    const indexed = this.#sizeBytes > this.context.indexIntervalBytes;
    if (indexed) await this.#ensureIndexesLoaded();
    else {
      this.offsetIndex.reset();
      this.timeIndex.reset();
    }
    const last = this.offsetIndex.lastEntry;
    let nextOffset = this.baseOffset;
    const stop = await this.scan(
      last.positionBytes,
      this.#sizeBytes,
      { withBody: false, verifyCrc: false },
      (batch) => {
        nextOffset = batch.lastOffset + 1;
        this.#lastBatchBaseOffset = batch.baseOffset;
        if (batch.header.maxTimestampMs > this.#maxTimestampMs)
          this.#maxTimestampMs = batch.header.maxTimestampMs;
        return true;
      },
    );
    this.#nextOffset = Math.max(nextOffset, last.offset);
    this.#bytesSinceIndexEntry = this.#sizeBytes - last.positionBytes;
    const lastTime = this.timeIndex.lastEntry;
    if (lastTime && lastTime.timestampMs > this.#maxTimestampMs) this.#maxTimestampMs = lastTime.timestampMs;
    return stop;
  }

  /**
   * Removes every batch whose last offset is ≥ `offset` (a batch is never split). Returns the bytes
   * removed.
   */
  async truncateTo(offset: number): Promise<number> {
    const location = await this.locate(offset);
    if (!location) return 0;
    const removedBytes = this.#sizeBytes - location.positionBytes;
    await this.context.handles.use(this.logPath, (file) => file.truncate(location.positionBytes));
    this.offsetIndex.truncateTo(location.baseOffset);
    this.timeIndex.truncateTo(location.baseOffset);
    await this.txnIndex.truncateTo(location.baseOffset);
    this.#sizeBytes = location.positionBytes;
    this.#nextOffset = location.baseOffset;
    this.#bytesSinceIndexEntry = 0;
    return removedBytes;
  }

  /**
   * Undoes what a failed write left in this segment at or after `offset`, the log end before that
   * write: its whole batches, and the bytes of a batch it wrote only in part, past the size the
   * segment knew. Cutting a file never needs new space, so this works on a full disk.
   */
  async rollBackTo(offset: number): Promise<void> {
    if (offset < this.#nextOffset) await this.truncateTo(offset);
    await this.context.handles.use(this.logPath, (file) => file.truncate(this.#sizeBytes));
    await this.txnIndex.truncateTo(offset);
  }

  /**
   * Removes whatever files a segment at `baseOffset` has, for a {@link create} that failed
   * part-way; missing files are fine.
   */
  static async discardFiles(context: SegmentContext, baseOffset: number): Promise<void> {
    for (const suffix of [LOG_SUFFIX, OFFSET_INDEX_SUFFIX, TIME_INDEX_SUFFIX, TXN_INDEX_SUFFIX]) {
      const path = segmentFilePath(context.directory, baseOffset, suffix);
      await context.handles.close(path);
      await context.io.unlink(path).catch((error: unknown) => {
        if (!(error instanceof StorageError && error.isNotFound)) throw error;
      });
    }
  }

  /**
   * Makes everything written so far durable, the aborted-transaction entries included. The two
   * files are synced side by side, not one after the other (an ABORT marker waited for two disk
   * flushes in sequence): their order does not matter, since the caller counts nothing as durable
   * before both are done, and recovery rebuilds a `.txnindex` with entries past the log's end.
   */
  async flush(): Promise<void> {
    await Promise.all([
      this.context.handles.use(this.logPath, (file) => file.datasync()),
      this.txnIndex.sync(),
    ]);
  }

  /** Writes both indexes out, trimmed, when the segment stops being active or the log closes. */
  async writeIndexes(): Promise<void> {
    await Promise.all([this.offsetIndex.writeTrimmed(), this.timeIndex.writeTrimmed()]);
  }

  /** Loads the indexes of a closed segment; rebuilds them from the log if they fail their check. */
  async #ensureIndexesLoaded(): Promise<void> {
    if (this.offsetIndex.isLoaded && this.timeIndex.isLoaded) return;
    const [offsetOk, timeOk] = await Promise.all([
      this.offsetIndex.isLoaded || this.offsetIndex.load(this.#sizeBytes),
      this.timeIndex.isLoaded || this.timeIndex.load(this.#sizeBytes),
    ]);
    if (offsetOk && timeOk) return;
    await this.#rebuildIndexes();
  }

  async #rebuildIndexes(): Promise<void> {
    this.offsetIndex.reset();
    this.timeIndex.reset();
    this.#bytesSinceIndexEntry = 0;
    const maxTimestampBefore = this.#maxTimestampMs;
    this.#maxTimestampMs = -1;
    await this.scan(0, this.#sizeBytes, { withBody: false, verifyCrc: false }, (batch) => {
      this.#indexBatch(batch.baseOffset, batch.header.maxTimestampMs, batch.positionBytes, batch.sizeBytes);
      return true;
    });
    this.#maxTimestampMs = Math.max(this.#maxTimestampMs, maxTimestampBefore);
    await this.writeIndexes();
  }

  /** Drops a closed segment's in-memory indexes (they reload on the next lookup). */
  unloadIndexes(): void {
    this.offsetIndex.unload();
    this.timeIndex.unload();
  }

  /** Closes the file handle; the segment can still be used (it reopens on demand). */
  async close(): Promise<void> {
    await this.context.handles.close(this.logPath);
    await this.txnIndex.close();
  }

  /** Renames the segment's files with `suffix` appended (retention marks them `.deleted`). */
  async renameFilesWithSuffix(suffix: string): Promise<void> {
    await this.close();
    for (const path of [this.logPath, this.offsetIndex.path, this.timeIndex.path, this.txnIndex.path]) {
      try {
        await this.context.io.rename(path, `${path}${suffix}`);
      } catch (error) {
        if (path === this.logPath) throw error; // Only the log file must exist; indexes are optional.
      }
    }
  }

  /** Deletes the segment's files. */
  async delete(): Promise<void> {
    await this.close();
    await this.context.io.unlink(this.logPath);
    await Promise.all([this.offsetIndex.delete(), this.timeIndex.delete(), this.txnIndex.delete()]);
  }
}
