import { IndexFile } from './index-file';
import type { StorageIo } from './storage';

/** A time index entry: every record at or before `offset` has a timestamp ≤ `timestampMs`. */
export interface TimeIndexEntry {
  timestampMs: number;
  offset: number;
}

const ENTRY_BYTES = 12;

/**
 * The sparse time index of one segment. File format, one 12-byte entry each time a batch raises the
 * segment's maximum timestamp (at most one per `index.interval.bytes`):
 *
 *   int64 timestampMs      the largest record timestamp seen so far in the segment
 *   int32 relativeOffset   the first offset of the batch that carried it, minus the base offset
 *
 * Timestamps are strictly increasing, so a lookup by time is a binary search; the log then scans
 * batches (and records) from there to find the exact first record at or after the target time.
 */
export class TimeIndex extends IndexFile {
  constructor(io: StorageIo, path: string, baseOffset: number, maxIndexBytes: number) {
    super(io, path, baseOffset, ENTRY_BYTES, maxIndexBytes);
  }

  get lastEntry(): TimeIndexEntry | undefined {
    return this.entryCount === 0 ? undefined : this.#entryAt(this.entryCount - 1);
  }

  /** Adds an entry when `timestampMs` is larger than the last one; otherwise does nothing. */
  maybeAppend(timestampMs: number, offset: number): void {
    const last = this.lastEntry;
    if (last && timestampMs <= last.timestampMs) return;
    if (last && offset <= last.offset) {
      throw new Error(`time index ${this.path}: offset ${offset} after ${last.offset}`);
    }
    const at = this.slotForAppend();
    this.entries.writeBigInt64BE(BigInt(timestampMs), at);
    this.entries.writeInt32BE(offset - this.baseOffset, at + 8);
  }

  /**
   * The last entry whose timestamp is below `targetMs`: every record before its offset is older
   * than the target, so a scan for the first record at or after the target can start there.
   * Undefined means "scan from the segment start".
   */
  lookupBefore(targetMs: number): TimeIndexEntry | undefined {
    const found = this.floorIndex(targetMs - 1, (index) =>
      Number(this.entries.readBigInt64BE(index * ENTRY_BYTES)),
    );
    return found < 0 ? undefined : this.#entryAt(found);
  }

  /** Drops entries for offsets at or above `offset`. */
  truncateTo(offset: number): void {
    let keep = this.entryCount;
    while (keep > 0 && this.#entryAt(keep - 1).offset >= offset) keep--;
    this.truncateEntries(keep);
  }

  protected isSane(): boolean {
    let previous: TimeIndexEntry | undefined;
    for (let index = 0; index < this.entryCount; index++) {
      const entry = this.#entryAt(index);
      if (entry.offset < this.baseOffset) return false;
      if (previous && (entry.timestampMs <= previous.timestampMs || entry.offset <= previous.offset))
        return false;
      previous = entry;
    }
    return true;
  }

  #entryAt(index: number): TimeIndexEntry {
    return {
      timestampMs: Number(this.entries.readBigInt64BE(index * ENTRY_BYTES)),
      offset: this.baseOffset + this.entries.readInt32BE(index * ENTRY_BYTES + 8),
    };
  }
}
