import { OffsetCommit } from '@weir/protocol';
import { defineHandler } from '../handler';

/**
 * OffsetCommit v2–7: a member's commit (checked against its generation) or a simple commit
 * (generation -1, no member id) of an empty group. Acknowledged once the offsets are durable.
 */
export const offsetCommitHandler = defineHandler({
  api: OffsetCommit,
  versions: { min: 2, max: 7 },
  async handle(request, _context, commands) {
    const topics = await commands.groups.commitOffsets({
      groupId: request.groupId,
      generationId: request.generationIdOrMemberEpoch,
      memberId: request.memberId,
      groupInstanceId: request.groupInstanceId,
      retentionTimeMs: Number(request.retentionTimeMs),
      topics: request.topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map((partition) => ({
          partitionIndex: partition.partitionIndex,
          committedOffset: Number(partition.committedOffset),
          committedLeaderEpoch: partition.committedLeaderEpoch,
          committedMetadata: partition.committedMetadata,
        })),
      })),
    });
    return { throttleTimeMs: 0, topics };
  },
});
