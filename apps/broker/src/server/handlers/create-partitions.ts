import { CreatePartitions } from '@weir/protocol';
import { resultOf } from '../../errors/item-result';
import { answerAllowed, denial } from '../../security/acl/answer-allowed';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.CreatePartitions;

/**
 * CreatePartitions v0–1: raises a topic's partition count (it can never shrink). Needs ALTER on
 * the topic; without, TOPIC_AUTHORIZATION_FAILED.
 */
export const createPartitionsHandler = defineHandler({
  api: CreatePartitions,
  versions: { min: 0, max: 1 },
  async handle(request, context, services) {
    const results = await answerAllowed(
      request.topics,
      (topic) => context.access.allows(RULES.topic, topic.name),
      // One topic after the other: each checks the count the topic has after the previous one.
      async (allowed) => {
        const results = [];
        for (const topic of allowed) {
          const replicas = topic.assignments?.map((assignment) => assignment.brokerIds);
          results.push(
            await resultOf(async () => {
              if (request.validateOnly)
                services.topics.validateCreatePartitions(topic.name, topic.count, replicas);
              else await services.topics.createPartitions(topic.name, topic.count, replicas);
            }),
          );
        }
        return results;
      },
      () => denial(RULES.topic),
    );
    return {
      throttleTimeMs: 0,
      results: results.map((result, index) => ({
        name: request.topics[index]!.name,
        ...(result.ok ? { errorCode: 0, errorMessage: null } : context.errorOf(result)),
      })),
    };
  },
});
