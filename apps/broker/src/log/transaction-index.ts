import type { FileHandleCache } from './file-handle-cache';
import type { StorageIo } from './storage';

/**
 * The aborted-transaction index of one segment, Kafka's `.txnindex`. Each time an ABORT marker is
 * appended to the segment, the transaction it closed gets one entry, so a read_committed fetch can
 * tell the client which producers' records to drop without reading the log. File format, entries
 * in marker order, all big-endian, 34 bytes each (Kafka's AbortedTxn layout, version 0):
 *
 *   int16 version            0
 *   int64 producerId
 *   int64 firstOffset        the transaction's first offset in this partition (possibly in an
 *                            earlier segment)
 *   int64 lastOffset         the offset of the ABORT marker, which lies in this segment
 *   int64 lastStableOffset   the partition's LSO right after the abort: the first offset of the
 *                            earliest other open transaction, else lastOffset + 1
 *
 * Entries are appended to the file as markers are written and fdatasync'd with the segment's log
 * (before the marker counts as durable). The file is created empty with its segment, so a missing
 * file means it was lost and recovery rebuilds it from the log; a torn or inconsistent one is
 * rebuilt too. Like the log, it is cut by truncation and renamed or deleted with its segment.
 */

/** One aborted transaction, as the index stores it. */
export interface AbortedTransaction {
  readonly producerId: number;
  readonly firstOffset: number;
  /** The ABORT marker's offset. */
  readonly lastOffset: number;
  readonly lastStableOffset: number;
}

/** What a search of one segment's index found. */
export interface AbortedSearch {
  /** Entries overlapping the searched range, in marker order. */
  readonly aborted: AbortedTransaction[];
  /**
   * True when an entry's lastStableOffset reached the upper bound: no later marker (in this or a
   * later segment) can close a transaction that started below the bound, so the search is over.
   */
  readonly complete: boolean;
}

export const TXN_INDEX_ENTRY_BYTES = 34;
const ENTRY_VERSION = 0;

