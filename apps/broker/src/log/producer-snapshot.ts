import { join } from 'node:path';
import { crc32c } from '@weir/protocol';
import { offsetFileName, PRODUCER_SNAPSHOT_SUFFIX, parseOffsetFileName } from './log-files';
import {
  describeInvalidEntry,
  type ProducerBatchMetadata,
  type ProducerEntry,
  type ProducerStateManager,
  RETAINED_BATCHES_PER_PRODUCER,
} from './producer-state';
import { StorageError, type StorageIo } from './storage';

/**
 * Producer state snapshots: `<20-digit mapEndOffset>.snapshot` in the partition directory holds
 * the state of every producer as of that offset, so a restart replays only the batch headers
 * after the newest snapshot instead of the whole log.
 *
 * Format, big-endian, version 1:
 *
 *   version                        int16   1
 *   crc                            uint32  CRC-32C of every byte after this field
 *   entryCount                     int32
 *   entryCount times:
 *     producerId                   int64
 *     producerEpoch                int16   -1 when none was seen
 *     lastTimestampMs              int64
 *     coordinatorEpoch             int32   -1 when no marker was seen
 *     currentTransactionFirstOffset int64  -1 when no transaction is open
 *     batchCount                   int8    0..5
 *     batchCount times, oldest first:
 *       firstSequence              int32
 *       lastSequence               int32
 *       firstOffset                int64
 *       lastOffset                 int64
 *       timestampMs                int64
 *
 * The offset is in the file name only, as in Kafka. The version field sits outside the checksum,
 * so a damaged version is caught as an unknown version instead.
 */

/** The snapshot format version this code writes and reads. */
export const PRODUCER_SNAPSHOT_VERSION = 1;

const HEADER_BYTES = 10;
const CHECKSUMMED_FROM = 6;
const ENTRY_FIXED_BYTES = 8 + 2 + 8 + 4 + 8 + 1;
const BATCH_BYTES = 4 + 4 + 8 + 8 + 8;

/** The result of decoding a snapshot file's bytes. */
export type SnapshotDecodeResult =
  | { readonly ok: true; readonly entries: ProducerEntry[] }
  | { readonly ok: false; readonly reason: string };

/** A snapshot file that could not be used and was deleted. */
export interface CorruptSnapshot {
  readonly offset: number;
  readonly reason: string;
}

/** What {@link loadLatestSnapshot} did. */
export interface SnapshotLoadResult {
  /** The offset of the snapshot loaded, or undefined: rebuild the state from the log start. */
  readonly loadedOffset: number | undefined;
  /** Snapshots at or below the maximum offset that were corrupt, newest first; all were deleted. */
  readonly corrupt: readonly CorruptSnapshot[];
  /** Snapshots above the maximum offset, which describe a truncated tail; all were deleted. */
  readonly deletedAboveMaxOffset: readonly number[];
}

/** Encodes entries in the format above. */
export function encodeProducerSnapshot(entries: readonly ProducerEntry[]): Buffer {
  let sizeBytes = HEADER_BYTES;
  for (const entry of entries) sizeBytes += ENTRY_FIXED_BYTES + entry.batches.length * BATCH_BYTES;
  const bytes = Buffer.alloc(sizeBytes);
  bytes.writeInt16BE(PRODUCER_SNAPSHOT_VERSION, 0);
  bytes.writeInt32BE(entries.length, 6);
  let position = HEADER_BYTES;
  for (const entry of entries) {
    position = bytes.writeBigInt64BE(BigInt(entry.producerId), position);
    position = bytes.writeInt16BE(entry.producerEpoch, position);
    position = bytes.writeBigInt64BE(BigInt(entry.lastTimestampMs), position);
    position = bytes.writeInt32BE(entry.coordinatorEpoch, position);
    position = bytes.writeBigInt64BE(BigInt(entry.currentTransactionFirstOffset), position);
    position = bytes.writeInt8(entry.batches.length, position);
    for (const batch of entry.batches) {
      position = bytes.writeInt32BE(batch.firstSequence, position);
      position = bytes.writeInt32BE(batch.lastSequence, position);
      position = bytes.writeBigInt64BE(BigInt(batch.firstOffset), position);
      position = bytes.writeBigInt64BE(BigInt(batch.lastOffset), position);
      position = bytes.writeBigInt64BE(BigInt(batch.timestampMs), position);
    }
  }
  bytes.writeUInt32BE(crc32c(bytes.subarray(CHECKSUMMED_FROM)), 2);
  return bytes;
}

