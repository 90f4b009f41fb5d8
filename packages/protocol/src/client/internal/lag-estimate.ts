import type { GroupLagHistory, HistoryValues } from './history-types';

/** How a group's lag is going, by its recent rates. */
export type LagTrend = 'caught-up' | 'catching-up' | 'not-catching-up' | 'unknown';

export interface TimeToZeroEstimate {
  readonly trend: LagTrend;
  /** The newest total lag sampled; null when there is none. */
  readonly totalLag: number | null;
  /** Mean rates over the buckets the estimate read; null without samples. */
  readonly consumedPerSecond: number | null;
  readonly producedPerSecond: number | null;
  /** Seconds until the lag reaches zero at these rates: 0 when caught up; null unless catching up. */
  readonly secondsToZero: number | null;
  /** How far back the rates reach, in ms (the buckets read times their resolution). */
  readonly basisMs: number;
}

/**
 * The buckets the rates are averaged over: six, a minute at the default 10 s sampling, like the
 * overview's one-minute rates.
 */
export const ESTIMATE_BUCKETS = 6;

/**
 * When a group's lag reaches zero (#21 item 2): total lag / (consume rate − produce rate) while
 * the group consumes faster than its partitions grow, "not catching up" otherwise. The rates are
 * the means of the last `buckets` buckets of the history that have both; the lag is the newest
 * sampled. Without a lag sample, or with lag but no rates, the trend is unknown.
 */
export function estimateTimeToZero(history: GroupLagHistory, buckets = ESTIMATE_BUCKETS): TimeToZeroEstimate {
  const totalLag = newest(history.totalLag);
  const consumed: number[] = [];
  const produced: number[] = [];
  const length = history.consumedPerSecond.length;
  for (let index = length - 1; index >= 0 && consumed.length < buckets; index--) {
    const consumedRate = history.consumedPerSecond[index];
    const producedRate = history.producedPerSecond[index];
    if (
      consumedRate === null ||
      consumedRate === undefined ||
      producedRate === null ||
      producedRate === undefined
    )
      continue;
    consumed.push(consumedRate);
    produced.push(producedRate);
  }
  const consumedPerSecond = mean(consumed);
  const producedPerSecond = mean(produced);
  const basisMs = consumed.length * history.resolutionMs;
  const base = { totalLag, consumedPerSecond, producedPerSecond, basisMs };
  if (totalLag === null) return { ...base, trend: 'unknown', secondsToZero: null };
  if (totalLag === 0) return { ...base, trend: 'caught-up', secondsToZero: 0 };
  if (consumedPerSecond === null || producedPerSecond === null)
    return { ...base, trend: 'unknown', secondsToZero: null };
  const gainingPerSecond = consumedPerSecond - producedPerSecond;
  if (gainingPerSecond <= 0) return { ...base, trend: 'not-catching-up', secondsToZero: null };
  return { ...base, trend: 'catching-up', secondsToZero: totalLag / gainingPerSecond };
}

function newest(values: HistoryValues): number | null {
  for (let index = values.length - 1; index >= 0; index--) {
    const value = values[index];
    if (value !== null && value !== undefined) return value;
  }
  return null;
}

function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return values.reduce((total, value) => total + value, 0) / values.length;
}