function isOffset(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

export class TransactionIndex {
  #entries: AbortedTransaction[] = [];
  /** How many entries are in the file; those after it are written by `writePending`. */
  #writtenCount = 0;
  /** Written since the last fdatasync. */
  #dirty = false;
  #loaded = false;

  constructor(
    private readonly handles: FileHandleCache,
    private readonly io: StorageIo,
    readonly path: string,
    readonly baseOffset: number,
  ) {}

  get entries(): readonly AbortedTransaction[] {
    return this.#entries;
  }

  get isLoaded(): boolean {
    return this.#loaded;
  }

  /** Starts an empty index for a new segment, creating an empty file. */
  async create(): Promise<void> {
    this.reset();
    await this.handles.use(this.path, (file) => file.truncate(0));
  }

  /** Forgets every entry in memory; the file is cut to match at the next `truncateTo`. */
  reset(): void {
    this.#entries = [];
    this.#writtenCount = 0;
    this.#loaded = true;
  }

  /**
   * Reads the file. Returns false when it is missing, torn (not a whole number of entries) or its
   * entries make no sense for a segment whose offsets lie in [baseOffset, `endOffset`); the caller
   * then resets the index and rebuilds it from the log.
   */
  async load(endOffset: number): Promise<boolean> {
    let data: Buffer;
    try {
      data = await this.io.readWholeFile(this.path);
    } catch {
      return false;
    }
    if (data.length % TXN_INDEX_ENTRY_BYTES !== 0) return false;
    const entries: AbortedTransaction[] = [];
    for (let at = 0; at < data.length; at += TXN_INDEX_ENTRY_BYTES) {
      if (data.readInt16BE(at) !== ENTRY_VERSION) return false;
      const entry: AbortedTransaction = {
        producerId: Number(data.readBigInt64BE(at + 2)),
        firstOffset: Number(data.readBigInt64BE(at + 10)),
        lastOffset: Number(data.readBigInt64BE(at + 18)),
        lastStableOffset: Number(data.readBigInt64BE(at + 26)),
      };
      if (this.#problemWith(entry, entries.at(-1)) !== undefined || entry.lastOffset >= endOffset)
        return false;
      entries.push(entry);
    }
    this.#entries = entries;
    this.#writtenCount = entries.length;
    this.#loaded = true;
    return true;
  }

  /**
   * Adds the entry of an ABORT marker just appended to this segment (in memory; `writePending`
   * puts it in the file). Markers come in offset order, so entries do too.
   */
  append(entry: AbortedTransaction): void {
    const problem = this.#problemWith(entry, this.#entries.at(-1));
    if (problem !== undefined) throw new Error(`transaction index ${this.path}: ${problem}`);
    this.#entries.push({ ...entry });
  }

  /** Writes the entries appended since the last call at the end of the file. */
  async writePending(): Promise<void> {
    if (this.#writtenCount === this.#entries.length) return;
    const pending = this.#entries.slice(this.#writtenCount);
    const bytes = Buffer.alloc(pending.length * TXN_INDEX_ENTRY_BYTES);
    for (const [index, entry] of pending.entries()) encodeEntry(entry, bytes, index * TXN_INDEX_ENTRY_BYTES);
    const position = this.#writtenCount * TXN_INDEX_ENTRY_BYTES;
    await this.handles.use(this.path, (file) => file.writev([bytes], position));
    this.#writtenCount = this.#entries.length;
    this.#dirty = true;
  }

  /** fdatasyncs the file when entries were written since the last call (with the segment's log). */
  async sync(): Promise<void> {
    if (!this.#dirty) return;
    this.#dirty = false;
    await this.handles.use(this.path, (file) => file.datasync());
  }

  /**
   * Drops the entries whose marker is at or above `offset` and cuts the file to the rest (a log
   * truncation, or recovery before it rebuilds them). Creates the file when it is missing.
   */
  async truncateTo(offset: number): Promise<void> {
    let keep = this.#entries.length;
    while (keep > 0 && this.#entries[keep - 1]!.lastOffset >= offset) keep--;
    this.#entries.length = keep;
    this.#writtenCount = Math.min(this.#writtenCount, keep);
    await this.handles.use(this.path, (file) => file.truncate(this.#writtenCount * TXN_INDEX_ENTRY_BYTES));
    this.#dirty = true;
  }

  /**
   * The aborted transactions that overlap [fetchOffset, upperBoundOffset): their marker is at or
   * after the fetch offset and their first offset below the bound (Kafka's collectAbortedTxns).
   */
  collect(fetchOffset: number, upperBoundOffset: number): AbortedSearch {
    const aborted: AbortedTransaction[] = [];
    for (const entry of this.#entries) {
      if (entry.lastOffset >= fetchOffset && entry.firstOffset < upperBoundOffset) aborted.push(entry);
      if (entry.lastStableOffset >= upperBoundOffset) return { aborted, complete: true };
    }
    return { aborted, complete: false };
  }

  /** Closes the cached handle (before the file is renamed or deleted). */
  async close(): Promise<void> {
    await this.handles.close(this.path);
  }

  async delete(): Promise<void> {
    await this.close();
    try {
      await this.io.unlink(this.path);
    } catch {
      // Already gone: nothing to delete.
    }
  }

  /** Why `entry` cannot follow `previous` in this segment's index, or undefined when it can. */
  #problemWith(entry: AbortedTransaction, previous: AbortedTransaction | undefined): string | undefined {
    const { producerId, firstOffset, lastOffset, lastStableOffset } = entry;
    if (!isOffset(producerId)) return `producer id ${producerId}`;
    if (!isOffset(firstOffset) || !isOffset(lastOffset) || firstOffset > lastOffset) {
      return `offsets ${firstOffset}..${lastOffset}`;
    }
    if (lastOffset < this.baseOffset) return `marker ${lastOffset} below the segment base ${this.baseOffset}`;
    // The LSO after an abort is the first offset of a transaction open at the marker, or just past it.
    if (!isOffset(lastStableOffset) || lastStableOffset > lastOffset + 1) {
      return `last stable offset ${lastStableOffset} for marker ${lastOffset}`;
    }
    if (previous !== undefined && lastOffset <= previous.lastOffset) {
      return `marker ${lastOffset} after ${previous.lastOffset}`;
    }
    return undefined;
  }
}

function encodeEntry(entry: AbortedTransaction, target: Buffer, at: number): void {
  target.writeInt16BE(ENTRY_VERSION, at);
  target.writeBigInt64BE(BigInt(entry.producerId), at + 2);
  target.writeBigInt64BE(BigInt(entry.firstOffset), at + 10);
  target.writeBigInt64BE(BigInt(entry.lastOffset), at + 18);
  target.writeBigInt64BE(BigInt(entry.lastStableOffset), at + 26);
}
