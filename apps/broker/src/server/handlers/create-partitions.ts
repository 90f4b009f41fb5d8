import { CreatePartitions } from '@weir/protocol';
import { defineHandler } from '../handler';

/** CreatePartitions v0–1: raises a topic's partition count (it can never shrink). */
export const createPartitionsHandler = defineHandler({
  api: CreatePartitions,
  versions: { min: 0, max: 1 },
  async handle(request, _context, commands) {
    const results = await commands.topics.createPartitions(
      request.topics.map((topic) => ({
        name: topic.name,
        count: topic.count,
        assignments: topic.assignments?.map((assignment) => assignment.brokerIds) ?? null,
      })),
      request.validateOnly,
    );
    return {
      throttleTimeMs: 0,
      results: results.map((result, index) => ({
        name: request.topics[index]!.name,
        errorCode: result.ok ? 0 : result.errorCode,
        errorMessage: result.ok ? null : result.errorMessage,
      })),
    };
  },
});
