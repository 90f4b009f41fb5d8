import { join } from 'node:path';
import {
  DELETED_SUFFIX,
  LOG_SUFFIX,
  OFFSET_INDEX_SUFFIX,
  offsetFileName,
  TIME_INDEX_SUFFIX,
  TXN_INDEX_SUFFIX,
} from '../log-files';
import type { Segment } from '../segment';
import { StorageError, type StorageIo } from '../storage';

/**
 * The files of a clean, and the rule that makes a crash at any point safe (issue #19 item 3;
 * docs/architecture.md §4, compaction). A clean writes the rewritten segment whole inside the
 * partition's `cleaning/` directory, under the name of the first segment it replaces, and syncs it.
 * The swap then goes in three steps:
 *
 * 1. the swap manifest (`cleaning-swap.json`: the new segment's base offset and the base offsets of
 *    the segments it replaces) is written atomically — this is the commit point;
 * 2. the replaced segments' files are renamed `.deleted` (unlinked later, so reads holding them
 *    open finish);
 * 3. the new segment's files are moved out of `cleaning/` into the partition directory, and the
 *    manifest is removed.
 *
 * At the next start, before the segments are listed: without a manifest, whatever is in `cleaning/`
 * is an unfinished clean and is deleted (the old segments are untouched). With one, the swap is
 * finished: the replaced segments' files still there are deleted (of the first one's, only those
 * whose new namesake is still in `cleaning/`, since the new segment takes its names) and the new
 * files are moved in.
 * Kafka's `.cleaned` and `.swap` suffixes play the same roles.
 */
export const CLEANING_DIRECTORY = 'cleaning';
export const SWAP_MANIFEST_FILE = 'cleaning-swap.json';

const SEGMENT_SUFFIXES = [OFFSET_INDEX_SUFFIX, TIME_INDEX_SUFFIX, TXN_INDEX_SUFFIX, LOG_SUFFIX] as const;

/** What the manifest says: which segment replaces which. */
export interface SwapManifest {
  readonly baseOffset: number;
  readonly replacedBaseOffsets: readonly number[];
}

/** What the start found of an interrupted clean. */
export type InterruptedClean = 'none' | 'discarded' | 'completed';

export function cleaningDirectoryOf(partitionDirectory: string): string {
  return join(partitionDirectory, CLEANING_DIRECTORY);
}

/** Empties (or creates) the partition's cleaning directory for a new clean. */
export async function prepareCleaningDirectory(io: StorageIo, partitionDirectory: string): Promise<string> {
  const directory = cleaningDirectoryOf(partitionDirectory);
  await io.removeTree(directory);
  await io.makeDirectory(directory);
  return directory;
}

/** Removes the cleaning directory of a clean that was given up. */
export async function discardCleaningDirectory(io: StorageIo, partitionDirectory: string): Promise<void> {
  await io.removeTree(cleaningDirectoryOf(partitionDirectory));
}

/**
 * Steps 1 to 3 above, for a new segment already complete and synced in the cleaning directory.
 * `replaced` are the live segments it takes the place of, oldest first; the first has its base
 * offset. Their handles are closed and their files renamed `.deleted`.
 */
export async function swapInCleanedSegment(
  io: StorageIo,
  partitionDirectory: string,
  replaced: readonly Segment[],
): Promise<void> {
  const baseOffset = replaced[0]!.baseOffset;
  const manifest: SwapManifest = {
    baseOffset,
    replacedBaseOffsets: replaced.map((segment) => segment.baseOffset),
  };
  const manifestPath = join(partitionDirectory, SWAP_MANIFEST_FILE);
  await io.writeFileAtomic(manifestPath, Buffer.from(JSON.stringify(manifest)));
  for (const segment of replaced) await segment.renameFilesWithSuffix(DELETED_SUFFIX);
  await moveCleanedFiles(io, partitionDirectory, baseOffset);
  await io.syncDirectory(partitionDirectory);
  await io.unlink(manifestPath);
  await discardCleaningDirectory(io, partitionDirectory);
}

