import { DescribeGroups } from '@weir/protocol';
import { defineHandler } from '../handler';

/** "Not requested", Kafka's value for authorized operations the client did not ask for. */
const OPERATIONS_NOT_REQUESTED = -2_147_483_648;
/**
 * Until ACLs exist every principal may do everything a group offers: READ (3), DELETE (6) and
 * DESCRIBE (8), as Kafka's AclOperation bit positions.
 */
const ALL_GROUP_OPERATIONS = (1 << 3) | (1 << 6) | (1 << 8);

/**
 * DescribeGroups v0–4. Unknown groups come back Dead without an error, as Kafka answers; client
 * hosts carry Kafka's leading slash (its InetAddress form), which admin tools expect.
 */
export const describeGroupsHandler = defineHandler({
  api: DescribeGroups,
  versions: { min: 0, max: 4 },
  async handle(request, _context, commands) {
    const described = commands.groups.describeGroups(request.groups);
    return {
      throttleTimeMs: 0,
      groups: described.map((group) => ({
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
          ? ALL_GROUP_OPERATIONS
          : OPERATIONS_NOT_REQUESTED,
      })),
    };
  },
});
