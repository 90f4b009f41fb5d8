import { DeleteGroups } from '@weir/protocol';
import { answerAllowed } from '../../security/acl/answer-allowed';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.DeleteGroups;

/**
 * DeleteGroups v0–1: removes empty groups and their offsets (NON_EMPTY_GROUP otherwise). A group
 * the principal may not delete gets GROUP_AUTHORIZATION_FAILED and stays.
 */
export const deleteGroupsHandler = defineHandler({
  api: DeleteGroups,
  versions: { min: 0, max: 1 },
  async handle(request, context, commands) {
    const results = await answerAllowed(
      request.groupsNames,
      (groupId) => context.access.allows(RULES.group, groupId),
      (allowed) => commands.groups.deleteGroups(allowed),
      (groupId) => ({ groupId, errorCode: RULES.group.denied }),
    );
    return { throttleTimeMs: 0, results };
  },
});
