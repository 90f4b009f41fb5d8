import { describe, expect, it } from 'vitest';
import { LatencyRecorder } from './latency';
import { medianBy } from './median';

describe('LatencyRecorder', () => {
  it('answers nearest-rank percentiles whatever the recording order', () => {
    const recorder = new LatencyRecorder();
    for (const latencyMs of [5, 1, 4, 2, 3, 10, 9, 8, 7, 6]) recorder.record(latencyMs);
    expect(recorder.percentileMs(50)).toBe(5);
    expect(recorder.percentileMs(99)).toBe(10);
    expect(recorder.percentileMs(0)).toBe(1);
  });

  it('is NaN when nothing was recorded', () => {
    expect(new LatencyRecorder().percentileMs(50)).toBeNaN();
  });
});

describe('medianBy', () => {
  it('picks the middle item, the lower one for an even count', () => {
    expect(medianBy([{ v: 3 }, { v: 1 }, { v: 2 }], (item) => item.v)).toEqual({ v: 2 });
    expect(medianBy([4, 1, 3, 2], (value) => value)).toBe(2);
    expect(medianBy([], (value: number) => value)).toBeUndefined();
  });
});
