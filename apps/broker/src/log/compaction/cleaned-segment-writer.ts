import { type RecordBatchHeader, readBatchHeader } from '@weir/protocol';
import { type ScannedBatch, scanBatches } from '../batch-scan';
import { type BatchToWrite, Segment, type SegmentContext } from '../segment';
import type { StorageFile } from '../storage';
import type { BatchOutcome } from './clean-pass';

/**
 * How much of a source segment is read, cleaned and written per step: the clean's memory bound,
 * and how long the broker's other partitions can wait behind it. bench:compaction measured another
 * partition's fetch p50 during a clean at 7 ms with 64 KiB steps and 250–400 ms with 4 MiB reads
 * sliced by yields (the cleaner's own rate is about half at 64 KiB); a worker thread is the way to
 * have both (see the issue #19 note).
 */
export const CLEAN_CHUNK_BYTES = 64 * 1024;

/** One segment being rewritten, and what the pass decides for each of its batches. */
export interface CleanSource {
  readonly segment: Segment;
  /** Tombstones and markers of emptied transactions in this segment are still kept. */
  readonly retainDeletes: boolean;
}

/** What a clean does between chunks and with each batch. */
export interface CleanSteps {
  clean(body: Buffer, header: RecordBatchHeader, retainDeletes: boolean): BatchOutcome;
  /** Called after each chunk read, with its size: the I/O throttle, and the check for shutdown. */
  afterChunk(bytes: number): Promise<void>;
  /** Opens a source segment's log file for reading (never creating it). */
  openForReading(path: string): Promise<StorageFile>;
  nowMs(): number;
}

export interface WrittenSegment {
  readonly segment: Segment;
  readBytes: number;
  writtenBytes: number;
  keptRecords: number;
  removedRecords: number;
}

/**
 * Writes the cleaned copy of `sources` (consecutive segments) as one new segment in
 * `cleaningContext.directory`, named by the first source's base offset, with its offset and time
 * indexes rebuilt from the batches kept, the aborted-transaction entries whose markers were kept,
 * and everything synced. The sources are read through their own descriptors in bounded chunks.
 */
export async function writeCleanedSegment(
  cleaningContext: SegmentContext,
  sources: readonly CleanSource[],
  keptMarkerOffsets: ReadonlySet<number>,
  steps: CleanSteps,
): Promise<WrittenSegment> {
  const segment = await Segment.create(cleaningContext, sources[0]!.segment.baseOffset);
  const written: WrittenSegment = {
    segment,
    readBytes: 0,
    writtenBytes: 0,
    keptRecords: 0,
    removedRecords: 0,
  };
  try {
    for (const source of sources) {
      await copySource(source, segment, written, steps);
      for (const entry of source.segment.txnIndex.entries) {
        if (keptMarkerOffsets.has(entry.lastOffset)) segment.txnIndex.append(entry);
      }
    }
    await segment.txnIndex.writePending();
    await segment.finishActive();
    await segment.flush();
  } finally {
    await segment.close();
  }
  return written;
}

async function copySource(
  source: CleanSource,
  target: Segment,
  written: WrittenSegment,
  steps: CleanSteps,
): Promise<void> {
  const endPositionBytes = source.segment.sizeBytes;
  const file = await steps.openForReading(source.segment.logPath);
  try {
    let positionBytes = 0;
    while (positionBytes < endPositionBytes) {
      const chunkStart = positionBytes;
      const toWrite: BatchToWrite[] = [];
      const stop = await scanBatches(
        file,
        positionBytes,
        endPositionBytes,
        {
          withBody: true,
          verifyCrc: false,
          chunkBytes: CLEAN_CHUNK_BYTES,
        },
        (batch: ScannedBatch) => {
          const outcome = steps.clean(batch.body!, batch.header, source.retainDeletes);
          written.keptRecords += outcome.keptRecords;
          written.removedRecords += outcome.removedRecords;
          if (outcome.bytes !== undefined) toWrite.push(toBatchToWrite(outcome.bytes));
          positionBytes = batch.positionBytes + batch.sizeBytes;
          return positionBytes - chunkStart < CLEAN_CHUNK_BYTES;
        },
      );
      if (stop.kind !== 'end') {
        // A closed segment was checked when it was written or recovered; damage now is not ours to cut.
        throw new Error(
          `${source.segment.logPath} is unreadable at byte ${stop.positionBytes}: ${stop.reason}`,
        );
      }
      if (positionBytes === chunkStart) break;
      await target.append(toWrite, steps.nowMs());
      written.readBytes += positionBytes - chunkStart;
      for (const batch of toWrite) written.writtenBytes += batch.bytes.length;
      await steps.afterChunk(positionBytes - chunkStart);
    }
  } finally {
    await file.close();
  }
}

function toBatchToWrite(bytes: Buffer): BatchToWrite {
  const header = readBatchHeader(bytes, 0);
  if (!header.ok) throw header.error;
  const baseOffset = Number(header.value.baseOffset);
  return {
    bytes,
    baseOffset,
    lastOffset: baseOffset + header.value.lastOffsetDelta,
    maxTimestampMs: header.value.maxTimestampMs,
  };
}
