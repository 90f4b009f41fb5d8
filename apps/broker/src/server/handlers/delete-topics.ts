import { DeleteTopics, ErrorCode, WeirError } from '@weir/protocol';
import { resultOf } from '../../errors/item-result';
import { answerAllowed, denial } from '../../security/acl/answer-allowed';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { namesGivenTwice } from '../answers/names-given-twice';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.DeleteTopics;

/**
 * DeleteTopics v0–3: deletes each named topic and its logs. A topic the principal may not delete
 * gets TOPIC_AUTHORIZATION_FAILED and stays.
 */
export const deleteTopicsHandler = defineHandler({
  api: DeleteTopics,
  versions: { min: 0, max: 3 },
  async handle(request, context, services) {
    const duplicated = namesGivenTwice(request.topicNames);
    const results = await answerAllowed(
      request.topicNames,
      (name) => context.access.allows(RULES.topic, name),
      // Concurrently, so the metadata store writes the deletions in one go.
      (allowed) =>
        Promise.all(
          allowed.map((name) =>
            resultOf(async () => {
              if (duplicated.has(name)) {
                throw new WeirError(ErrorCode.INVALID_REQUEST, {
                  detail: `topic "${name}" is listed more than once in the request`,
                });
              }
              await services.topics.deleteTopic(name);
            }),
          ),
        ),
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