/**
 * Finishes or discards a clean a crash interrupted (the rule above). Runs before the partition's
 * segments are listed, so what it leaves is a consistent set of segments.
 */
export async function recoverInterruptedClean(
  io: StorageIo,
  partitionDirectory: string,
): Promise<InterruptedClean> {
  const manifestPath = join(partitionDirectory, SWAP_MANIFEST_FILE);
  const manifest = await readManifest(io, manifestPath);
  const cleaning = cleaningDirectoryOf(partitionDirectory);
  if (manifest === undefined) {
    const existed = (await listOrEmpty(io, cleaning)) !== undefined;
    await io.removeTree(cleaning);
    return existed ? 'discarded' : 'none';
  }
  const pending = new Set((await listOrEmpty(io, cleaning)) ?? []);
  for (const baseOffset of manifest.replacedBaseOffsets) {
    for (const suffix of SEGMENT_SUFFIXES) {
      const name = offsetFileName(baseOffset, suffix);
      // The first replaced segment shares the new one's names: a file of that name that has
      // already moved in is the new segment's (step 2 renamed every old one first) and must stay;
      // one still in cleaning/ has its old namesake, if any, left to delete. Deleting a moved-in
      // transaction index would make aborted records read as committed.
      if (baseOffset === manifest.baseOffset && !pending.has(name)) continue;
      await unlinkIfPresent(io, join(partitionDirectory, name));
    }
  }
  await moveCleanedFiles(io, partitionDirectory, manifest.baseOffset);
  await io.syncDirectory(partitionDirectory);
  await io.unlink(manifestPath);
  await io.removeTree(cleaning);
  return 'completed';
}

/** Moves the new segment's files in, indexes first and the log file last. */
async function moveCleanedFiles(
  io: StorageIo,
  partitionDirectory: string,
  baseOffset: number,
): Promise<void> {
  const cleaning = cleaningDirectoryOf(partitionDirectory);
  const present = new Set((await listOrEmpty(io, cleaning)) ?? []);
  for (const suffix of SEGMENT_SUFFIXES) {
    const name = offsetFileName(baseOffset, suffix);
    if (present.has(name)) await io.rename(join(cleaning, name), join(partitionDirectory, name));
  }
}

async function readManifest(io: StorageIo, path: string): Promise<SwapManifest | undefined> {
  let bytes: Buffer;
  try {
    bytes = await io.readWholeFile(path);
  } catch (error) {
    if (error instanceof StorageError && error.isNotFound) return undefined;
    throw error;
  }
  // The manifest is written atomically, so a file that does not parse is not a torn write but
  // damage: finishing a swap from a wrong list would delete live segments.
  const parsed: unknown = JSON.parse(bytes.toString('utf8'));
  if (!isManifest(parsed)) throw new Error(`${path} is not a swap manifest: ${bytes.toString('utf8')}`);
  return parsed;
}

function isManifest(value: unknown): value is SwapManifest {
  if (typeof value !== 'object' || value === null) return false;
  const { baseOffset, replacedBaseOffsets } = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(baseOffset) &&
    Array.isArray(replacedBaseOffsets) &&
    replacedBaseOffsets.length > 0 &&
    replacedBaseOffsets[0] === baseOffset &&
    replacedBaseOffsets.every((offset) => Number.isSafeInteger(offset))
  );
}

async function listOrEmpty(io: StorageIo, directory: string): Promise<string[] | undefined> {
  try {
    return await io.listDirectory(directory);
  } catch (error) {
    if (error instanceof StorageError && error.isNotFound) return undefined;
    throw error;
  }
}

async function unlinkIfPresent(io: StorageIo, path: string): Promise<void> {
  try {
    await io.unlink(path);
  } catch (error) {
    if (!(error instanceof StorageError && error.isNotFound)) throw error;
  }
}
