import { Heartbeat } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.Heartbeat;

/**
 * Heartbeat v0–3: keeps a member's session alive and tells it when a rebalance has started. Needs
 * READ on the group.
 */
export const heartbeatHandler = defineHandler({
  api: Heartbeat,
  versions: { min: 0, max: 3 },
  async handle(request, context, services) {
    if (!context.access.allows(RULES.group, request.groupId)) {
      return { throttleTimeMs: 0, errorCode: RULES.group.denied };
    }
    const errorCode = services.groups.heartbeat({
      groupId: request.groupId,
      generationId: request.generationId,
      memberId: request.memberId,
      groupInstanceId: request.groupInstanceId,
    });
    return { throttleTimeMs: 0, errorCode };
  },
});
