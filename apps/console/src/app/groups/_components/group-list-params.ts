import { createLoader, type inferParserType, parseAsString } from 'nuqs/server';
import type { GroupListInput } from '../../../server/api/schemas/groups';
import { listParams, listWindowInput } from '../../_components/list-params';

/** The sort keys the server accepts for groups (see groupSortKeySchema). */
export const groupSortKeys = ['name', 'state', 'lag', 'members'] as const;

/** The group list's URL state: the shared search, sort and paging (see `listParams`) and a state. */
export const groupListParams = {
  ...listParams(groupSortKeys, 'name'),
  state: parseAsString.withDefault(''),
};

export type GroupListParams = inferParserType<typeof groupListParams>;

/** Reads the list's state from a request's search params, on the server. */
export const loadGroupListParams = createLoader(groupListParams);

/** The `groups.list` input for the URL state; the server's prefetch and the client use the same one. */
export function groupListInput(params: GroupListParams): GroupListInput {
  return { ...listWindowInput(params), state: params.state || undefined };
}
