import type { Segment } from './segment';

/** What retention needs to know about one closed segment. */
export interface RetentionSegment {
  baseOffset: number;
  /** One past its last offset. */
  nextOffset: number;
  sizeBytes: number;
  /** Its newest record's timestamp; -1 when it has none. */
  maxTimestampMs: number;
}

export interface RetentionPolicy {
  retentionMs: number;
  retentionBytes: number;
  /**
   * cleanup.policy contains "delete". Without it (compact only) retention.ms and retention.bytes
   * delete nothing, as in Kafka: the cleaner alone decides what a compacted log loses.
   */
  deleteByRetention: boolean;
}

export type RetentionReason = 'retention.ms' | 'retention.bytes' | 'log-start-offset';

/**
 * Describes every segment but the active (last) one for {@link segmentsToDelete}: a closed segment
 * ends where the next one starts, and its newest timestamp comes from its time index (a disk read
 * the first time).
 */
export async function describeClosedSegments(segments: readonly Segment[]): Promise<RetentionSegment[]> {
  const described: RetentionSegment[] = [];
  for (let index = 0; index < segments.length - 1; index++) {
    const segment = segments[index]!;
    described.push({
      baseOffset: segment.baseOffset,
      nextOffset: segments[index + 1]!.baseOffset,
      sizeBytes: segment.sizeBytes,
      maxTimestampMs: await segment.largestTimestampMs(),
    });
  }
  return described;
}

/**
 * Decides how many of the oldest closed segments to delete, as Kafka does: segments entirely below
 * the log start offset (after DeleteRecords), segments whose newest record is older than
 * retention.ms, and the oldest segments while the log (including the active segment, which is never
 * deleted) is larger than retention.bytes. The last two apply only when the cleanup policy
 * contains "delete"; the log start offset always does. Only a prefix is ever deleted, so offsets
 * stay contiguous. Pure: the log applies the decision.
 */
export function segmentsToDelete(
  closedSegments: readonly RetentionSegment[],
  activeSegmentBytes: number,
  logStartOffset: number,
  policy: RetentionPolicy,
  nowMs: number,
): { count: number; reason: RetentionReason | undefined } {
  let count = 0;
  let reason: RetentionReason | undefined;
  while (count < closedSegments.length && closedSegments[count]!.nextOffset <= logStartOffset) count++;
  if (count > 0) reason = 'log-start-offset';

  if (!policy.deleteByRetention) return { count, reason };

  if (policy.retentionMs >= 0) {
    while (count < closedSegments.length) {
      const segment = closedSegments[count]!;
      if (segment.maxTimestampMs < 0 || nowMs - segment.maxTimestampMs <= policy.retentionMs) break;
      count++;
      reason = 'retention.ms';
    }
  }

  if (policy.retentionBytes >= 0) {
    let totalBytes = activeSegmentBytes;
    for (let index = count; index < closedSegments.length; index++)
      totalBytes += closedSegments[index]!.sizeBytes;
    while (
      count < closedSegments.length &&
      totalBytes - closedSegments[count]!.sizeBytes >= policy.retentionBytes
    ) {
      if (totalBytes <= policy.retentionBytes) break;
      totalBytes -= closedSegments[count]!.sizeBytes;
      count++;
      reason = 'retention.bytes';
    }
  }
  return { count, reason };
}
