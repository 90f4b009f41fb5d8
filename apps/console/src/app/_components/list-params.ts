import { parseAsBoolean, parseAsInteger, parseAsString, parseAsStringLiteral } from 'nuqs/server';

/** Rows per page when the URL names no `size`. */
export const defaultListPageSize = 50;

/**
 * The URL state every server-side list (topics, groups, transactions) shares: `q` the search,
 * `sort` one of the keys the server accepts, `desc`, `page` counted from 0 and `size`. Defaults
 * are left out of the URL, so a plain link means "first page, default order". A list spreads these
 * into its own parser map and adds its filters. The parsers come from `nuqs/server` so that the
 * page (a server component, which prefetches) and the list (a client component) read the URL the
 * same way.
 */
export function listParams<Key extends string>(sortKeys: readonly Key[], defaultSort: Key) {
  return {
    q: parseAsString.withDefault(''),
    sort: parseAsStringLiteral(sortKeys).withDefault(defaultSort),
    desc: parseAsBoolean.withDefault(false),
    page: parseAsInteger.withDefault(0),
    size: parseAsInteger.withDefault(defaultListPageSize),
  };
}

/**
 * The shared part of a list's URL state as the list reads it. `desc` is null only for a list whose
 * parser has no default (its direction then depends on the sort key; see `isDescending` options).
 */
export type ListState<Key extends string> = {
  q: string;
  sort: Key;
  desc: boolean | null;
  page: number;
  size: number;
};

/** The part of a `*.list` procedure's input that every server-side list shares. */
export type ListWindowInput<Key extends string> = {
  search: string | undefined;
  sortBy: Key;
  descending: boolean;
  offset: number;
  limit: number;
};

/**
 * The search, order and page of a list's input, from its URL state; the server's prefetch and the
 * client use the same one. `descending` defaults to the URL's `desc`.
 */
export function listWindowInput<Key extends string>(
  params: ListState<Key>,
  descending: boolean = params.desc ?? false,
): ListWindowInput<Key> {
  return {
    search: params.q || undefined,
    sortBy: params.sort,
    descending,
    offset: params.page * params.size,
    limit: params.size,
  };
}