/**
 * Decodes a snapshot taken at `mapEndOffset`. Anything wrong (length, version, checksum, or values
 * that cannot describe the log below `mapEndOffset`) makes it unusable, with the reason.
 */
export function decodeProducerSnapshot(bytes: Buffer, mapEndOffset: number): SnapshotDecodeResult {
  if (bytes.length < HEADER_BYTES) return { ok: false, reason: `${bytes.length} bytes is too short` };
  const version = bytes.readInt16BE(0);
  if (version !== PRODUCER_SNAPSHOT_VERSION) return { ok: false, reason: `unknown version ${version}` };
  const storedCrc = bytes.readUInt32BE(2);
  const actualCrc = crc32c(bytes.subarray(CHECKSUMMED_FROM));
  if (storedCrc !== actualCrc) return { ok: false, reason: 'checksum mismatch' };
  const entryCount = bytes.readInt32BE(6);
  if (entryCount < 0) return { ok: false, reason: `negative entry count ${entryCount}` };

  const entries: ProducerEntry[] = [];
  const seen = new Set<number>();
  let position = HEADER_BYTES;
  const readInt64 = (): number => {
    const value = Number(bytes.readBigInt64BE(position));
    position += 8;
    return value;
  };
  for (let index = 0; index < entryCount; index++) {
    if (position + ENTRY_FIXED_BYTES > bytes.length)
      return { ok: false, reason: `entry ${index} is cut off` };
    const producerId = readInt64();
    const producerEpoch = bytes.readInt16BE(position);
    position += 2;
    const lastTimestampMs = readInt64();
    const coordinatorEpoch = bytes.readInt32BE(position);
    position += 4;
    const currentTransactionFirstOffset = readInt64();
    const batchCount = bytes.readInt8(position);
    position += 1;
    if (batchCount < 0 || batchCount > RETAINED_BATCHES_PER_PRODUCER) {
      return { ok: false, reason: `entry ${index} has ${batchCount} batches` };
    }
    if (position + batchCount * BATCH_BYTES > bytes.length) {
      return { ok: false, reason: `the batches of entry ${index} are cut off` };
    }
    const batches: ProducerBatchMetadata[] = [];
    for (let batchIndex = 0; batchIndex < batchCount; batchIndex++) {
      const firstSequence = bytes.readInt32BE(position);
      const lastSequence = bytes.readInt32BE(position + 4);
      position += 8;
      const firstOffset = readInt64();
      const lastOffset = readInt64();
      const timestampMs = readInt64();
      batches.push({ firstSequence, lastSequence, firstOffset, lastOffset, timestampMs });
    }
    const entry: ProducerEntry = {
      producerId,
      producerEpoch,
      batches,
      lastTimestampMs,
      coordinatorEpoch,
      currentTransactionFirstOffset,
    };
    const problem = describeInvalidEntry(entry, mapEndOffset);
    if (problem !== undefined) return { ok: false, reason: problem };
    if (seen.has(producerId)) return { ok: false, reason: `producer ${producerId} appears twice` };
    seen.add(producerId);
    entries.push(entry);
  }
  if (position !== bytes.length) return { ok: false, reason: `${bytes.length - position} trailing bytes` };
  return { ok: true, entries };
}

