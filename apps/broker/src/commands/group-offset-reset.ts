import { ErrorCode, WeirError } from '@weir/protocol';
import type { GroupSnapshot } from '../group/group-views';
import type { TopicManager } from '../topics/topic-manager';

/** Where a reset moves each partition's committed offset. */
export type OffsetResetTarget =
  | { kind: 'earliest' }
  | { kind: 'latest' }
  /** The first offset whose record time is at or after `timestampMs`; the high watermark if none. */
  | { kind: 'timestamp'; timestampMs: number }
  | { kind: 'offset'; offset: number }
  /** The committed offset moved by `by` (negative: back); from the log start when nothing is committed. */
  | { kind: 'shift'; by: number };

export interface OffsetResetRequest {
  groupId: string;
  /** Topics to reset; `partitions` omitted means every partition of the topic. */
  topics: { topic: string; partitions?: number[] }[];
  target: OffsetResetTarget;
  dryRun: boolean;
}

export interface OffsetResetPlanEntry {
  topic: string;
  partition: number;
  /** The offset committed before the reset; null when there was none. */
  currentOffset: number | null;
  newOffset: number;
}

export interface OffsetResetPlan {
  groupId: string;
  dryRun: boolean;
  partitions: OffsetResetPlanEntry[];
}

/**
 * Computes the new offsets of a reset. Every result is clamped to the partition's
 * [log start, high watermark], as Kafka's reset tool does: an offset outside it would only make
 * the consumer fall back to auto.offset.reset.
 */
export async function planOffsetReset(
  request: OffsetResetRequest,
  group: GroupSnapshot | undefined,
  topics: TopicManager,
): Promise<OffsetResetPlan> {
  const committed = new Map<string, number>();
  for (const offset of group?.offsets ?? [])
    committed.set(`${offset.topic}\u0000${offset.partition}`, offset.offset);
  const entries: OffsetResetPlanEntry[] = [];
  for (const { topic, partitions } of request.topics) {
    const record = topics.getTopic(topic);
    if (!record) {
      throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, {
        detail: `topic "${topic}" does not exist`,
      });
    }
    const wanted = partitions ?? Array.from({ length: record.partitionCount }, (_, index) => index);
    for (const partition of wanted) {
      const log = topics.partitionLog(topic, partition);
      const currentOffset = committed.get(`${topic}\u0000${partition}`) ?? null;
      const start = log.logStartOffset;
      const end = log.highWatermark;
      let target: number;
      switch (request.target.kind) {
        case 'earliest':
          target = start;
          break;
        case 'latest':
          target = end;
          break;
        case 'timestamp':
          target = (await log.offsetForTimestamp(request.target.timestampMs))?.offset ?? end;
          break;
        case 'offset':
          target = request.target.offset;
          break;
        case 'shift':
          target = (currentOffset ?? start) + request.target.by;
          break;
      }
      entries.push({ topic, partition, currentOffset, newOffset: Math.min(Math.max(target, start), end) });
    }
  }
  return { groupId: request.groupId, dryRun: request.dryRun, partitions: entries };
}
