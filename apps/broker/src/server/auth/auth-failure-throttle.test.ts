import { describe, expect, it } from 'vitest';
import type { GroupScheduler } from '../../group/group-scheduler';
import { AUTH_FAILURE_MAX_FACTOR, AuthFailureThrottle } from './auth-failure-throttle';

/** A scheduler whose clock the test sets; timers fire at once and their delays are recorded. */
function fakeScheduler() {
  const delays: number[] = [];
  let nowMs = 0;
  const scheduler: GroupScheduler = {
    nowMs: () => nowMs,
    schedule(delayMs, task) {
      delays.push(delayMs);
      queueMicrotask(task);
      return () => {};
    },
  };
  return { scheduler, delays, advance: (ms: number) => (nowMs += ms) };
}

describe('AuthFailureThrottle', () => {
  it('doubles the delay per failure from one source, up to the cap', async () => {
    const { scheduler, delays } = fakeScheduler();
    const throttle = new AuthFailureThrottle(100, scheduler);
    for (let failure = 0; failure < 8; failure++) await throttle.failed('10.0.0.1');
    expect(delays).toEqual([100, 200, 400, 800, 1600, 1600, 1600, 1600]);
    expect(100 * AUTH_FAILURE_MAX_FACTOR).toBe(1600);
  });

  it('counts sources apart and forgets a source after a quiet quarter hour', async () => {
    const { scheduler, delays, advance } = fakeScheduler();
    const throttle = new AuthFailureThrottle(100, scheduler);
    await throttle.failed('a');
    await throttle.failed('a');
    await throttle.failed('b');
    advance(15 * 60_000);
    await throttle.failed('a');
    expect(delays).toEqual([100, 200, 100, 100]);
  });

  it('does not delay at all with a base delay of 0', async () => {
    const { scheduler, delays } = fakeScheduler();
    const throttle = new AuthFailureThrottle(0, scheduler);
    expect(await throttle.failed('a')).toBe(0);
    expect(delays).toEqual([]);
  });

  it('counts failures at one user across addresses, and delays by the larger count', async () => {
    const { scheduler, delays } = fakeScheduler();
    const throttle = new AuthFailureThrottle(100, scheduler);
    await throttle.failed('10.0.0.1', 'alice');
    await throttle.failed('10.0.0.2', 'alice');
    await throttle.failed('10.0.0.3', 'alice');
    // A fresh address guessing at another user starts from the base delay.
    await throttle.failed('10.0.0.4', 'bob');
    await throttle.failed('10.0.0.4', 'alice');
    expect(delays).toEqual([100, 200, 400, 100, 800]);
  });
});
