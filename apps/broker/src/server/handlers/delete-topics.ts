import { DeleteTopics } from '@weir/protocol';
import { answerAllowed, denial } from '../../security/acl/answer-allowed';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.DeleteTopics;

/**
 * DeleteTopics v0–1: deletes each named topic and its logs. A topic the principal may not delete
 * gets TOPIC_AUTHORIZATION_FAILED and stays.
 */
export const deleteTopicsHandler = defineHandler({
  api: DeleteTopics,
  versions: { min: 0, max: 1 },
  async handle(request, context, commands) {
    const results = await answerAllowed(
      request.topicNames,
      (name) => context.access.allows(RULES.topic, name),
      (allowed) => commands.topics.deleteTopics(allowed),
      () => denial(RULES.topic),
    );
    return {
      throttleTimeMs: 0,
      responses: results.map((result, index) => ({
        name: request.topicNames[index]!,
        errorCode: result.ok ? 0 : context.errorOf(result).errorCode,
      })),
    };
  },
});
