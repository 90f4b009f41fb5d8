import { DescribeGroups } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.DescribeGroups;

/** "Not requested", Kafka's value for authorized operations the client did not ask for. */
const OPERATIONS_NOT_REQUESTED = -2_147_483_648;

/**
 * DescribeGroups v0–4. Unknown groups come back Dead without an error, as Kafka answers; client
 * hosts carry Kafka's leading slash (its InetAddress form), which admin tools expect. A group the
 * principal may not describe is a GROUP_AUTHORIZATION_FAILED row with nothing else; v3+ reports
 * which of READ, DELETE and DESCRIBE the principal may do on each group described.
 */
export const describeGroupsHandler = defineHandler({
  api: DescribeGroups,
  versions: { min: 0, max: 4 },
  async handle(request, context, services) {
    const { access } = context;
    const { allowed } = access.split(RULES.group, request.groups, (groupId) => groupId);
    const described = new Map(allowed.map((groupId) => [groupId, services.groups.describeGroup(groupId)]));
    return {
      throttleTimeMs: 0,
      groups: request.groups.map((groupId) => {
        const group = described.get(groupId);
        if (group === undefined) {
          return {
            errorCode: RULES.group.denied,
            groupId,
            groupState: '',
            protocolType: '',
            protocolData: '',
            members: [],
            authorizedOperations: OPERATIONS_NOT_REQUESTED,
          };
        }
        return {
          errorCode: group.errorCode,
          groupId: group.groupId,
          groupState: group.state,
          protocolType: group.protocolType,
          protocolData: group.protocolData,
          members: group.members.map((member) => ({
            memberId: member.memberId,
            groupInstanceId: member.groupInstanceId,
            clientId: member.clientId,
            clientHost: `/${member.clientHost}`,
            memberMetadata: member.metadata,
            memberAssignment: member.assignment,
          })),
          authorizedOperations: request.includeAuthorizedOperations
            ? access.authorizedOperations('GROUP', groupId, ['READ', 'DELETE', 'DESCRIBE'])
            : OPERATIONS_NOT_REQUESTED,
        };
      }),
    };
  },
});
