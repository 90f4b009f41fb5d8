import { Heartbeat } from '@weir/protocol';
import { defineHandler } from '../handler';

/** Heartbeat v0–3: keeps a member's session alive and tells it when a rebalance has started. */
export const heartbeatHandler = defineHandler({
  api: Heartbeat,
  versions: { min: 0, max: 3 },
  async handle(request, _context, commands) {
    const errorCode = commands.groups.heartbeat({
      groupId: request.groupId,
      generationId: request.generationId,
      memberId: request.memberId,
      groupInstanceId: request.groupInstanceId,
    });
    return { throttleTimeMs: 0, errorCode };
  },
});
