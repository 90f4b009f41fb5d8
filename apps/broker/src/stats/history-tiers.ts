/** One resolution of the history: `slots` buckets of `resolutionMs` each, in a ring. */
export interface HistoryTier {
  readonly resolutionMs: number;
  readonly slots: number;
}

/** How far back the fine tier reaches: every sample of the last hour (360 at the default 10 s). */
export const FINE_SPAN_MS = 60 * 60 * 1000;
/** The coarse tier's resolution, unless sampling is slower than that. */
export const COARSE_RESOLUTION_MS = 60_000;
/** How far back the coarse tier reaches: the "at least 24 h" (#21 item 2). */
export const COARSE_SPAN_MS = 24 * 60 * 60 * 1000;

/**
 * The tiers for a sampling interval: every sample of the last hour, and one-minute buckets for 24
 * hours. The coarse tier's size is fixed; the fine tier's follows the interval (360 slots at the
 * default 10 s; a test's 200 ms keeps 18,000), so the bytes per series are fixed by the
 * configuration and the store's size by the series count.
 */
export function historyTiers(sampleIntervalMs: number): HistoryTier[] {
  const coarseMs = Math.max(COARSE_RESOLUTION_MS, sampleIntervalMs);
  return [
    { resolutionMs: sampleIntervalMs, slots: Math.ceil(FINE_SPAN_MS / sampleIntervalMs) },
    { resolutionMs: coarseMs, slots: Math.ceil(COARSE_SPAN_MS / coarseMs) },
  ];
}

/** Bytes one value takes, in memory and in the file: a float64, exact for integers up to 2^53. */
export const BYTES_PER_VALUE = 8;

/**
 * What one series costs in memory and on disk, whatever its age: one float64 per slot of every
 * tier. At the default tiers that is (360 + 1440) × 8 = 14,400 bytes, so 1,000 group partitions
 * keep 24 hours in 14.4 MB (14,400,000 bytes, plus their keys in the file's header), and that
 * stays the size however long the broker runs: the store is bounded by `stats.history.maxSeries`
 * (5,000 series, 72 MB, by default), not by time.
 */
export function bytesPerSeries(tiers: readonly HistoryTier[]): number {
  return tiers.reduce((total, tier) => total + tier.slots * BYTES_PER_VALUE, 0);
}
