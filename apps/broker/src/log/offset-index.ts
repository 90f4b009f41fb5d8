import { IndexFile } from './index-file';
import type { StorageIo } from './storage';

/** Where an offset's batch search starts: the nearest indexed offset at or below it. */
export interface IndexPosition {
  offset: number;
  positionBytes: number;
}

const ENTRY_BYTES = 8;

/**
 * The sparse offset index of one segment. File format, one 8-byte entry per indexed batch:
 *
 *   int32 relativeOffset   offset of the batch's first record minus the segment's base offset
 *   int32 positionBytes    byte position of that batch in the .log file
 *
 * An entry is added every `index.interval.bytes` of log, so a lookup lands at most that many bytes
 * before the batch it looks for.
 */
export class OffsetIndex extends IndexFile {
  constructor(io: StorageIo, path: string, baseOffset: number, maxIndexBytes: number) {
    super(io, path, baseOffset, ENTRY_BYTES, maxIndexBytes);
  }

  /** The last indexed entry, or the segment start when the index is empty. */
  get lastEntry(): IndexPosition {
    if (this.entryCount === 0) return { offset: this.baseOffset, positionBytes: 0 };
    return this.#entryAt(this.entryCount - 1);
  }

  append(offset: number, positionBytes: number): void {
    const last = this.entryCount > 0 ? this.#entryAt(this.entryCount - 1) : undefined;
    if (last && (offset <= last.offset || positionBytes <= last.positionBytes)) {
      throw new Error(
        `offset index ${this.path}: entry ${offset}@${positionBytes} after ${last.offset}@${last.positionBytes}`,
      );
    }
    const at = this.slotForAppend();
    this.entries.writeInt32BE(offset - this.baseOffset, at);
    this.entries.writeInt32BE(positionBytes, at + 4);
  }

  /** The nearest indexed batch at or before `offset`; the segment start when there is none. */
  lookup(offset: number): IndexPosition {
    const relative = offset - this.baseOffset;
    const found = this.floorIndex(relative, (index) => this.entries.readInt32BE(index * ENTRY_BYTES));
    return found < 0 ? { offset: this.baseOffset, positionBytes: 0 } : this.#entryAt(found);
  }

  /**
   * The last indexed batch that starts at or before `maxPositionBytes` and whose base offset is at
   * most `maxOffset`; undefined when no entry qualifies. Both keys grow with the entry number, so
   * it is the earlier of the two floors.
   */
  floorWithin(maxPositionBytes: number, maxOffset: number): IndexPosition | undefined {
    const byPosition = this.floorIndex(maxPositionBytes, (index) =>
      this.entries.readInt32BE(index * ENTRY_BYTES + 4),
    );
    const byOffset = this.floorIndex(maxOffset - this.baseOffset, (index) =>
      this.entries.readInt32BE(index * ENTRY_BYTES),
    );
    const found = Math.min(byPosition, byOffset);
    return found < 0 ? undefined : this.#entryAt(found);
  }

  /** Drops entries for offsets at or above `offset`. */
  truncateTo(offset: number): void {
    const relative = offset - this.baseOffset;
    const keep = this.floorIndex(relative - 1, (index) => this.entries.readInt32BE(index * ENTRY_BYTES)) + 1;
    this.truncateEntries(keep);
  }

  protected isSane(segmentSizeBytes: number): boolean {
    let previousRelative = -1;
    let previousPosition = -1;
    for (let index = 0; index < this.entryCount; index++) {
      const relative = this.entries.readInt32BE(index * ENTRY_BYTES);
      const position = this.entries.readInt32BE(index * ENTRY_BYTES + 4);
      if (relative <= previousRelative || position <= previousPosition || position >= segmentSizeBytes)
        return false;
      previousRelative = relative;
      previousPosition = position;
    }
    return true;
  }

  #entryAt(index: number): IndexPosition {
    return {
      offset: this.baseOffset + this.entries.readInt32BE(index * ENTRY_BYTES),
      positionBytes: this.entries.readInt32BE(index * ENTRY_BYTES + 4),
    };
  }
}
