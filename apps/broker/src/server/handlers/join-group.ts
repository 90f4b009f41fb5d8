import { JoinGroup } from '@weir/protocol';
import { joinError } from '../../group/member';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.JoinGroup;

/**
 * JoinGroup v0–5. The answer is held until the rebalance's join phase completes. From v4 a member
 * without an id first gets MEMBER_ID_REQUIRED with one; v5 carries the static group.instance.id.
 * Every member request needs READ on the group; without, GROUP_AUTHORIZATION_FAILED.
 */
export const joinGroupHandler = defineHandler({
  api: JoinGroup,
  versions: { min: 0, max: 5 },
  async handle(request, context, services) {
    const outcome = !context.access.allows(RULES.group, request.groupId)
      ? joinError(RULES.group.denied)
      : await services.groups.join({
          groupId: request.groupId,
          memberId: request.memberId,
          groupInstanceId: request.groupInstanceId,
          sessionTimeoutMs: request.sessionTimeoutMs,
          rebalanceTimeoutMs: request.rebalanceTimeoutMs,
          protocolType: request.protocolType,
          // Copies: the decoded bytes are views into the request frame, and the group keeps them.
          protocols: request.protocols.map((protocol) => ({
            name: protocol.name,
            metadata: Buffer.from(protocol.metadata),
          })),
          clientId: context.header.clientId ?? '',
          clientHost: context.clientHost,
          requireKnownMemberId: context.header.apiVersion >= 4,
        });
    return {
      throttleTimeMs: 0,
      errorCode: outcome.errorCode,
      generationId: outcome.generationId,
      protocolName: outcome.protocolName,
      leader: outcome.leader,
      memberId: outcome.memberId,
      members: outcome.members,
    };
  },
});
