import { describe, expect, it } from 'vitest';
import { consume, measure, sinkValue } from './measure';

describe('measure', () => {
  it('runs the operation at least as often as it reports, after a warm-up', () => {
    let calls = 0;
    const result = measure(
      () => {
        calls++;
      },
      { warmupMs: 1, budgetMs: 5 },
    );
    expect(result.iterations).toBeGreaterThan(0);
    expect(calls).toBeGreaterThan(result.iterations);
    expect(Number.isFinite(result.opsPerSecond)).toBe(true);
  });

  it('folds consumed values into the sink', () => {
    const before = sinkValue();
    consume(5);
    expect(sinkValue()).toBe((before + 5) | 0);
  });
});
