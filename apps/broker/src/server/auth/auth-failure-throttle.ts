import type { GroupScheduler } from '../../group/group-scheduler';

/** A failure's delay doubles per failure from one source, up to this many times the base delay. */
export const AUTH_FAILURE_MAX_FACTOR = 16;
/** A source whose last failure is older than this starts from the base delay again. */
const FORGET_AFTER_MS = 15 * 60_000;
/**
 * Sources remembered at once; beyond it the oldest are forgotten, so a flood of addresses cannot
 * grow the map without bound (a forgotten source only loses its accumulated delay).
 */
const MAX_TRACKED_SOURCES = 10_000;

interface FailureRecord {
  failures: number;
  lastFailureMs: number;
}

/**
 * Slows down guessing: every failed authentication from one source (a remote address, or a
 * username for console logins) is answered only after a delay that doubles with each failure, from
 * `baseDelayMs` up to {@link AUTH_FAILURE_MAX_FACTOR} times it. Successes are never delayed and do
 * not reset the count, so one known account cannot be used to wipe the slate between guesses at
 * another. Time comes from the injected scheduler, so tests see the delays without waiting them.
 */
export class AuthFailureThrottle {
  readonly #sources = new Map<string, FailureRecord>();

  constructor(
    private readonly baseDelayMs: number,
    private readonly scheduler: GroupScheduler,
  ) {}

  /** The delay the `failures`-th failure in a row earns. */
  delayForFailureCount(failures: number): number {
    if (this.baseDelayMs <= 0 || failures <= 0) return 0;
    const factor = Math.min(2 ** (failures - 1), AUTH_FAILURE_MAX_FACTOR);
    return this.baseDelayMs * factor;
  }

  /**
   * Counts a failure from `source` (and, when given, at `username`, counted apart from every
   * source) and resolves, with the larger of their delays applied, once it has passed.
   */
  async failed(source: string, username?: string): Promise<number> {
    const nowMs = this.scheduler.nowMs();
    const failures = Math.max(
      this.#count(source, nowMs),
      username === undefined ? 0 : this.#count(`user:${username}`, nowMs),
    );
    const delayMs = this.delayForFailureCount(failures);
    if (delayMs > 0) await new Promise<void>((resolve) => this.scheduler.schedule(delayMs, resolve));
    return delayMs;
  }

  /** Counts one failure of `source` and returns its failures in a row. */
  #count(source: string, nowMs: number): number {
    const known = this.#sources.get(source);
    const failures =
      known !== undefined && nowMs - known.lastFailureMs < FORGET_AFTER_MS ? known.failures + 1 : 1;
    // Re-inserted so the map's order is least recently failed first, for the eviction below.
    this.#sources.delete(source);
    this.#sources.set(source, { failures, lastFailureMs: nowMs });
    if (this.#sources.size > MAX_TRACKED_SOURCES) {
      this.#sources.delete(this.#sources.keys().next().value!);
    }
    return failures;
  }
}
