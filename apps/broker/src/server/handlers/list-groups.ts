import { ListGroups } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.ListGroups;

/**
 * ListGroups v0–2: every group this coordinator holds, with its protocol type. With DESCRIBE on
 * the cluster every group is listed; otherwise only those the principal may describe.
 */
export const listGroupsHandler = defineHandler({
  api: ListGroups,
  versions: { min: 0, max: 2 },
  async handle(_request, context, services) {
    const { access } = context;
    const { errorCode, groups } = services.groups.listGroups();
    const seesAll = access.allows(RULES.all);
    return {
      throttleTimeMs: 0,
      errorCode,
      groups: groups
        .filter((group) => seesAll || access.allows(RULES.group, group.groupId))
        .map((group) => ({ groupId: group.groupId, protocolType: group.protocolType })),
    };
  },
});
