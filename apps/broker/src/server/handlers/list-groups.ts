import { ListGroups } from '@weir/protocol';
import { defineHandler } from '../handler';

/** ListGroups v0–2: every group this coordinator holds, with its protocol type. */
export const listGroupsHandler = defineHandler({
  api: ListGroups,
  versions: { min: 0, max: 2 },
  async handle(_request, _context, commands) {
    const { errorCode, groups } = commands.groups.listGroups();
    return {
      throttleTimeMs: 0,
      errorCode,
      groups: groups.map((group) => ({ groupId: group.groupId, protocolType: group.protocolType })),
    };
  },
});
