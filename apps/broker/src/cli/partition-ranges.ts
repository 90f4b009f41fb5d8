import { type Admin, ErrorCode, WeirError } from '@weir/protocol';
import type { StartPosition } from './start-position';

/** Where reading a partition starts, and where its log ended when reading began. */
export interface PartitionRange {
  readonly partition: number;
  readonly start: bigint;
  /** The log end offset (high watermark) at the start: `--exit-at-end` stops here. */
  readonly end: bigint;
}

/**
 * Resolves `--from` to an exact offset per partition before reading, so that `--exit-at-end` knows
 * up front which partitions have nothing to read. An explicit offset outside a partition's log is
 * an error (the user asked for records that are not there); a time after the last record starts
 * at the end, where the next record will be.
 */
export async function partitionRanges(
  admin: Admin,
  topic: string,
  partitions: readonly number[],
  from: StartPosition,
): Promise<PartitionRange[]> {
  const lookup = (spec: 'earliest' | 'latest' | { timestampMs: number }) =>
    admin.listOffsets(partitions.map((partition) => ({ topic, partition, spec })));
  const [earliest, latest, byTime] = await Promise.all([
    lookup('earliest'),
    lookup('latest'),
    from.kind === 'timestamp' ? lookup({ timestampMs: from.timestampMs }) : undefined,
  ]);
  return partitions.map((partition, index) => {
    const first = earliest[index]!.offset;
    const end = latest[index]!.offset;
    if (from.kind === 'beginning') return { partition, start: first, end };
    if (from.kind === 'end') return { partition, start: end, end };
    if (from.kind === 'timestamp') {
      const found = byTime![index]!.offset;
      return { partition, start: found < 0n ? end : found, end };
    }
    if (from.offset < first || from.offset > end) {
      throw new WeirError(ErrorCode.OFFSET_OUT_OF_RANGE, {
        detail: `${topic}-${partition}: offset ${from.offset} is outside the log (earliest ${first}, latest ${end}).`,
      });
    }
    return { partition, start: from.offset, end };
  });
}
