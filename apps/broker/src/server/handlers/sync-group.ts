import { SyncGroup } from '@weir/protocol';
import { defineHandler } from '../handler';

/**
 * SyncGroup v0–3: the leader hands in the assignment; every member's answer is held until it is
 * stored. Members the leader left out get empty bytes, never null.
 */
export const syncGroupHandler = defineHandler({
  api: SyncGroup,
  versions: { min: 0, max: 3 },
  async handle(request, _context, commands) {
    const outcome = await commands.groups.syncGroup({
      groupId: request.groupId,
      generationId: request.generationId,
      memberId: request.memberId,
      groupInstanceId: request.groupInstanceId,
      assignments: request.assignments.map((entry) => ({
        memberId: entry.memberId,
        assignment: Buffer.from(entry.assignment),
      })),
    });
    return { throttleTimeMs: 0, errorCode: outcome.errorCode, assignment: outcome.assignment };
  },
});
