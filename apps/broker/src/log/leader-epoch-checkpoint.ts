import { join } from 'node:path';
import type { StorageIo } from './storage';

/** One leader epoch and the first offset written in it. */
export interface EpochEntry {
  readonly epoch: number;
  readonly startOffset: number;
}

/** The per-partition file, named as Kafka names it, beside the segments. */
export const LEADER_EPOCH_CHECKPOINT_FILE = 'leader-epoch-checkpoint';

const FORMAT_VERSION = 0;

/** What reading the file found: its entries, no file, or a file that cannot be trusted. */
export type EpochCheckpointRead =
  | { kind: 'found'; entries: EpochEntry[] }
  | { kind: 'missing' }
  | { kind: 'damaged'; reason: string };

export function leaderEpochCheckpointPath(directory: string): string {
  return join(directory, LEADER_EPOCH_CHECKPOINT_FILE);
}

/**
 * Reads a partition's leader-epoch checkpoint, in Kafka's text format so an operator can read it:
 *
 *   0          format version
 *   2          number of entries
 *   0 0        epoch, start offset
 *   3 1200
 *
 * Epochs must rise strictly and start offsets must not fall; anything else (a wrong count, a field
 * that is not a non-negative integer) is damage, and the caller rebuilds the entries from the
 * batches' epochs rather than trusting wrong ones.
 */
export async function readLeaderEpochCheckpoint(io: StorageIo, path: string): Promise<EpochCheckpointRead> {
  let text: string;
  try {
    text = (await io.readWholeFile(path)).toString('utf8');
  } catch (error) {
    if ((error as { isNotFound?: boolean }).isNotFound) return { kind: 'missing' };
    throw error;
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (lines[0] !== String(FORMAT_VERSION))
    return { kind: 'damaged', reason: `unknown version "${lines[0]}"` };
  const count = parseCount(lines[1]);
  if (count === undefined || lines.length !== count + 2) {
    return {
      kind: 'damaged',
      reason: `the entry count "${lines[1]}" does not match ${lines.length - 2} lines`,
    };
  }
  const entries: EpochEntry[] = [];
  for (const line of lines.slice(2)) {
    const fields = line.split(' ');
    const epoch = parseCount(fields[0]);
    const startOffset = parseCount(fields[1]);
    if (fields.length !== 2 || epoch === undefined || startOffset === undefined) {
      return { kind: 'damaged', reason: `malformed entry "${line}"` };
    }
    const previous = entries[entries.length - 1];
    if (previous !== undefined && (epoch <= previous.epoch || startOffset < previous.startOffset)) {
      return {
        kind: 'damaged',
        reason: `entry "${line}" does not follow epoch ${previous.epoch} at ${previous.startOffset}`,
      };
    }
    entries.push({ epoch, startOffset });
  }
  return { kind: 'found', entries };
}

/** Replaces the file atomically (temporary file, fdatasync, rename, directory fsync). */
export async function writeLeaderEpochCheckpoint(
  io: StorageIo,
  path: string,
  entries: readonly EpochEntry[],
): Promise<void> {
  const lines = [String(FORMAT_VERSION), String(entries.length)];
  for (const entry of entries) lines.push(`${entry.epoch} ${entry.startOffset}`);
  await io.writeFileAtomic(path, Buffer.from(`${lines.join('\n')}\n`, 'utf8'));
}

function parseCount(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}
