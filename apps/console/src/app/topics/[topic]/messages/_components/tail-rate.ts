/** One stats sample of a live tail: when, and the tail's cumulative counters then. */
export type TailSample = { atMs: number; arrivedRecords: number; sentRows: number };

/** The span the live rate is averaged over: long enough to be steady, short enough to follow a change. */
export const rateWindowMs = 5_000;

/** Keeps the samples of the last `rateWindowMs` (and the one just before, so the window is full). */
export function addSample(samples: readonly TailSample[], sample: TailSample): TailSample[] {
  const kept = [...samples, sample];
  while (kept.length > 2 && kept[1]!.atMs <= sample.atMs - rateWindowMs) kept.shift();
  return kept;
}

/** Records appended per second, and rows shown per second, over the samples; 0 with fewer than two. */
export function tailRates(samples: readonly TailSample[]): {
  arrivedPerSecond: number;
  sentPerSecond: number;
} {
  const first = samples[0];
  const last = samples.at(-1);
  if (first === undefined || last === undefined || last.atMs <= first.atMs) {
    return { arrivedPerSecond: 0, sentPerSecond: 0 };
  }
  const seconds = (last.atMs - first.atMs) / 1000;
  return {
    arrivedPerSecond: (last.arrivedRecords - first.arrivedRecords) / seconds,
    sentPerSecond: (last.sentRows - first.sentRows) / seconds,
  };
}
