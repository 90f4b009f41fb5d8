import { ErrorCode, WeirDescribeThroughputHistory } from '@weir/protocol';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { NO_ERROR } from '../../answers/top-level-error';
import { defineHandler } from '../../handler';
import { historyRequestProblem } from './history-request-limits';

const RULES = API_ACL_RULES.WeirDescribeThroughputHistory;

/**
 * WeirDescribeThroughputHistory v0: the named topics' client traffic over time from this broker's
 * history (stats/history-view.ts). Needs DESCRIBE on each topic; a topic it may not describe is a
 * row with TOPIC_AUTHORIZATION_FAILED and no values. Too many names or a negative `sinceMs` is
 * INVALID_REQUEST naming the field.
 */
export const weirDescribeThroughputHistoryHandler = defineHandler({
  api: WeirDescribeThroughputHistory,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    const problem = historyRequestProblem('topics', request.topics.length, request.sinceMs);
    if (problem !== undefined)
      return {
        errorCode: ErrorCode.INVALID_REQUEST,
        errorMessage: problem,
        sampleIntervalMs: -1,
        topics: [],
      };
    const { allowed, denied } = context.access.split(RULES.topic, request.topics, (topic) => topic);
    const found = services.history.topicThroughputHistory(allowed, Number(request.sinceMs));
    const refused = [...new Set(denied)].map((topic) => ({
      topic,
      errorCode: RULES.topic.denied,
      resolutionMs: 0,
      startMs: 0n,
      recordsInPerSecond: [],
      recordsOutPerSecond: [],
      bytesInPerSecond: [],
      bytesOutPerSecond: [],
    }));
    return {
      ...NO_ERROR,
      sampleIntervalMs: services.history.sampleIntervalMs,
      topics: [
        ...found.map((row) => ({
          topic: row.topic,
          errorCode: ErrorCode.NONE,
          resolutionMs: row.resolutionMs,
          startMs: BigInt(row.startMs),
          recordsInPerSecond: row.recordsIn,
          recordsOutPerSecond: row.recordsOut,
          bytesInPerSecond: row.bytesIn,
          bytesOutPerSecond: row.bytesOut,
        })),
        ...refused,
      ],
    };
  },
});
