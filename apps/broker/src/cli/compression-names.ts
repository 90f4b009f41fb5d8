import type { CompressionType } from '@weir/protocol';

/**
 * The `--compression` choices. Spelled out rather than imported from the SDK's COMPRESSION_TYPES,
 * because importing a value from @weir/protocol loads all of it for every command line (see
 * run-client-command.ts); `satisfies` keeps the list from naming a codec the SDK does not have, and
 * a test checks that none is missing.
 */
export const COMPRESSION_NAMES = [
  'none',
  'gzip',
  'snappy',
  'lz4',
  'zstd',
] as const satisfies readonly CompressionType[];
