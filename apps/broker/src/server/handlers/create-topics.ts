import { CreateTopics } from '@weir/protocol';
import { defineHandler } from '../handler';

/** CreateTopics v0–4: per-topic results; validate_only checks everything and changes nothing. */
export const createTopicsHandler = defineHandler({
  api: CreateTopics,
  versions: { min: 0, max: 4 },
  async handle(request, _context, commands) {
    const results = await commands.topics.createTopics(
      request.topics.map((topic) => ({
        name: topic.name,
        partitionCount: topic.numPartitions,
        replicationFactor: topic.replicationFactor,
        assignments: topic.assignments.map((assignment) => ({
          partition: assignment.partitionIndex,
          brokerIds: assignment.brokerIds,
        })),
        configs: Object.fromEntries(topic.configs.map((config) => [config.name, config.value])),
      })),
      request.validateOnly,
    );
    return {
      throttleTimeMs: 0,
      topics: results.map((result, index) => ({
        name: request.topics[index]!.name,
        errorCode: result.ok ? 0 : result.errorCode,
        errorMessage: result.ok ? null : result.errorMessage,
      })),
    };
  },
});
