import { LeaderEpochCache } from './leader-epoch-cache';
import { leaderEpochCheckpointPath, readLeaderEpochCheckpoint } from './leader-epoch-checkpoint';
import type { PartitionLogEvents } from './partition-log-types';
import type { Segment, SegmentContext } from './segment';

/** What opening the cache found, for the load report and tests. */
export type EpochCacheLoad = 'loaded' | 'rebuilt-missing' | 'rebuilt-damaged';

/**
 * Opens a partition's leader-epoch cache once its log is recovered (log-loader.ts). A readable
 * checkpoint is trusted, then cut to the log: entries at or past the log end go (written before a
 * batch that a crash or a torn-tail cut took away) and entries below the log start are folded
 * into it. A missing file (a log an older Weir wrote, whose batches carry -1 and give no entries)
 * or a damaged one is rebuilt from the epochs stamped in the batches, headers only, and written.
 */
export async function openLeaderEpochCache(
  context: SegmentContext & { topic: string; partition: number },
  segments: readonly Segment[],
  logStartOffset: number,
  logEndOffset: number,
  events: Pick<PartitionLogEvents, 'info' | 'warn'>,
): Promise<{ cache: LeaderEpochCache; load: EpochCacheLoad }> {
  const path = leaderEpochCheckpointPath(context.directory);
  const read = await readLeaderEpochCheckpoint(context.io, path);
  if (read.kind === 'found') {
    const cache = new LeaderEpochCache(context.io, path, read.entries);
    const cutEnd = cache.truncateFromEnd(logEndOffset);
    const cutStart = cache.truncateFromStart(logStartOffset);
    if (cutEnd || cutStart) await cache.persist();
    return { cache, load: 'loaded' };
  }
  const cache = new LeaderEpochCache(context.io, path, []);
  let batchCount = 0;
  for (const segment of segments) {
    await segment.scan(0, segment.sizeBytes, { withBody: false, verifyCrc: false }, (batch) => {
      if (batch.lastOffset < logStartOffset) return true;
      batchCount++;
      cache.assign(batch.header.partitionLeaderEpoch, Math.max(batch.baseOffset, logStartOffset));
      return true;
    });
  }
  cache.truncateFromStart(logStartOffset);
  await cache.persist();
  const fields = {
    topic: context.topic,
    partition: context.partition,
    scannedBatches: batchCount,
    epochCount: cache.entries.length,
  };
  if (read.kind === 'damaged') {
    events.warn('the leader-epoch checkpoint was damaged; rebuilt it from the batches', {
      ...fields,
      reason: read.reason,
    });
    return { cache, load: 'rebuilt-damaged' };
  }
  // A new, empty partition has nothing to tell; an older Weir's log does.
  if (batchCount > 0) events.info('rebuilt the missing leader-epoch checkpoint from the batches', fields);
  return { cache, load: 'rebuilt-missing' };
}
