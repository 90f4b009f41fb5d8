import { CreateTopics } from '@weir/protocol';
import { answerAllowed, denial } from '../../security/acl/answer-allowed';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.CreateTopics;

/**
 * CreateTopics v0–4: per-topic results; validate_only checks everything and changes nothing. A
 * topic needs CREATE on the cluster or on itself; without, TOPIC_AUTHORIZATION_FAILED.
 */
export const createTopicsHandler = defineHandler({
  api: CreateTopics,
  versions: { min: 0, max: 4 },
  async handle(request, context, commands) {
    const results = await answerAllowed(
      request.topics,
      (topic) => context.access.allows(RULES.create, topic.name),
      (allowed) =>
        commands.topics.createTopics(
          allowed.map((topic) => ({
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
        ),
      () => denial(RULES.create),
    );
    return {
      throttleTimeMs: 0,
      topics: results.map((result, index) => ({
        name: request.topics[index]!.name,
        ...(result.ok ? { errorCode: 0, errorMessage: null } : context.errorOf(result)),
      })),
    };
  },
});
