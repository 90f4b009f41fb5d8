import { describe, expect, it } from 'vitest';
import type { ClientQuotaRecord } from '../metadata/metadata-store';
import { ClientQuotaManager } from './client-quota-manager';
import { QuotaIndex } from './quota-index';
import { SampledRate } from './sampled-rate';

const WINDOW = { sampleCount: 11, sampleMs: 1000 };

function managerWith(records: ClientQuotaRecord[], maxThrottleMs = Number.POSITIVE_INFINITY) {
  let nowMs = 1_000_000;
  const throttled: { entity: string; throttleMs: number }[] = [];
  const manager = new ClientQuotaManager({
    key: 'producer_byte_rate',
    window: WINDOW,
    records: () => records,
    nowMs: () => nowMs,
    observer: {
      onRecorded: () => {},
      onThrottled: (_key, entity, throttleMs) => throttled.push({ entity, throttleMs }),
    },
    maxThrottleMs,
  });
  return { manager, throttled, advance: (ms: number) => (nowMs += ms) };
}

describe('SampledRate (Kafka arithmetic)', () => {
  it('divides by at least sampleCount − 1 samples while young, then by the time since the oldest sample', () => {
    const rate = new SampledRate(WINDOW, 0);
    rate.record(10_000, 0);
    expect(rate.windowMs(0)).toBe(10_000);
    expect(rate.ratePerSecond(0)).toBe(1000);
    for (let second = 1; second <= 12; second++) rate.record(1000, second * 1000);
    // At 12 s the samples opened at 0 s and 1 s are gone; the oldest left opened at 2 s.
    expect(rate.windowMs(12_000)).toBe(10_000);
    expect(rate.ratePerSecond(12_000)).toBe(1100);
  });
});

describe('ClientQuotaManager', () => {
  it('throttles by (observed − bound) / bound × window, and not within the bound', () => {
    const { manager, throttled } = managerWith([
      { entity: { clientId: 'loader' }, values: { producer_byte_rate: 1000 } },
    ]);
    expect(manager.recordAndGetThrottleMs('alice', 'loader', 10_000)).toBe(0);
    // 15,000 bytes over the 10 s minimum window is 1,500 B/s: (1500 − 1000) / 1000 × 10 s = 5 s.
    expect(manager.recordAndGetThrottleMs('alice', 'loader', 5_000)).toBe(5_000);
    expect(throttled).toEqual([{ entity: 'client-id=loader', throttleMs: 5_000 }]);
    expect(manager.recordAndGetThrottleMs('alice', 'other-client', 1_000_000)).toBe(0);
  });

  it('bounds the throttle time where asked (the request-time quota at one sample)', () => {
    const { manager } = managerWith(
      [{ entity: { clientId: 'loader' }, values: { producer_byte_rate: 1000 } }],
      1000,
    );
    expect(manager.recordAndGetThrottleMs('alice', 'loader', 1_000_000)).toBe(1000);
  });

  it('gives each client of a default entity its own rate, and shares a user entity across client ids', () => {
    const { manager } = managerWith([
      { entity: { clientId: null }, values: { producer_byte_rate: 1000 } },
      { entity: { user: 'bob' }, values: { producer_byte_rate: 1000 } },
    ]);
    expect(manager.recordAndGetThrottleMs('alice', 'a', 10_000)).toBe(0);
    expect(manager.recordAndGetThrottleMs('alice', 'b', 10_000)).toBe(0);
    expect(manager.recordAndGetThrottleMs('bob', 'a', 10_000)).toBe(0);
    expect(manager.recordAndGetThrottleMs('bob', 'b', 10_000)).toBeGreaterThan(0);
  });

  it('forgets rates idle for a whole window, and caps an answer at what the window allows', () => {
    const { manager, advance } = managerWith([
      { entity: { clientId: null }, values: { producer_byte_rate: 1000 } },
    ]);
    expect(manager.recordAndGetThrottleMs('u', 'a', 20_000)).toBeGreaterThan(0);
    advance(11_000);
    manager.recordAndGetThrottleMs('u', 'b', 1);
    expect(manager.measuredCount).toBe(1);
    expect(manager.maxValueInWindow('u', 'a')).toBe(10_000);
  });
});

describe('QuotaIndex precedence (Kafka order)', () => {
  const ALL: ClientQuotaRecord[] = [
    { entity: { user: 'u', clientId: 'c' }, values: { producer_byte_rate: 1 } },
    { entity: { user: 'u', clientId: null }, values: { producer_byte_rate: 2 } },
    { entity: { user: 'u' }, values: { producer_byte_rate: 3 } },
    { entity: { user: null, clientId: 'c' }, values: { producer_byte_rate: 4 } },
    { entity: { user: null, clientId: null }, values: { producer_byte_rate: 5 } },
    { entity: { user: null }, values: { producer_byte_rate: 6 } },
    { entity: { clientId: 'c' }, values: { producer_byte_rate: 7 } },
    { entity: { clientId: null }, values: { producer_byte_rate: 8 } },
  ];

  it.each(ALL.map((_, index) => index))(
    'with the first %i entities removed, the next one applies',
    (skip) => {
      const index = new QuotaIndex(ALL.slice(skip), 'producer_byte_rate');
      expect(index.resolve('u', 'c')?.bound).toBe(skip + 1);
    },
  );

  it('applies nothing for a key no entity sets', () => {
    expect(new QuotaIndex(ALL, 'consumer_byte_rate').resolve('u', 'c')).toBeUndefined();
  });
});
