import { ErrorCode, LeaveGroup } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.LeaveGroup;

/**
 * LeaveGroup v0–3. v0–2 name one member and answer with one error code; v3 (kafkajs) names a
 * batch of members, each possibly by static instance id, and answers member by member. Needs
 * READ on the group.
 */
export const leaveGroupHandler = defineHandler({
  api: LeaveGroup,
  versions: { min: 0, max: 3 },
  async handle(request, context, services) {
    if (!context.access.allows(RULES.group, request.groupId)) {
      return { throttleTimeMs: 0, errorCode: RULES.group.denied, members: [] };
    }
    if (context.header.apiVersion < 3) {
      const outcome = services.groups.leave(request.groupId, [
        { memberId: request.memberId, groupInstanceId: null },
      ]);
      const errorCode =
        outcome.errorCode !== ErrorCode.NONE
          ? outcome.errorCode
          : (outcome.members[0]?.errorCode ?? ErrorCode.NONE);
      return { throttleTimeMs: 0, errorCode, members: [] };
    }
    const outcome = services.groups.leave(
      request.groupId,
      request.members.map((member) => ({
        memberId: member.memberId,
        groupInstanceId: member.groupInstanceId,
      })),
    );
    return { throttleTimeMs: 0, errorCode: outcome.errorCode, members: outcome.members };
  },
});
