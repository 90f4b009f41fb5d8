import { WeirError } from '../errors/weir-error';

/** How failed operations are retried. Both bounds apply: whichever is reached first ends the retries. */
export interface RetryOptions {
  /** Attempts in total, the first included. Default 10. */
  readonly maxAttempts?: number;
  /** Wait before the first retry; each later wait doubles it. Default 100 ms. */
  readonly initialBackoffMs?: number;
  /** The longest single wait. Default 1 s (Kafka's `retry.backoff.max.ms`). */
  readonly maxBackoffMs?: number;
  /** No attempt starts later than this after the first one began. Default 30 s. */
  readonly maxTotalMs?: number;
}

/** Hooks of one {@link RetryPolicy.run}. */
export interface RetryHooks {
  /** Cancels the waits between attempts (the client's close); the run rejects with its reason. */
  readonly signal?: AbortSignal;
  /** Which errors to retry. Default: a {@link WeirError} whose code is retriable. */
  readonly isRetriable?: (error: unknown) => boolean;
  /** Called before each wait, for instance to mark metadata stale. */
  readonly onRetry?: (error: unknown, attempt: number) => void;
}

/** Waits with jitter in ±20%, so clients that failed together do not retry together. */
const JITTER = 0.2;

/**
 * Exponential backoff with jitter, bounded by attempts and by total time. The random source and the
 * clock are passed in so tests can pin them.
 */
export class RetryPolicy {
  readonly maxAttempts: number;
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  readonly maxTotalMs: number;
  readonly #random: () => number;
  readonly #nowMs: () => number;

  constructor(
    options: RetryOptions = {},
    random: () => number = Math.random,
    nowMs: () => number = Date.now,
  ) {
    this.maxAttempts = options.maxAttempts ?? 10;
    this.initialBackoffMs = options.initialBackoffMs ?? 100;
    this.maxBackoffMs = options.maxBackoffMs ?? 1000;
    this.maxTotalMs = options.maxTotalMs ?? 30_000;
    if (!Number.isInteger(this.maxAttempts) || this.maxAttempts < 1) {
      throw new RangeError(`retry.maxAttempts must be an integer ≥ 1, got ${this.maxAttempts}`);
    }
    for (const [name, value] of [
      ['initialBackoffMs', this.initialBackoffMs],
      ['maxBackoffMs', this.maxBackoffMs],
      ['maxTotalMs', this.maxTotalMs],
    ] as const) {
      if (!Number.isFinite(value) || value < 0)
        throw new RangeError(`retry.${name} must be ≥ 0, got ${value}`);
    }
    this.#random = random;
    this.#nowMs = nowMs;
  }

  /** The wait after failed attempt number `attempt` (1-based). */
  backoffMs(attempt: number): number {
    const base = Math.min(this.maxBackoffMs, this.initialBackoffMs * 2 ** Math.max(0, attempt - 1));
    return Math.round(base * (1 - JITTER + 2 * JITTER * this.#random()));
  }

  /**
   * Whether another attempt may follow failed attempt number `attempt` of an operation that started
   * at `startedAtMs`, after waiting `waitMs`.
   */
  allows(attempt: number, startedAtMs: number, waitMs: number): boolean {
    return attempt < this.maxAttempts && this.#nowMs() + waitMs - startedAtMs <= this.maxTotalMs;
  }

  /**
   * Runs `operation` until it succeeds, fails with an error that is not retriable, or the bounds are
   * reached. The error of the last attempt is thrown; when there were retries, as a WeirError of the
   * same code whose detail adds how many attempts were made and how long they took.
   */
  async run<T>(operation: (attempt: number) => Promise<T>, hooks: RetryHooks = {}): Promise<T> {
    const isRetriable = hooks.isRetriable ?? isRetriableWeirError;
    const startedAtMs = this.#nowMs();
    for (let attempt = 1; ; attempt++) {
      hooks.signal?.throwIfAborted();
      try {
        return await operation(attempt);
      } catch (error) {
        if (hooks.signal?.aborted) throw hooks.signal.reason;
        const waitMs = this.backoffMs(attempt);
        if (!isRetriable(error)) throw error;
        if (!this.allows(attempt, startedAtMs, waitMs))
          throw withAttempts(error, attempt, this.#nowMs() - startedAtMs);
        hooks.onRetry?.(error, attempt);
        await sleep(waitMs, hooks.signal);
      }
    }
  }
}

function isRetriableWeirError(error: unknown): boolean {
  return error instanceof WeirError && error.retriable;
}

function withAttempts(error: unknown, attempts: number, elapsedMs: number): unknown {
  if (!(error instanceof WeirError) || attempts < 2) return error;
  const detail = `${error.detail ?? ''} (gave up after ${attempts} attempts in ${elapsedMs} ms)`.trim();
  return new WeirError(error.originalCode, { detail, cause: error });
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
