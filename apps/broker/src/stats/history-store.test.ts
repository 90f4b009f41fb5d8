import { describe, expect, it } from 'vitest';
import { HistoryFileError, type HistorySample, HistoryStore } from './history-store';
import { bytesPerSeries, historyTiers } from './history-tiers';

const TIERS = [
  { resolutionMs: 1000, slots: 5 },
  { resolutionMs: 10_000, slots: 6 },
];

const gauge = (key: string, value: number): HistorySample => ({ key, kind: 'gauge', value });
const count = (key: string, value: number): HistorySample => ({ key, kind: 'count', value });

/** Records one sampling per second from `fromMs`, the value given by `valueAt`. */
function sampleEverySecond(
  store: HistoryStore,
  fromMs: number,
  seconds: number,
  samplesAt: (atMs: number) => HistorySample[],
): void {
  for (let second = 0; second < seconds; second++) {
    const atMs = fromMs + second * 1000;
    store.record(atMs, 1000, samplesAt(atMs));
  }
}

describe('HistoryStore', () => {
  it('keeps every sample in the fine tier and the last one of each bucket in the coarse tier', () => {
    const store = new HistoryStore(TIERS, 10);
    // Lag 0, 1, 2, … at 100 s, 101 s, …: the coarse buckets end on 9, 19, 29.
    sampleEverySecond(store, 100_000, 30, (atMs) => [gauge('lag', (atMs - 100_000) / 1000)]);
    const nowMs = 129_000;
    const fine = store.read('lag', store.window(nowMs - 4_000, nowMs));
    expect(fine).toEqual({ resolutionMs: 1000, startMs: 125_000, values: [25, 26, 27, 28, 29] });
    const coarse = store.read('lag', store.window(nowMs - 30_000, nowMs));
    expect(coarse.resolutionMs).toBe(10_000);
    expect(coarse.startMs).toBe(90_000);
    // 90–99 s had no sample; each later bucket holds its last one.
    expect(coarse.values).toEqual([Number.NaN, 9, 19, 29]);
  });

  it('reads an hour from the fine tier even when asked a little more than it holds', () => {
    const store = new HistoryStore(TIERS, 10);
    sampleEverySecond(store, 100_000, 5, (atMs) => [gauge('lag', atMs / 1000)]);
    const nowMs = 104_000;
    // The fine tier holds 5 s; 5.5 s back is short of one coarse bucket (10 s): still the fine one.
    expect(store.window(nowMs - 5_500, nowMs).resolutionMs).toBe(1000);
    expect(store.read('lag', store.window(nowMs - 5_500, nowMs)).values).toEqual([100, 101, 102, 103, 104]);
    expect(store.window(nowMs - 15_001, nowMs).resolutionMs).toBe(10_000);
  });

  it('adds counts up per bucket and reads them per second of the time sampled', () => {
    const store = new HistoryStore(TIERS, 10);
    // 50 records per second for 20 s, then 10 per second.
    sampleEverySecond(store, 200_000, 30, (atMs) => [count('produced', atMs < 220_000 ? 50 : 10)]);
    const nowMs = 229_000;
    expect(store.read('produced', store.window(nowMs - 2_000, nowMs)).values).toEqual([10, 10, 10]);
    expect(store.read('produced', store.window(nowMs - 25_000, nowMs)).values).toEqual([50, 50, 10]);
  });

  it('reads a coarse bucket still being filled by the time it has covered so far', () => {
    const store = new HistoryStore(TIERS, 10);
    sampleEverySecond(store, 300_000, 3, () => [count('consumed', 30)]);
    const window = store.window(290_000, 306_000);
    expect(window.resolutionMs).toBe(10_000);
    expect(store.read('consumed', window).values).toEqual([Number.NaN, 30]);
  });

  it('forgets what its rings no longer reach', () => {
    const store = new HistoryStore(TIERS, 10);
    sampleEverySecond(store, 0, 3, () => [gauge('lag', 7)]);
    // 100 s later the fine ring (5 s) and the coarse ring (60 s) were both passed over.
    store.record(100_000, 1000, [gauge('lag', 8)]);
    const coarse = store.read('lag', store.window(0, 100_000));
    expect(coarse.startMs).toBe(50_000);
    expect(coarse.values).toEqual([Number.NaN, Number.NaN, Number.NaN, Number.NaN, Number.NaN, 8]);
    const fine = store.read('lag', store.window(96_000, 100_000));
    expect(fine.values).toEqual([Number.NaN, Number.NaN, Number.NaN, Number.NaN, 8]);
  });

  it('drops a series not sampled for as long as the coarse tier reaches', () => {
    const store = new HistoryStore(TIERS, 10);
    store.record(0, 1000, [gauge('gone', 1), gauge('kept', 1)]);
    store.record(59_000, 1000, [gauge('kept', 2)]);
    expect(store.has('gone')).toBe(true);
    store.record(61_000, 1000, [gauge('kept', 3)]);
    expect(store.has('gone')).toBe(false);
    expect(store.has('kept')).toBe(true);
    expect(store.seriesCount).toBe(1);
  });

  it('records no more series than its cap, and takes new ones once old ones age out', () => {
    const store = new HistoryStore(TIERS, 2);
    store.record(0, 1000, [gauge('a', 1), gauge('b', 1), gauge('c', 1)]);
    expect(store.seriesCount).toBe(2);
    expect(store.refusedSeries).toBe(1);
    expect(store.has('c')).toBe(false);
    expect(store.valueBytes).toBe(2 * bytesPerSeries(TIERS));
    store.record(61_000, 1000, [gauge('c', 1)]);
    expect(store.refusedSeries).toBe(0);
    expect(store.has('c')).toBe(true);
  });

  it('skips a sampling whose bucket is older than the one its slot holds (the clock went back)', () => {
    const store = new HistoryStore(TIERS, 10);
    store.record(10_000, 1000, [gauge('lag', 5)]);
    store.record(5_000, 1000, [gauge('lag', 99)]);
    expect(store.read('lag', store.window(10_000, 10_000)).values).toEqual([5]);
  });

  it('reads an unknown series as NaN over the window', () => {
    const store = new HistoryStore(TIERS, 10);
    store.record(1_000, 1000, [gauge('lag', 1)]);
    expect(store.read('other', store.window(0, 1_000)).values).toEqual([Number.NaN, Number.NaN]);
  });

  it('decodes what it encoded, bucket for bucket', () => {
    const store = new HistoryStore(TIERS, 10);
    sampleEverySecond(store, 400_000, 25, (atMs) => [
      gauge('lag', atMs / 1000),
      count('produced', 3),
      ...(atMs % 2000 === 0 ? [gauge('partition "p" \u0000 0', 1)] : []),
    ]);
    const copy = HistoryStore.decode(store.encode(), TIERS, 10);
    expect(copy.seriesCount).toBe(3);
    for (const sinceMs of [420_000, 395_000]) {
      const window = store.window(sinceMs, 424_000);
      for (const key of ['lag', 'produced', 'partition "p" \u0000 0'])
        expect(copy.read(key, window)).toEqual(store.read(key, window));
    }
    // The copy goes on where the original stopped.
    copy.record(425_000, 1000, [count('produced', 3)]);
    expect(copy.read('produced', copy.window(423_000, 425_000)).values).toEqual([3, 3, 3]);
  });

  it('refuses bytes that were damaged, cut or written for other tiers', () => {
    const store = new HistoryStore(TIERS, 10);
    store.record(1_000, 1000, [gauge('lag', 1)]);
    const bytes = store.encode();
    const flipped = Buffer.from(bytes);
    flipped[bytes.length - 10] = flipped[bytes.length - 10]! ^ 0xff;
    expect(() => HistoryStore.decode(flipped, TIERS, 10)).toThrow(HistoryFileError);
    expect(() => HistoryStore.decode(bytes.subarray(0, 20), TIERS, 10)).toThrow(HistoryFileError);
    expect(() => HistoryStore.decode(Buffer.from('{"events":[]}'), TIERS, 10)).toThrow(HistoryFileError);
    expect(() => HistoryStore.decode(bytes, historyTiers(1000), 10)).toThrow('other tiers');
  });

  it('costs the same bytes per series whatever its age: 14,400 at the default tiers', () => {
    const tiers = historyTiers(10_000);
    expect(tiers).toEqual([
      { resolutionMs: 10_000, slots: 360 },
      { resolutionMs: 60_000, slots: 1440 },
    ]);
    expect(bytesPerSeries(tiers)).toBe(14_400);
    const store = new HistoryStore(tiers, 100);
    const samples = Array.from({ length: 10 }, (_, index) => gauge(`p${index}`, index));
    // A real clock's times, so the header's last-sampled times keep their number of digits.
    const startMs = 1_800_000_000_000;
    store.record(startMs, 10_000, samples);
    const sizeAfterOne = store.encode().length;
    for (let atMs = startMs; atMs <= startMs + 2 * 86_400_000; atMs += 60_000)
      store.record(atMs, 10_000, samples);
    expect(store.encode().length).toBe(sizeAfterOne);
    expect(sizeAfterOne).toBeGreaterThan(10 * 14_400);
    expect(sizeAfterOne).toBeLessThan(10 * 14_400 + 2 * 1800 * 8 + 1000);
  });
});
