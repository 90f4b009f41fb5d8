import { DeleteTopics } from '@weir/protocol';
import { defineHandler } from '../handler';

/** DeleteTopics v0–1: deletes each named topic and its logs. */
export const deleteTopicsHandler = defineHandler({
  api: DeleteTopics,
  versions: { min: 0, max: 1 },
  async handle(request, _context, commands) {
    const results = await commands.topics.deleteTopics(request.topicNames);
    return {
      throttleTimeMs: 0,
      responses: results.map((result, index) => ({
        name: request.topicNames[index]!,
        errorCode: result.ok ? 0 : result.errorCode,
      })),
    };
  },
});
