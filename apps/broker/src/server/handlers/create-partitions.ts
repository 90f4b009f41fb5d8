import { CreatePartitions } from '@weir/protocol';
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
  async handle(request, context, commands) {
    const results = await answerAllowed(
      request.topics,
      (topic) => context.access.allows(RULES.topic, topic.name),
      (allowed) =>
        commands.topics.createPartitions(
          allowed.map((topic) => ({
            name: topic.name,
            count: topic.count,
            assignments: topic.assignments?.map((assignment) => assignment.brokerIds) ?? null,
          })),
          request.validateOnly,
        ),
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
