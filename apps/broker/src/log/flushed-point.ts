import { join } from 'node:path';
import { crc32c } from '@weir/protocol';
import type { FileHandleCache } from './file-handle-cache';
import type { StorageIo } from './storage';

/**
 * Where a partition's durable data ends: every offset below `offset` was fdatasync'd, and it lies
 * below byte `positionBytes` of the segment whose base offset is `segmentBaseOffset`. The point is
 * written beside the fdatasync of the data it covers, so on disk it may run ahead of that data if
 * the machine lost power mid-round; see {@link RecordedFlushedPoint.confirmedOffset}.
 */
export interface FlushedPoint {
  offset: number;
  segmentBaseOffset: number;
  positionBytes: number;
}

/** A flushed point as recorded. */
export interface RecordedFlushedPoint {
  point: FlushedPoint;
  /**
   * Below this the data was on disk before the point was written (the previous round's point):
   * damage there is damage of acknowledged data, whatever it looks like.
   */
  confirmedOffset: number;
}

/** The file in each partition directory that holds its {@link FlushedPoint}. */
export const FLUSHED_POINT_FILE = 'flushed-point';

/**
 * The file is two 512-byte slots (one disk sector each), written in turn, each with a sequence
 * number and a CRC-32C. A write that tears can only damage the slot being written, so the other
 * still holds the point before it: the file as a whole cannot tear. The file keeps its size after
 * the first write, so each (O_DSYNC) write puts one data block on disk and no metadata.
 *
 *   0   uint32  magic "WFP1"
 *   4   int64   sequence (the higher valid slot wins)
 *   12  int64   offset
 *   20  int64   segment base offset
 *   28  int64   position in that segment, bytes
 *   36  int64   confirmed offset
 *   44  uint32  CRC-32C of bytes 0..43
 */
const SLOT_BYTES = 512;
const SLOT_COUNT = 2;
const MAGIC = 0x57465031;
const RECORD_BYTES = 48;
const CRC_AT = 44;

export function flushedPointPath(directory: string): string {
  return join(directory, FLUSHED_POINT_FILE);
}

function encodeSlot({ point, confirmedOffset }: RecordedFlushedPoint, sequence: number): Buffer {
  const slot = Buffer.alloc(SLOT_BYTES);
  slot.writeUInt32BE(MAGIC, 0);
  slot.writeBigInt64BE(BigInt(sequence), 4);
  slot.writeBigInt64BE(BigInt(point.offset), 12);
  slot.writeBigInt64BE(BigInt(point.segmentBaseOffset), 20);
  slot.writeBigInt64BE(BigInt(point.positionBytes), 28);
  slot.writeBigInt64BE(BigInt(confirmedOffset), 36);
  slot.writeUInt32BE(crc32c(slot.subarray(0, CRC_AT)), CRC_AT);
  return slot;
}

function decodeSlot(bytes: Buffer): (RecordedFlushedPoint & { sequence: number }) | undefined {
  if (bytes.length < RECORD_BYTES || bytes.readUInt32BE(0) !== MAGIC) return undefined;
  if (crc32c(bytes.subarray(0, CRC_AT)) !== bytes.readUInt32BE(CRC_AT)) return undefined;
  const numbers = [4, 12, 20, 28, 36].map((at) => Number(bytes.readBigInt64BE(at)));
  if (numbers.some((value) => !Number.isSafeInteger(value) || value < 0)) return undefined;
  const [sequence, offset, segmentBaseOffset, positionBytes, confirmedOffset] = numbers as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (confirmedOffset > offset) return undefined;
  return { point: { offset, segmentBaseOffset, positionBytes }, confirmedOffset, sequence };
}

/** What reading a partition's flushed-point file found. */
export type FlushedPointRead =
  | { kind: 'missing' }
  /** Neither slot is valid: the file says nothing, and the caller falls back to the checkpoint. */
  | { kind: 'damaged' }
  | ({ kind: 'found'; sequence: number } & RecordedFlushedPoint);

export async function readFlushedPoint(io: StorageIo, directory: string): Promise<FlushedPointRead> {
  let bytes: Buffer;
  try {
    bytes = await io.readWholeFile(flushedPointPath(directory));
  } catch (error) {
    if ((error as { isNotFound?: boolean }).isNotFound) return { kind: 'missing' };
    throw error;
  }
  let best: (RecordedFlushedPoint & { sequence: number }) | undefined;
  for (let slot = 0; slot < SLOT_COUNT; slot++) {
    const decoded = decodeSlot(bytes.subarray(slot * SLOT_BYTES, (slot + 1) * SLOT_BYTES));
    if (decoded && (best === undefined || decoded.sequence > best.sequence)) best = decoded;
  }
  return best ? { kind: 'found', ...best } : { kind: 'damaged' };
}

/**
 * Writes a partition's flushed point in each fdatasync round (docs/architecture.md §4), so a
 * restart knows exactly which data was acknowledged as durable. Writes are serialized.
 */
export class FlushedPointFile {
  readonly path: string;
  #sequence: number;
  #created: boolean;
  #last: Promise<void> = Promise.resolve();

  constructor(
    private readonly handles: FileHandleCache,
    private readonly io: StorageIo,
    private readonly directory: string,
    /** What the file held at open, if it held anything valid. */
    found: { sequence: number } | undefined,
    exists: boolean,
  ) {
    this.path = flushedPointPath(directory);
    this.#sequence = found?.sequence ?? 0;
    this.#created = exists;
  }

  /** Records `point` durably; resolves once it is on disk. */
  write(point: RecordedFlushedPoint): Promise<void> {
    const next = this.#last.then(() => this.#write(point));
    // A failed write fails its caller (the partition goes offline); the chain itself goes on.
    this.#last = next.catch(() => undefined);
    return next;
  }

  async #write(point: RecordedFlushedPoint): Promise<void> {
    this.#sequence++;
    const slot = this.#sequence % SLOT_COUNT;
    const bytes = encodeSlot(point, this.#sequence);
    if (!this.#created) {
      // The first write gives the file its final size (both slots), so later fdatasyncs never
      // change metadata; the directory entry is made durable once.
      const other = encodeSlot(point, this.#sequence - 1);
      const slots = slot === 0 ? [bytes, other] : [other, bytes];
      await this.handles.use(this.path, (file) => file.writev(slots, 0), 'create-dsync');
      await this.io.syncDirectory(this.directory);
      this.#created = true;
      return;
    }
    // Opened with O_DSYNC: the write returns once it is on disk, in one call of the thread pool
    // the data's fdatasyncs also wait for, rather than two.
    await this.handles.use(this.path, (file) => file.writev([bytes], slot * SLOT_BYTES), 'create-dsync');
  }

  async close(): Promise<void> {
    await this.#last;
    await this.handles.close(this.path);
  }
}
