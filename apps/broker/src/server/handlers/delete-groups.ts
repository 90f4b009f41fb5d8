import { DeleteGroups } from '@weir/protocol';
import { defineHandler } from '../handler';

/** DeleteGroups v0–1: removes empty groups and their offsets (NON_EMPTY_GROUP otherwise). */
export const deleteGroupsHandler = defineHandler({
  api: DeleteGroups,
  versions: { min: 0, max: 1 },
  async handle(request, _context, commands) {
    return { throttleTimeMs: 0, results: await commands.groups.deleteGroups(request.groupsNames) };
  },
});