/** The offsets of the snapshot files in `directory`, ascending; none when it does not exist. */
export async function listSnapshotOffsets(io: StorageIo, directory: string): Promise<number[]> {
  let names: string[];
  try {
    names = await io.listDirectory(directory);
  } catch (error) {
    if (error instanceof StorageError && error.isNotFound) return [];
    throw error;
  }
  const offsets: number[] = [];
  for (const name of names) {
    const offset = parseOffsetFileName(name, PRODUCER_SNAPSHOT_SUFFIX);
    if (offset !== undefined) offsets.push(offset);
  }
  return offsets.sort((left, right) => left - right);
}

/** Writes the state as `<mapEndOffset>.snapshot` atomically and returns that offset. */
export async function writeSnapshot(
  io: StorageIo,
  directory: string,
  state: ProducerStateManager,
): Promise<number> {
  const { mapEndOffset, entries } = state.snapshot();
  await io.writeFileAtomic(snapshotPath(directory, mapEndOffset), encodeProducerSnapshot(entries));
  return mapEndOffset;
}

/**
 * Loads into `state` the newest snapshot at or below `maxOffset` (the log end after recovery or
 * truncation), or at or below `atOrBelow` when given (a replay that must start early enough to
 * rebuild the transaction indexes). Snapshots above `maxOffset` describe offsets no longer in the
 * log and are deleted; corrupt ones are deleted and the next older one is tried. When none is
 * usable the state is cleared and the caller rebuilds it from the log start. I/O failures other
 * than a vanished file propagate as {@link StorageError}.
 */
export async function loadLatestSnapshot(
  io: StorageIo,
  directory: string,
  maxOffset: number,
  state: ProducerStateManager,
  atOrBelow = maxOffset,
): Promise<SnapshotLoadResult> {
  const offsets = await listSnapshotOffsets(io, directory);
  const deletedAboveMaxOffset: number[] = [];
  for (const offset of offsets.filter((candidate) => candidate > maxOffset)) {
    await unlinkIfPresent(io, snapshotPath(directory, offset));
    deletedAboveMaxOffset.push(offset);
  }
  const corrupt: CorruptSnapshot[] = [];
  const limit = Math.min(maxOffset, atOrBelow);
  const candidates = offsets.filter((candidate) => candidate <= limit).reverse();
  for (const offset of candidates) {
    const path = snapshotPath(directory, offset);
    let bytes: Buffer;
    try {
      bytes = await io.readWholeFile(path);
    } catch (error) {
      if (error instanceof StorageError && error.isNotFound) continue;
      throw error;
    }
    const decoded = decodeProducerSnapshot(bytes, offset);
    if (decoded.ok) {
      state.loadSnapshot({ mapEndOffset: offset, entries: decoded.entries });
      return { loadedOffset: offset, corrupt, deletedAboveMaxOffset };
    }
    await unlinkIfPresent(io, path);
    corrupt.push({ offset, reason: decoded.reason });
  }
  state.clear();
  return { loadedOffset: undefined, corrupt, deletedAboveMaxOffset };
}

/**
 * Deletes the snapshots below `offset` except the newest of them, which stays so a later
 * truncation down to it can still start from a snapshot. Returns the deleted offsets.
 */
export async function deleteSnapshotsBelow(
  io: StorageIo,
  directory: string,
  offset: number,
): Promise<number[]> {
  const below = (await listSnapshotOffsets(io, directory)).filter((candidate) => candidate < offset);
  const deleted = below.slice(0, -1);
  for (const candidate of deleted) await unlinkIfPresent(io, snapshotPath(directory, candidate));
  return deleted;
}

function snapshotPath(directory: string, offset: number): string {
  return join(directory, offsetFileName(offset, PRODUCER_SNAPSHOT_SUFFIX));
}

async function unlinkIfPresent(io: StorageIo, path: string): Promise<void> {
  try {
    await io.unlink(path);
  } catch (error) {
    if (!(error instanceof StorageError && error.isNotFound)) throw error;
  }
}
