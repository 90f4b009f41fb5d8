import type { StorageIo } from './storage';

/**
 * A data-directory-wide checkpoint of one offset per partition, in Kafka's text format so an
 * operator can read it:
 *
 *   0                 format version
 *   2                 number of entries
 *   orders 0 1234     topic, partition, offset
 *   orders 1 987
 *
 * Written atomically (temporary file, fsync, rename), so a crash leaves the old or the new file.
 * Kafka topic names cannot contain spaces, so a space separates the fields safely.
 */
export type OffsetCheckpoint = Map<string, number>;

const FORMAT_VERSION = 0;

/** The checkpoint files of a logs directory. */
export const RECOVERY_POINT_FILE = 'recovery-point-offset-checkpoint';
export const LOG_START_OFFSET_FILE = 'log-start-offset-checkpoint';

/** The checkpoint key of a partition. */
export function checkpointKey(topic: string, partition: number): string {
  return `${topic} ${partition}`;
}

/**
 * Reads a checkpoint file. A missing file is an empty checkpoint; a malformed one is reported as
 * undefined so the caller can fall back to full recovery rather than trusting wrong offsets.
 */
export async function readOffsetCheckpoint(
  io: StorageIo,
  path: string,
): Promise<OffsetCheckpoint | undefined> {
  let text: string;
  try {
    text = (await io.readWholeFile(path)).toString('utf8');
  } catch (error) {
    if ((error as { isNotFound?: boolean }).isNotFound) return new Map();
    throw error;
  }
  const lines = text.split('\n').filter((line) => line.length > 0);
  if (lines[0] !== String(FORMAT_VERSION)) return undefined;
  const count = Number(lines[1]);
  if (!Number.isSafeInteger(count) || lines.length !== count + 2) return undefined;
  const checkpoint: OffsetCheckpoint = new Map();
  for (const line of lines.slice(2)) {
    const fields = line.split(' ');
    if (fields.length !== 3) return undefined;
    const [topic, partitionText, offsetText] = fields as [string, string, string];
    const partition = Number(partitionText);
    const offset = Number(offsetText);
    if (!Number.isSafeInteger(partition) || !Number.isSafeInteger(offset) || offset < 0) return undefined;
    checkpoint.set(checkpointKey(topic, partition), offset);
  }
  return checkpoint;
}

export async function writeOffsetCheckpoint(
  io: StorageIo,
  path: string,
  checkpoint: OffsetCheckpoint,
): Promise<void> {
  const lines = [String(FORMAT_VERSION), String(checkpoint.size)];
  for (const [key, offset] of checkpoint) lines.push(`${key} ${offset}`);
  await io.writeFileAtomic(path, Buffer.from(`${lines.join('\n')}\n`, 'utf8'));
}
