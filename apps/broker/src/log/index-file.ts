import type { StorageIo } from './storage';

/**
 * The entries of every index that has none, shared: most segments of most partitions never get an
 * entry, and each empty Buffer of its own cost two objects. Never written to: an append first
 * grows `entries` into a buffer of its own (`slotForAppend`).
 */
const NO_ENTRIES = Buffer.alloc(0);

/**
 * The mechanics shared by the offset and time indexes: fixed-width entries kept in memory, and a
 * file that is preallocated to its maximum size when the segment becomes active and written out,
 * trimmed to its entries, when the segment rolls or the log closes.
 *
 * An index is never the source of truth. Recovery rescans every segment from the one holding the
 * recovery point and rebuilds their indexes, so the active segment's index never needs to reach the
 * disk before it rolls, and no file descriptor is held for it. A lookup never touches the disk; a
 * closed segment's index is loaded on its first lookup and can be dropped again with `unload`.
 */
export abstract class IndexFile {
  protected entries: Buffer;
  protected entryCount = 0;
  #loaded = false;

  protected constructor(
    protected readonly io: StorageIo,
    readonly path: string,
    readonly baseOffset: number,
    protected readonly entryBytes: number,
    readonly maxIndexBytes: number,
  ) {
    this.entries = NO_ENTRIES;
  }

  get count(): number {
    return this.entryCount;
  }

  /** How many more entries fit in the index file's maximum size. */
  get entriesLeft(): number {
    return Math.floor(this.maxIndexBytes / this.entryBytes) - this.entryCount;
  }

  get isLoaded(): boolean {
    return this.#loaded;
  }

  /** Starts an empty index for a new active segment and preallocates its file. */
  async create(): Promise<void> {
    this.reset();
    const file = await this.io.openFile(this.path, 'create');
    try {
      // Reserving the file's full size up front mirrors Kafka's preallocated, memory-mapped indexes.
      await file.truncate(this.maxIndexBytes - (this.maxIndexBytes % this.entryBytes));
    } finally {
      await file.close();
    }
  }

  /**
   * Reads the index from disk. Returns false when the file is missing, has a torn size, or its
   * entries fail the sanity check; the caller then rebuilds it from the log.
   */
  async load(segmentSizeBytes: number): Promise<boolean> {
    let data: Buffer;
    try {
      data = await this.io.readWholeFile(this.path);
    } catch {
      return false;
    }
    if (data.length % this.entryBytes !== 0) return false;
    this.entries = data;
    this.entryCount = data.length / this.entryBytes;
    if (!this.isSane(segmentSizeBytes)) {
      this.reset();
      return false;
    }
    this.#loaded = true;
    return true;
  }

  /** Forgets every entry (for a new segment or before a rebuild). */
  reset(): void {
    // Grown on the first append; most segments of most partitions never get an entry.
    this.entries = NO_ENTRIES;
    this.entryCount = 0;
    this.#loaded = true;
  }

  /** Drops the in-memory entries of a closed segment; the next lookup loads them again. */
  unload(): void {
    this.entries = NO_ENTRIES;
    this.entryCount = 0;
    this.#loaded = false;
  }

  /**
   * Writes every entry and cuts the file to exactly their size, durably (on roll, on close, and
   * after a rebuild), so a closed segment's index can be trusted after a restart.
   */
  async writeTrimmed(): Promise<void> {
    if (!this.#loaded) return;
    const file = await this.io.openFile(this.path, 'create');
    try {
      const sizeBytes = this.entryCount * this.entryBytes;
      await file.truncate(sizeBytes);
      if (sizeBytes > 0) await file.writev([this.entries.subarray(0, sizeBytes)], 0);
      await file.datasync();
    } finally {
      await file.close();
    }
  }

  async delete(): Promise<void> {
    try {
      await this.io.unlink(this.path);
    } catch {
      // A missing index is fine: it is rebuilt or was never written.
    }
  }

  /** Makes room for one more entry and returns the byte offset to write it at. */
  protected slotForAppend(): number {
    const at = this.entryCount * this.entryBytes;
    if (at + this.entryBytes > this.entries.length) {
      const grown = Buffer.alloc(
        Math.min(this.maxIndexBytes, Math.max(this.entries.length * 2, 64 * this.entryBytes)),
      );
      this.entries.copy(grown, 0, 0, at);
      this.entries = grown;
    }
    this.entryCount++;
    return at;
  }

  /** Removes entries from `keepCount` on. */
  protected truncateEntries(keepCount: number): void {
    this.entryCount = keepCount;
  }

  /**
   * The largest entry index whose key is ≤ `target`, or -1 when every key is larger. Keys are
   * strictly increasing, which the sanity check guarantees for loaded files.
   */
  protected floorIndex(target: number, keyAt: (index: number) => number): number {
    let low = 0;
    let high = this.entryCount - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (keyAt(middle) <= target) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return found;
  }

  /** Checks the loaded entries for consistency with each other and with the segment's size. */
  protected abstract isSane(segmentSizeBytes: number): boolean;
}
