import { describe, expect, it } from 'vitest';
import { RetryPolicy } from '../../src/client/retry';
import { ErrorCode } from '../../src/errors/error-codes';
import { WeirError } from '../../src/errors/weir-error';

const retriable = () => new WeirError(ErrorCode.NETWORK_EXCEPTION, { detail: 'boom' });

describe('RetryPolicy', () => {
  it('doubles the backoff up to its maximum, with jitter within ±20%', () => {
    const exact = new RetryPolicy({ initialBackoffMs: 100, maxBackoffMs: 1000 }, () => 0.5);
    expect([1, 2, 3, 4, 5, 6].map((attempt) => exact.backoffMs(attempt))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    const low = new RetryPolicy({ initialBackoffMs: 100 }, () => 0);
    const high = new RetryPolicy({ initialBackoffMs: 100 }, () => 0.999999);
    expect(low.backoffMs(1)).toBe(80);
    expect(high.backoffMs(1)).toBe(120);
  });

  it('retries retriable errors until the operation succeeds', async () => {
    const policy = new RetryPolicy({ initialBackoffMs: 1 });
    const attempts: number[] = [];
    const value = await policy.run(async (attempt) => {
      attempts.push(attempt);
      if (attempt < 3) throw retriable();
      return 'done';
    });
    expect(value).toBe('done');
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('throws an error that is not retriable at once', async () => {
    const policy = new RetryPolicy({ initialBackoffMs: 1 });
    let calls = 0;
    const failure = new WeirError(ErrorCode.TOPIC_ALREADY_EXISTS);
    await expect(
      policy.run(async () => {
        calls++;
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(calls).toBe(1);
  });

  it('stops after maxAttempts and says so in the error', async () => {
    const policy = new RetryPolicy({ maxAttempts: 4, initialBackoffMs: 1 });
    let calls = 0;
    const error = await policy
      .run(async () => {
        calls++;
        throw retriable();
      })
      .catch((caught: unknown) => caught as WeirError);
    expect(calls).toBe(4);
    expect(error.code).toBe(ErrorCode.NETWORK_EXCEPTION);
    expect(error.message).toContain('gave up after 4 attempts');
  });

  it('stops when the next wait would pass maxTotalMs', async () => {
    let nowMs = 0;
    const policy = new RetryPolicy(
      { maxAttempts: 100, initialBackoffMs: 100, maxBackoffMs: 100, maxTotalMs: 250 },
      () => 0.5,
      () => nowMs,
    );
    let calls = 0;
    await expect(
      policy.run(async () => {
        calls++;
        nowMs += 100;
        throw retriable();
      }),
    ).rejects.toThrow(/gave up after 2 attempts/);
    expect(calls).toBe(2);
  });

  it('stops waiting when its signal aborts', async () => {
    const policy = new RetryPolicy({ initialBackoffMs: 60_000, maxBackoffMs: 60_000, maxTotalMs: 120_000 });
    const controller = new AbortController();
    const reason = new Error('closed');
    const run = policy.run(
      async () => {
        queueMicrotask(() => controller.abort(reason));
        throw retriable();
      },
      { signal: controller.signal },
    );
    await expect(run).rejects.toBe(reason);
  });

  it('refuses nonsense bounds', () => {
    expect(() => new RetryPolicy({ maxAttempts: 0 })).toThrow(RangeError);
    expect(() => new RetryPolicy({ maxTotalMs: -1 })).toThrow(RangeError);
  });
});
