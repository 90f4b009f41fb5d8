import { ErrorCode, WeirDescribeLagHistory } from '@weir/protocol';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { NO_ERROR } from '../../answers/top-level-error';
import { defineHandler } from '../../handler';
import { historyRequestProblem } from './history-request-limits';

const RULES = API_ACL_RULES.WeirDescribeLagHistory;

/**
 * WeirDescribeLagHistory v0: the named groups' lag over time from this broker's history
 * (stats/history-view.ts). Needs DESCRIBE on each group; a group it may not describe is a row
 * with GROUP_AUTHORIZATION_FAILED and no values. Too many names or a negative `sinceMs` is
 * INVALID_REQUEST naming the field.
 */
export const weirDescribeLagHistoryHandler = defineHandler({
  api: WeirDescribeLagHistory,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    const problem = historyRequestProblem('groupIds', request.groupIds.length, request.sinceMs);
    if (problem !== undefined)
      return {
        errorCode: ErrorCode.INVALID_REQUEST,
        errorMessage: problem,
        sampleIntervalMs: -1,
        groups: [],
      };
    const { allowed, denied } = context.access.split(RULES.group, request.groupIds, (id) => id);
    const found = services.history.groupLagHistory(
      allowed,
      Number(request.sinceMs),
      request.includePartitions,
    );
    const refused = [...new Set(denied)].map((groupId) => ({
      groupId,
      errorCode: RULES.group.denied,
      resolutionMs: 0,
      startMs: 0n,
      totalLag: [],
      consumedPerSecond: [],
      producedPerSecond: [],
      partitions: [],
    }));
    return {
      ...NO_ERROR,
      sampleIntervalMs: services.history.sampleIntervalMs,
      groups: [
        ...found.map((group) => ({ ...group, errorCode: ErrorCode.NONE, startMs: BigInt(group.startMs) })),
        ...refused,
      ],
    };
  },
});
