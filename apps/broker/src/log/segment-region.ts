import type { DeferredBytes } from '@weir/protocol';
import { readFully } from './batch-scan';
import type { FileLease } from './file-handle-cache';

/**
 * Whole stored batches of one segment, not read yet: a Fetch answer's record set that is read from
 * the segment file piece by piece as the client's socket drains (the connection does that), so a
 * slow consumer holds an open file and a position instead of the bytes it asked for. The region
 * keeps its file open until `release`, so retention renaming or deleting the segment meanwhile
 * does not take the bytes away; nothing below the high watermark is ever rewritten in place.
 */
export class SegmentRegion implements DeferredBytes {
  readonly deferred = true;
  #released = false;

  constructor(
    private readonly lease: FileLease,
    /** Where the region starts in the segment file. */
    readonly positionBytes: number,
    readonly length: number,
    /** The base offset of the first batch in the region. */
    readonly baseOffset: number,
    /** The last offset of the last batch in the region. */
    readonly lastOffset: number,
  ) {}

  /**
   * The records in the region by their offsets. Offsets are dense across batches in a log that is
   * never compacted (docs/architecture.md, storage), so the span is the count.
   */
  get recordCount(): number {
    return this.lastOffset - this.baseOffset + 1;
  }

  async read(fromByte: number, maxBytes: number, into?: Uint8Array): Promise<Uint8Array> {
    if (this.#released) throw new Error('a released segment region was read');
    const byteCount = Math.max(0, Math.min(maxBytes, this.length - fromByte));
    if (into !== undefined && into.length < byteCount)
      throw new Error(`a region read of ${byteCount} bytes was given a ${into.length}-byte buffer`);
    const buffer =
      into === undefined
        ? Buffer.allocUnsafe(byteCount)
        : Buffer.from(into.buffer, into.byteOffset, byteCount);
    const bytesRead = await readFully(this.lease.file, buffer, this.positionBytes + fromByte);
    return buffer.subarray(0, bytesRead);
  }

  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.lease.release();
  }
}

/** What a read returns: bytes read now, or a region to be read as it is written. */
export type StoredRecords = Buffer | SegmentRegion;

/** Gives up what `records` holds (a region's open file); bytes need nothing. */
export function releaseStoredRecords(records: StoredRecords): void {
  if (records instanceof SegmentRegion) records.release();
}
