import { describe, expect, it } from 'vitest';
import { RateWindow } from './rate-window';
import { TrafficRates } from './traffic-rates';

function manualClock(startMs: number) {
  const clock = { now: startMs, nowMs: () => clock.now };
  return clock;
}

describe('RateWindow', () => {
  it('divides by the time covered while the window is younger than its width', () => {
    const clock = manualClock(100_000);
    const window = new RateWindow(clock, 60, 1000);
    window.add(500);
    clock.now += 5_000;
    window.add(500);
    expect(window.ratePerSecond()).toBe(200);
  });

  it('forgets buckets that slid out of the window', () => {
    const clock = manualClock(0);
    const window = new RateWindow(clock, 10, 1000);
    window.add(1_000);
    clock.now = 20_000;
    window.add(100);
    // Only the newest bucket is inside: nine whole seconds before it, and it has just begun.
    expect(window.ratePerSecond()).toBeCloseTo(100 / 9, 9);
    clock.now = 31_000;
    expect(window.ratePerSecond()).toBe(0);
  });

  it('reuses a slot for a later bucket without adding the old amount', () => {
    const clock = manualClock(0);
    const window = new RateWindow(clock, 2, 1000);
    window.add(7);
    clock.now = 2_000;
    window.add(3);
    // The slot of bucket 0 now holds bucket 2; bucket 1 (empty) and the start of bucket 2 are covered.
    expect(window.ratePerSecond()).toBe(3);
  });
});

describe('TrafficRates', () => {
  it('keeps one window per direction', () => {
    const clock = manualClock(0);
    const rates = new TrafficRates(clock, 60, 1000);
    rates.produced(1_000, 10);
    rates.fetched(2_000, 20);
    rates.requestServed();
    rates.requestServed();
    clock.now = 2_000;
    expect(rates.snapshot()).toEqual({
      windowMs: 60_000,
      bytesInPerSecond: 500,
      recordsInPerSecond: 5,
      bytesOutPerSecond: 1_000,
      recordsOutPerSecond: 10,
      requestsPerSecond: 1,
    });
  });
});
