import { OffsetDelete } from '@weir/protocol';
import { defineHandler } from '../handler';

/** OffsetDelete v0: drops a group's offsets for topics it no longer consumes. */
export const offsetDeleteHandler = defineHandler({
  api: OffsetDelete,
  versions: { min: 0, max: 0 },
  async handle(request, _context, commands) {
    const result = await commands.groups.deleteOffsets(
      request.groupId,
      request.topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map((partition) => partition.partitionIndex),
      })),
    );
    return { errorCode: result.errorCode, throttleTimeMs: 0, topics: result.topics };
  },
});
