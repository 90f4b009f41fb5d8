import { type TopicSortKey, WeirListTopicSummaries } from '@weir/protocol';
import { defineHandler } from '../../handler';
import { NO_ERROR, topLevelError } from './top-level-error';

/**
 * WeirListTopicSummaries v0: one page of the topic list. A bad sort key or page bound is the
 * command's INVALID_REQUEST, answered at the top level.
 */
export const weirListTopicSummariesHandler = defineHandler({
  api: WeirListTopicSummaries,
  versions: { min: 0, max: 0 },
  async handle(request, _context, commands) {
    try {
      const page = commands.topicSummaries.listTopicSummaries({
        search: request.search,
        includeInternal: request.includeInternal,
        // Checked by the command; an unknown key is refused there, not here.
        sortBy: request.sortBy as TopicSortKey,
        descending: request.descending,
        offset: request.offset,
        limit: request.limit,
      });
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
      return { ...topLevelError(error), totalCount: 0, topics: [] };
    }
  },
});
