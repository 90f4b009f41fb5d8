import { SyncGroup } from '@weir/protocol';
import { syncError } from '../../group/member';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.SyncGroup;

/**
 * SyncGroup v0–3: the leader hands in the assignment; every member's answer is held until it is
 * stored. Members the leader left out get empty bytes, never null. Needs READ on the group.
 */
export const syncGroupHandler = defineHandler({
  api: SyncGroup,
  versions: { min: 0, max: 3 },
  async handle(request, context, services) {
    const outcome = !context.access.allows(RULES.group, request.groupId)
      ? syncError(RULES.group.denied)
      : await services.groups.sync({
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
