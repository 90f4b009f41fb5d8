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
  async handle(request, context, services) {
    const results = await answerAllowed(
      request.groupsNames,
      (groupId) => context.access.allows(RULES.group, groupId),
      async (allowed) => {
        const results = [];
        for (const groupId of allowed) {
          results.push({ groupId, errorCode: await services.groups.deleteGroup(groupId) });
        }
        return results;
      },
      (groupId) => ({ groupId, errorCode: RULES.group.denied }),
    );
    return { throttleTimeMs: 0, results };
  },
});
