'use client';

import type { SortDirection } from '@weir/ui';
import { type Nullable, type UseQueryStatesKeysMap, useQueryStates, type Values } from 'nuqs';
import type { ListState } from './list-params';
import type { SearchHistory } from './list-search';

type UseListParamsOptions<Key extends string, State> = {
  /** The sort keys the server accepts; a header asking for another column is ignored. */
  sortKeys: readonly Key[];
  /** The direction shown, for lists whose default depends on the key; else the URL's `desc`. */
  isDescending?: (params: State) => boolean;
};

/**
 * A server-side list's URL state (parsers built with `listParams`) and the handlers every list
 * wires the same way: a new filter or sort goes back to the first page, the table's sort headers
 * read and write `sort`/`desc`, the pager writes `page`.
 */
export function useListParams<Parsers extends UseQueryStatesKeysMap, Key extends string>(
  parsers: Parsers,
  { sortKeys, isDescending }: UseListParamsOptions<Key, Values<Parsers>>,
) {
  // Each sort, page or search change is a new history entry, so Back returns to the previous
  // state of the list instead of leaving the console (issue #21 item 13).
  const [params, setParams] = useQueryStates(parsers, { history: 'push' });
  // The parsers come from listParams(), so the shared keys are there; TypeScript cannot see it
  // through the generic map.
  const list = params as unknown as ListState<Key>;
  const setList = setParams as unknown as (values: Partial<Nullable<ListState<Key>>>) => Promise<unknown>;
  const descending = isDescending ? isDescending(params) : (list.desc ?? false);
  const direction: SortDirection = descending ? 'desc' : 'asc';
  return {
    params,
    setParams,
    /**
     * Sets filters (the search, a state, …) and returns to the first page; `history` 'replace'
     * is for the keystrokes after the first of one search (see `ListSearch`).
     */
    filter: (values: Partial<Nullable<Values<Parsers>>>, history: SearchHistory = 'push') =>
      void setParams({ ...values, page: 0 }, { history }),
    /** The `DataTable` sort props. */
    sort: {
      sort: { column: list.sort, direction },
      onSortChange: (column: string, direction: SortDirection) => {
        const key = sortKeys.find((candidate) => candidate === column);
        if (key !== undefined) void setList({ sort: key, desc: direction === 'desc', page: 0 });
      },
    },
    /** The `ListPager` position props. */
    paging: {
      page: list.page,
      size: list.size,
      onPageChange: (page: number) => void setList({ page }),
    },
  };
}
