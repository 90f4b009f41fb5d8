import { OffsetFetch } from '@weir/protocol';
import { defineHandler } from '../handler';

/**
 * OffsetFetch v1–5: committed offsets, -1 with empty metadata where nothing is committed; a null
 * topic list (v2+) means every partition the group has committed. v1 has no top-level error, so
 * group-level errors are also on every partition.
 */
export const offsetFetchHandler = defineHandler({
  api: OffsetFetch,
  versions: { min: 1, max: 5 },
  async handle(request, _context, commands) {
    const result = commands.groups.fetchOffsets(request.groupId, request.topics);
    return {
      throttleTimeMs: 0,
      errorCode: result.errorCode,
      topics: result.topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map((partition) => ({
          partitionIndex: partition.partitionIndex,
          committedOffset: BigInt(partition.committedOffset),
          committedLeaderEpoch: partition.committedLeaderEpoch,
          metadata: partition.metadata,
          errorCode: partition.errorCode,
        })),
      })),
    };
  },
});
