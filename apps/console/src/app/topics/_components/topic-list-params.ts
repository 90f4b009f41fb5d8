import {
  createLoader,
  type inferParserType,
  parseAsBoolean,
  parseAsInteger,
  parseAsString,
  parseAsStringLiteral,
} from 'nuqs/server';
import type { TopicListInput } from '../../../server/api/schemas/topics';

/** The sort keys the server accepts for topics (see topicSortKeySchema). */
export const topicSortKeys = ['name', 'partitions', 'sizeBytes', 'messages'] as const;
export type TopicSortKey = (typeof topicSortKeys)[number];

/**
 * The topic list's URL state. Defaults are left out of the URL, so a plain /topics link means
 * "first page, by name"; everything else can be shared as a link. The parsers come from
 * `nuqs/server` so that the page (a server component, which prefetches) and the list (a client
 * component) read the URL the same way.
 */
export const topicListParams = {
  q: parseAsString.withDefault(''),
  internal: parseAsBoolean.withDefault(false),
  sort: parseAsStringLiteral(topicSortKeys).withDefault('name'),
  desc: parseAsBoolean.withDefault(false),
  page: parseAsInteger.withDefault(0),
  size: parseAsInteger.withDefault(50),
};

export const pageSizeOptions = [25, 50, 100, 200].map((size) => ({
  value: String(size),
  label: `${size} / page`,
}));

export type TopicListParams = inferParserType<typeof topicListParams>;

/** Reads the list's state from a request's search params, on the server. */
export const loadTopicListParams = createLoader(topicListParams);

/** The `topics.list` input for the URL state; the server's prefetch and the client use the same one. */
export function topicListInput(params: TopicListParams): TopicListInput {
  return {
    search: params.q || undefined,
    includeInternal: params.internal,
    sortBy: params.sort,
    descending: params.desc,
    offset: params.page * params.size,
    limit: params.size,
  };
}
