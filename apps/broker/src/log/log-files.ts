import { join } from 'node:path';

/**
 * File naming inside a partition directory `<topic>-<partition>/`. Segment files are named by their
 * base offset, zero-padded to 20 digits so lexical order is offset order, as Kafka does:
 *
 *   00000000000000000000.log        batches, each a 12-byte log entry header (offset, size) + batch
 *   00000000000000000000.index      sparse relative offset → byte position
 *   00000000000000000000.timeindex  max timestamp → relative offset
 *   00000000000000000000.txnindex   aborted transactions whose ABORT marker is in the segment
 *   00000000000000000000.snapshot   producer state as of that offset
 *   *.deleted                       a segment file being deleted (retention), unlinked later
 *   *.tmp                           a file being replaced atomically
 */
export const LOG_SUFFIX = '.log';
export const OFFSET_INDEX_SUFFIX = '.index';
export const TIME_INDEX_SUFFIX = '.timeindex';
export const TXN_INDEX_SUFFIX = '.txnindex';
export const PRODUCER_SNAPSHOT_SUFFIX = '.snapshot';
export const DELETED_SUFFIX = '.deleted';
export const TEMPORARY_SUFFIX = '.tmp';

const OFFSET_DIGITS = 20;

export function offsetFileName(baseOffset: number, suffix: string): string {
  return `${String(baseOffset).padStart(OFFSET_DIGITS, '0')}${suffix}`;
}

export function segmentFilePath(directory: string, baseOffset: number, suffix: string): string {
  return join(directory, offsetFileName(baseOffset, suffix));
}

/** The base offset encoded in a file name with the given suffix, or undefined if it is not one. */
export function parseOffsetFileName(fileName: string, suffix: string): number | undefined {
  if (!fileName.endsWith(suffix)) return undefined;
  const digits = fileName.slice(0, -suffix.length);
  if (digits.length !== OFFSET_DIGITS || !/^\d+$/.test(digits)) return undefined;
  const offset = Number(digits);
  return Number.isSafeInteger(offset) ? offset : undefined;
}

/** A topic partition's directory name, `<topic>-<partition>`. */
export function partitionDirectoryName(topic: string, partition: number): string {
  return `${topic}-${partition}`;
}

/**
 * Splits a partition directory name back into topic and partition. Topic names may themselves
 * contain '-', so the partition is the part after the last one.
 */
export function parsePartitionDirectoryName(name: string): { topic: string; partition: number } | undefined {
  const dash = name.lastIndexOf('-');
  if (dash <= 0) return undefined;
  const partitionText = name.slice(dash + 1);
  if (!/^\d+$/.test(partitionText)) return undefined;
  return { topic: name.slice(0, dash), partition: Number(partitionText) };
}
