import { JoinGroup } from '@weir/protocol';
import { defineHandler } from '../handler';

/**
 * JoinGroup v0–5. The answer is held until the rebalance's join phase completes. From v4 a member
 * without an id first gets MEMBER_ID_REQUIRED with one; v5 carries the static group.instance.id.
 */
export const joinGroupHandler = defineHandler({
  api: JoinGroup,
  versions: { min: 0, max: 5 },
  async handle(request, context, commands) {
    const outcome = await commands.groups.joinGroup({
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
