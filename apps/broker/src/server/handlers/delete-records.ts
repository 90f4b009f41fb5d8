import { DeleteRecords } from '@weir/protocol';
import { defineHandler } from '../handler';

/** DeleteRecords v0–1: moves each partition's log start offset; answers with the new low watermark. */
export const deleteRecordsHandler = defineHandler({
  api: DeleteRecords,
  versions: { min: 0, max: 1 },
  async handle(request, _context, commands) {
    const topics = [];
    for (const topic of request.topics) {
      const partitions = [];
      for (const partition of topic.partitions) {
        const result = await commands.data.deleteRecords({
          topic: topic.name,
          partition: partition.partitionIndex,
          offset: Number(partition.offset),
        });
        partitions.push({
          partitionIndex: partition.partitionIndex,
          lowWatermark: result.ok ? BigInt(result.value.lowWatermark) : -1n,
          errorCode: result.ok ? 0 : result.errorCode,
        });
      }
      topics.push({ name: topic.name, partitions });
    }
    return { throttleTimeMs: 0, topics };
  },
});
