import { createLoader, type inferParserType, parseAsBoolean } from 'nuqs/server';
import type { TopicListInput } from '../../../server/api/schemas/topics';
import { listParams, listWindowInput } from '../../_components/list-params';

/** The sort keys the server accepts for topics (see topicSortKeySchema). */
export const topicSortKeys = ['name', 'partitions', 'sizeBytes', 'messages'] as const;
export type TopicSortKey = (typeof topicSortKeys)[number];

/**
 * The topic list's URL state: the shared search, sort and paging (see `listParams`) and whether
 * internal topics show. A plain /topics link means "first page, by name"; everything else can be
 * shared as a link.
 */
export const topicListParams = {
  ...listParams(topicSortKeys, 'name'),
  internal: parseAsBoolean.withDefault(false),
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
  return { ...listWindowInput(params), includeInternal: params.internal };
}
