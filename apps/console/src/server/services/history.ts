import { estimateTimeToZero, type HistoryValues, type InternalAdminApi } from '@weir/protocol';
import {
  type HistoryRange,
  historyRanges,
  type LagHistoryQuery,
  type LagHistoryView,
  type ThroughputHistoryQuery,
  type ThroughputHistoryView,
  type TrendsView,
} from '../api/schemas/history';

/** Points per sparkline: enough for a shape, few enough to draw a list page of them cheaply. */
export const TREND_POINTS = 60;

/** How far back the lists' sparklines reach. */
const TREND_RANGE: HistoryRange = '1h';

type HistoryAdmin = Pick<InternalAdminApi, 'describeLagHistory' | 'describeThroughputHistory'>;

/** A group's lag over time and its time-to-zero estimate (GET /groups/{groupId}/lag-history). */
export async function readLagHistory(
  internal: HistoryAdmin,
  query: LagHistoryQuery,
  now: () => number,
): Promise<LagHistoryView> {
  const asOfMs = now();
  const answer = await internal.describeLagHistory([query.groupId], {
    sinceMs: asOfMs - historyRanges[query.since],
    includePartitions: query.partitions,
  });
  const row = answer.rows.find((candidate) => candidate.groupId === query.groupId);
  const empty = { resolutionMs: answer.sampleIntervalMs, startMs: asOfMs };
  const history = row ?? {
    ...empty,
    groupId: query.groupId,
    totalLag: [],
    consumedPerSecond: [],
    producedPerSecond: [],
    partitions: [],
  };
  return {
    asOfMs,
    since: query.since,
    startMs: history.startMs,
    resolutionMs: history.resolutionMs,
    sampleIntervalMs: answer.sampleIntervalMs,
    groupId: query.groupId,
    totalLag: [...history.totalLag],
    consumedPerSecond: [...history.consumedPerSecond],
    producedPerSecond: [...history.producedPerSecond],
    partitions: history.partitions.map(({ topic, partition, lag }) => ({ topic, partition, lag: [...lag] })),
    timeToZero: estimateTimeToZero(history),
  };
}

/** A topic's produce and consume rates over time (GET /topics/{topic}/throughput-history). */
export async function readThroughputHistory(
  internal: HistoryAdmin,
  query: ThroughputHistoryQuery,
  now: () => number,
): Promise<ThroughputHistoryView> {
  const asOfMs = now();
  const answer = await internal.describeThroughputHistory([query.topic], {
    sinceMs: asOfMs - historyRanges[query.since],
  });
  const row = answer.rows.find((candidate) => candidate.topic === query.topic);
  return {
    asOfMs,
    since: query.since,
    startMs: row?.startMs ?? asOfMs,
    resolutionMs: row?.resolutionMs ?? answer.sampleIntervalMs,
    sampleIntervalMs: answer.sampleIntervalMs,
    topic: query.topic,
    recordsInPerSecond: [...(row?.recordsInPerSecond ?? [])],
    recordsOutPerSecond: [...(row?.recordsOutPerSecond ?? [])],
    bytesInPerSecond: [...(row?.bytesInPerSecond ?? [])],
    bytesOutPerSecond: [...(row?.bytesOutPerSecond ?? [])],
  };
}

/**
 * `values` in at most `points` buckets, each the largest (a lag: a spike stays visible) or the
 * mean (a rate) of the buckets it joins; null where none of them was sampled.
 */
export function downsample(values: HistoryValues, points: number, join: 'max' | 'mean'): (number | null)[] {
  const width = Math.max(1, Math.ceil(values.length / points));
  const joined: (number | null)[] = [];
  for (let start = 0; start < values.length; start += width) {
    const sampled = values.slice(start, start + width).filter((value): value is number => value !== null);
    if (sampled.length === 0) joined.push(null);
    else if (join === 'max') joined.push(Math.max(...sampled));
    else joined.push(sampled.reduce((total, value) => total + value, 0) / sampled.length);
  }
  return joined;
}

function trendsOf<T>(
  asOfMs: number,
  rows: readonly T[],
  fallbackResolutionMs: number,
  series: (row: T) => { name: string; startMs: number; resolutionMs: number; values: HistoryValues },
  join: 'max' | 'mean',
): TrendsView {
  const trends: Record<string, (number | null)[]> = {};
  let startMs = asOfMs;
  let resolutionMs = fallbackResolutionMs;
  for (const row of rows) {
    const { name, values, ...grid } = series(row);
    trends[name] = downsample(values, TREND_POINTS, join);
    startMs = grid.startMs;
    resolutionMs = grid.resolutionMs * Math.max(1, Math.ceil(values.length / TREND_POINTS));
  }
  return { asOfMs, startMs, resolutionMs, trends };
}

/** The groups list's sparklines: each group's total lag over the last hour. */
export async function readLagTrends(
  internal: HistoryAdmin,
  groupIds: readonly string[],
  now: () => number,
): Promise<TrendsView> {
  const asOfMs = now();
  if (groupIds.length === 0) return { asOfMs, startMs: asOfMs, resolutionMs: 0, trends: {} };
  const answer = await internal.describeLagHistory(groupIds, {
    sinceMs: asOfMs - historyRanges[TREND_RANGE],
  });
  return trendsOf(
    asOfMs,
    answer.rows,
    answer.sampleIntervalMs,
    (row) => ({
      name: row.groupId,
      startMs: row.startMs,
      resolutionMs: row.resolutionMs,
      values: row.totalLag,
    }),
    'max',
  );
}

/** The topics list's sparklines: records produced per second to each topic over the last hour. */
export async function readThroughputTrends(
  internal: HistoryAdmin,
  topics: readonly string[],
  now: () => number,
): Promise<TrendsView> {
  const asOfMs = now();
  if (topics.length === 0) return { asOfMs, startMs: asOfMs, resolutionMs: 0, trends: {} };
  const answer = await internal.describeThroughputHistory(topics, {
    sinceMs: asOfMs - historyRanges[TREND_RANGE],
  });
  return trendsOf(
    asOfMs,
    answer.rows,
    answer.sampleIntervalMs,
    (row) => ({
      name: row.topic,
      startMs: row.startMs,
      resolutionMs: row.resolutionMs,
      values: row.recordsInPerSecond,
    }),
    'mean',
  );
}
