import {
  createLoader,
  type inferParserType,
  parseAsBoolean,
  parseAsInteger,
  parseAsString,
  parseAsStringLiteral,
} from 'nuqs/server';
import type { GroupListInput } from '../../../server/api/schemas/groups';

/** The sort keys the server accepts for groups (see groupSortKeySchema). */
export const groupSortKeys = ['name', 'state', 'lag', 'members'] as const;

/**
 * The group list's URL state, read the same way by the page (a server component, which
 * prefetches) and by the list (a client component); hence the parsers from `nuqs/server`.
 */
export const groupListParams = {
  q: parseAsString.withDefault(''),
  state: parseAsString.withDefault(''),
  sort: parseAsStringLiteral(groupSortKeys).withDefault('name'),
  desc: parseAsBoolean.withDefault(false),
  page: parseAsInteger.withDefault(0),
  size: parseAsInteger.withDefault(50),
};

export type GroupListParams = inferParserType<typeof groupListParams>;

/** Reads the list's state from a request's search params, on the server. */
export const loadGroupListParams = createLoader(groupListParams);

/** The `groups.list` input for the URL state; the server's prefetch and the client use the same one. */
export function groupListInput(params: GroupListParams): GroupListInput {
  return {
    search: params.q || undefined,
    state: params.state || undefined,
    sortBy: params.sort,
    descending: params.desc,
    offset: params.page * params.size,
    limit: params.size,
  };
}
