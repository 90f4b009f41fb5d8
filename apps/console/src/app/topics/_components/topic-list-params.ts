import { parseAsBoolean, parseAsInteger, parseAsString, parseAsStringLiteral } from 'nuqs';

/** The sort keys the server accepts for topics (see topicSortKeySchema). */
export const topicSortKeys = ['name', 'partitions', 'sizeBytes', 'messages'] as const;
export type TopicSortKey = (typeof topicSortKeys)[number];

/**
 * The topic list's URL state. Defaults are left out of the URL, so a plain /topics link means
 * "first page, by name"; everything else can be shared as a link.
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
