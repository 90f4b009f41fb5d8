import { performance } from 'node:perf_hooks';

/** The result of timing one operation. */
export interface Measurement {
  /** Completed operations per second. */
  opsPerSecond: number;
  /** How many operations were timed (after warm-up). */
  iterations: number;
}

/** Time budgets of one measurement. */
export interface MeasureOptions {
  /** Time spent running the operation before timing starts, so the JIT has optimized it. */
  warmupMs: number;
  /** Minimum time the timed runs must cover. */
  budgetMs: number;
}

const DEFAULT_OPTIONS: MeasureOptions = { warmupMs: 60, budgetMs: 300 };

/**
 * A value the benchmarks fold results into, so the engine cannot drop an operation whose result is
 * otherwise unused.
 */
let sink = 0;

/** Folds a result into the sink. */
export function consume(value: number): void {
  sink = (sink + value) | 0;
}

/** The folded results; printing it keeps every measured operation observable. */
export function sinkValue(): number {
  return sink;
}

function runFor(operation: () => void, minimumMs: number): { iterations: number; elapsedMs: number } {
  let iterations = 0;
  let batch = 1;
  const start = performance.now();
  let elapsedMs = 0;
  // Run in growing batches so the clock is read rarely for fast operations.
  while (elapsedMs < minimumMs) {
    for (let index = 0; index < batch; index++) operation();
    iterations += batch;
    elapsedMs = performance.now() - start;
    if (elapsedMs < minimumMs / 4) batch *= 2;
  }
  return { iterations, elapsedMs };
}

/** Warms `operation` up, then runs it for at least the budget and reports its rate. */
export function measure(operation: () => void, options: Partial<MeasureOptions> = {}): Measurement {
  const { warmupMs, budgetMs } = { ...DEFAULT_OPTIONS, ...options };
  runFor(operation, warmupMs);
  const { iterations, elapsedMs } = runFor(operation, budgetMs);
  return { opsPerSecond: (iterations * 1000) / elapsedMs, iterations };
}
