import { performance } from 'node:perf_hooks';

/** The input of `topics.list` the topic page sends for its first page (see topic-list.tsx). */
export interface TopicListQuery {
  search?: string;
  offset: number;
  limit: number;
}

export interface TopicPage {
  totalCount: number;
  topics: { name: string }[];
}

/** A `topics.list` query as a plain tRPC GET (what httpBatchLink sends, minus the batch wrapper). */
export function topicListUrl(consoleUrl: string, query: TopicListQuery): string {
  return `${consoleUrl}/api/trpc/topics.list?input=${encodeURIComponent(JSON.stringify(query))}`;
}

/** The same page over REST. */
export function restTopicListUrl(consoleUrl: string, query: TopicListQuery): string {
  const parameters = new URLSearchParams({ offset: String(query.offset), limit: String(query.limit) });
  if (query.search !== undefined) parameters.set('search', query.search);
  return `${consoleUrl}/api/v1/topics?${parameters}`;
}

/** One page over tRPC, unwrapped from `{ result: { data } }`. */
export async function fetchTopicPage(consoleUrl: string, query: TopicListQuery): Promise<TopicPage> {
  const response = await fetch(topicListUrl(consoleUrl, query));
  if (!response.ok) throw new Error(`topics.list answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { result: { data: TopicPage } };
  return body.result.data;
}

/**
 * Times `count` sequential GETs of `url` (body read to the end) after `warmup` untimed ones, on a
 * kept-alive connection, as a browser reusing its connection to the console would.
 */
export async function timeGets(url: string, count: number, warmup = 3): Promise<number[]> {
  const timesMs: number[] = [];
  for (let index = 0; index < warmup + count; index++) {
    const startMs = performance.now();
    const response = await fetch(url);
    const body = await response.text();
    const elapsedMs = performance.now() - startMs;
    if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${body.slice(0, 200)}`);
    if (index >= warmup) timesMs.push(elapsedMs);
  }
  return timesMs;
}
