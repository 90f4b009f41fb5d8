import { describe, expect, it } from 'vitest';
import { ReplicationThrottle } from './replication-throttle';

describe('ReplicationThrottle', () => {
  it('holds nothing back without a rate', () => {
    const throttle = new ReplicationThrottle(
      () => undefined,
      () => 0,
    );
    expect(throttle.allowanceBytes()).toBeUndefined();
    throttle.record(10_000_000);
    expect(throttle.waitMs()).toBe(0);
  });

  it('lets through one rate per second, saving at most one second', () => {
    let nowMs = 0;
    const throttle = new ReplicationThrottle(
      () => 1000,
      () => nowMs,
    );
    expect(throttle.allowanceBytes()).toBe(0);
    expect(throttle.waitMs()).toBe(1);
    nowMs = 500;
    expect(throttle.allowanceBytes()).toBe(500);
    throttle.record(1500);
    // 1000 bytes over: one second to wait them off, and a little for the first byte.
    expect(throttle.allowanceBytes()).toBe(0);
    expect(throttle.waitMs()).toBe(1001);
    nowMs = 10_000;
    expect(throttle.allowanceBytes()).toBe(1000);
  });

  it('applies a new rate at once, starting from an empty second', () => {
    let nowMs = 0;
    let rate: number | undefined = 1000;
    const throttle = new ReplicationThrottle(
      () => rate,
      () => nowMs,
    );
    nowMs = 1000;
    expect(throttle.allowanceBytes()).toBe(1000);
    rate = 100;
    expect(throttle.allowanceBytes()).toBe(0);
    nowMs = 1500;
    expect(throttle.allowanceBytes()).toBe(50);
    rate = undefined;
    expect(throttle.allowanceBytes()).toBeUndefined();
  });
});
