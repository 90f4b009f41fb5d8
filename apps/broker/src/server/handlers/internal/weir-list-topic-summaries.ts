import { type TopicSortKey, WeirListTopicSummaries } from '@weir/protocol';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { NO_ERROR } from '../../answers/top-level-error';
import { defineHandler } from '../../handler';

const RULES = API_ACL_RULES.WeirListTopicSummaries;

/**
 * WeirListTopicSummaries v0: one page of the topic list. A bad sort key or page bound is the
 * service's INVALID_REQUEST, answered at the top level. Only topics the principal may describe are
 * listed (and counted), with only the groups it may describe.
 */
export const weirListTopicSummariesHandler = defineHandler({
  api: WeirListTopicSummaries,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    const { access } = context;
    try {
      const page = services.operator.topicSummaries.listTopicSummaries(
        {
          search: request.search,
          includeInternal: request.includeInternal,
          // Checked by the service; an unknown key is refused there, not here.
          sortBy: request.sortBy as TopicSortKey,
          descending: request.descending,
          offset: request.offset,
          limit: request.limit,
        },
        {
          topic: (name) => access.allows(RULES.topic, name),
          group: (groupId) => access.allows(RULES.group, groupId),
        },
      );
      return {
        ...NO_ERROR,
        totalCount: page.totalCount,
        topics: page.topics.map((topic) => ({
          name: topic.name,
          internal: topic.internal,
          partitionCount: topic.partitionCount,
          replicationFactor: topic.replicationFactor,
          sizeBytes: topic.sizeBytes,
          messageCount: topic.messageCount,
          groups: topic.groups.map((group) => ({ groupId: group.groupId, lag: group.lag })),
        })),
      };
    } catch (error) {
      return { ...context.failure(error), totalCount: 0, topics: [] };
    }
  },
});
