import { ErrorCode, WeirDescribeGroupLags } from '@weir/protocol';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { NO_ERROR } from '../../answers/top-level-error';
import { defineHandler } from '../../handler';

const RULES = API_ACL_RULES.WeirDescribeGroupLags;

/**
 * WeirDescribeGroupLags v0: groups with their lag, sorted by group id. COORDINATOR_LOAD_IN_PROGRESS
 * (retriable) comes at the top level while groups load; a named group that does not exist is a row
 * with GROUP_ID_NOT_FOUND, so the others are still answered. All groups means those the principal
 * may describe; a named one it may not is a GROUP_AUTHORIZATION_FAILED row.
 */
export const weirDescribeGroupLagsHandler = defineHandler({
  api: WeirDescribeGroupLags,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    const { access } = context;
    try {
      const named =
        request.groupIds === null ? null : access.split(RULES.group, request.groupIds, (id) => id);
      const { groups, missing } = services.operator.groupLags.describeGroupLags(
        named === null ? null : named.allowed,
      );
      const found = groups
        .filter((group) => named !== null || access.allows(RULES.group, group.groupId))
        .map((group) => ({
          groupId: group.groupId,
          errorCode: ErrorCode.NONE,
          state: group.state,
          protocolType: group.protocolType,
          protocol: group.protocol,
          memberCount: group.memberCount,
          totalLag: group.totalLag,
          partitions: group.partitions.map((row) => ({
            topic: row.topic,
            partitionIndex: row.partition,
            committedOffset: row.committedOffset,
            logEndOffset: row.logEndOffset,
            lag: row.lag,
            memberId: row.memberId,
          })),
        }));
      const notFound = missing.map((groupId) => ({
        groupId,
        errorCode: ErrorCode.GROUP_ID_NOT_FOUND,
        state: 'Dead',
        protocolType: '',
        protocol: '',
        memberCount: 0,
        totalLag: 0n,
        partitions: [],
      }));
      const refused = [...new Set(named?.denied ?? [])].map((groupId) => ({
        groupId,
        errorCode: RULES.group.denied,
        state: '',
        protocolType: '',
        protocol: '',
        memberCount: 0,
        totalLag: 0n,
        partitions: [],
      }));
      const rows = [...found, ...notFound, ...refused].sort((left, right) =>
        left.groupId < right.groupId ? -1 : left.groupId > right.groupId ? 1 : 0,
      );
      return { ...NO_ERROR, groups: rows };
    } catch (error) {
      return { ...context.failure(error), groups: [] };
    }
  },
});
