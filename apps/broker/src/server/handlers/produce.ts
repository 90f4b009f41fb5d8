import { Produce } from '@weir/protocol';
import { defineHandler } from '../handler';

/**
 * Produce v3–7. Partitions are appended in request order (which keeps idempotent sequences in
 * order on a pipelined connection) and answered per partition. With acks=0 there is no response
 * at all, but the records are still written.
 */
export const produceHandler = defineHandler({
  api: Produce,
  versions: { min: 3, max: 7 },
  async handle(request, _context, commands) {
    const pending = request.topicData.map((topic) => ({
      name: topic.name,
      partitions: topic.partitionData.map((partition) => ({
        index: partition.index,
        // Started synchronously in request order: the log queues each append before returning.
        result: commands.data.produce({
          topic: topic.name,
          partition: partition.index,
          records: partition.records,
          acks: request.acks,
        }),
      })),
    }));
    const responses = [];
    for (const topic of pending) {
      const partitionResponses = [];
      for (const partition of topic.partitions) {
        const result = await partition.result;
        partitionResponses.push(
          result.ok
            ? {
                index: partition.index,
                errorCode: 0,
                baseOffset: BigInt(result.value.baseOffset),
                logAppendTimeMs: BigInt(result.value.logAppendTimeMs),
                logStartOffset: BigInt(result.value.logStartOffset),
              }
            : {
                index: partition.index,
                errorCode: result.errorCode,
                baseOffset: -1n,
                logAppendTimeMs: -1n,
                logStartOffset: -1n,
              },
        );
      }
      responses.push({ name: topic.name, partitionResponses });
    }
    if (request.acks === 0) return undefined;
    return { responses, throttleTimeMs: 0 };
  },
});
