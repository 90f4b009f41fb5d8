import { describe, expect, it } from 'vitest';
import { addSample, rateWindowMs, tailRates } from '../src/app/topics/[topic]/messages/_components/tail-rate';
import { RowAllowance } from '../src/server/services/tail-allowance';

describe('the live tail rate', () => {
  it('averages the counters over the samples of the last window', () => {
    let samples = [{ atMs: 0, arrivedRecords: 0, sentRows: 0 }];
    samples = addSample(samples, { atMs: 1_000, arrivedRecords: 10, sentRows: 4 });
    samples = addSample(samples, { atMs: 2_000, arrivedRecords: 30, sentRows: 8 });
    expect(tailRates(samples)).toEqual({ arrivedPerSecond: 15, sentPerSecond: 4 });
  });

  it('forgets samples older than the window, so an idle tail falls to 0', () => {
    let samples = [{ atMs: 0, arrivedRecords: 0, sentRows: 0 }];
    samples = addSample(samples, { atMs: 1_000, arrivedRecords: 50, sentRows: 50 });
    for (let atMs = 2_000; atMs <= 1_000 + rateWindowMs + 1_000; atMs += 1_000) {
      samples = addSample(samples, { atMs, arrivedRecords: 50, sentRows: 50 });
    }
    expect(samples[0]!.atMs).toBeGreaterThanOrEqual(1_000);
    expect(tailRates(samples)).toEqual({ arrivedPerSecond: 0, sentPerSecond: 0 });
  });

  it('is 0 with a single sample', () => {
    expect(tailRates([{ atMs: 5, arrivedRecords: 3, sentRows: 3 }])).toEqual({
      arrivedPerSecond: 0,
      sentPerSecond: 0,
    });
  });
});

describe('the tail allowance (rate cap)', () => {
  it('allows a second of rows at once, then refills at the rate', () => {
    const allowance = new RowAllowance(10, 0);
    expect(allowance.available(0)).toBe(10);
    allowance.spend(10);
    expect(allowance.available(0)).toBe(0);
    expect(allowance.msUntilOne()).toBe(100);
    expect(allowance.available(350)).toBe(3);
    // Never more than one second's worth saved up.
    expect(allowance.available(60_000)).toBe(10);
  });
});
