import { readdir } from 'node:fs/promises';

/** Descriptors this process has open, from `/proc/self/fd` (Linux); the listing's own one included. */
export async function openDescriptorCount(): Promise<number> {
  return (await readdir('/proc/self/fd')).length;
}

/** Resident set size of this process, in bytes. */
export function residentBytes(): number {
  return process.memoryUsage().rss;
}
