import type { ClientQuotaRecord } from '../metadata/metadata-store';
import type { ClientQuotaKey } from './quota-entity';
import { QuotaIndex, type ResolvedQuota } from './quota-index';
import { type QuotaWindow, SampledRate } from './sampled-rate';

/** throttle_time_ms is an int32 on the wire (and the longest timer Node.js sets). */
const INT32_MAX = 2 ** 31 - 1;

/** Told what is measured and throttled, per configured entity (a bounded set of labels). */
export interface QuotaObserver {
  onRecorded(key: ClientQuotaKey, entity: string, value: number): void;
  onThrottled(key: ClientQuotaKey, entity: string, throttleMs: number): void;
}

export interface ClientQuotaManagerOptions {
  key: ClientQuotaKey;
  window: QuotaWindow;
  /** The stored quotas; a new array (by identity) means they changed. */
  records: () => readonly ClientQuotaRecord[];
  nowMs: () => number;
  observer: QuotaObserver;
  /**
   * The longest throttle: Kafka bounds the request-time quota's at one sample, and leaves the byte
   * quotas' unbounded.
   */
  maxThrottleMs: number;
}

/**
 * One kind of client quota (Kafka's `ClientQuotaManager`): finds the quota of a (user, client id)
 * by Kafka's precedence, measures usage over the quota window, and answers how long to throttle.
 * Kafka's throttle time: the delay that brings the observed rate O back to the bound T over the
 * window W, (O − T) / T × W. Clients without a quota cost one map lookup and are not measured.
 */
export class ClientQuotaManager {
  readonly key: ClientQuotaKey;
  readonly #options: ClientQuotaManagerOptions;
  readonly #rates = new Map<string, SampledRate>();
  #source: readonly ClientQuotaRecord[] | undefined;
  #index: QuotaIndex;
  #lastSweepMs = 0;

  constructor(options: ClientQuotaManagerOptions) {
    this.key = options.key;
    this.#options = options;
    this.#index = new QuotaIndex([], options.key);
  }

  /** Whether any entity sets this key: without, nothing needs resolving or measuring. */
  get hasQuotas(): boolean {
    return !this.#currentIndex().isEmpty;
  }

  /** The quota that applies to a client now, if any. */
  quotaOf(user: string, clientId: string): ResolvedQuota | undefined {
    return this.#currentIndex().resolve(user, clientId);
  }

  #currentIndex(): QuotaIndex {
    const records = this.#options.records();
    if (records !== this.#source) {
      this.#source = records;
      this.#index = new QuotaIndex(records, this.key);
      // A changed bound changes how every rate is judged, not what was measured: rates are kept.
    }
    return this.#index;
  }

  /** Records usage and returns the throttle time in milliseconds (0 within the quota). */
  recordAndGetThrottleMs(user: string, clientId: string, value: number): number {
    const quota = this.quotaOf(user, clientId);
    if (quota === undefined) return 0;
    const nowMs = this.#options.nowMs();
    const rate = this.#rateFor(quota.rateKey, nowMs);
    rate.record(value, nowMs);
    const observed = rate.ratePerSecond(nowMs);
    const throttleMs =
      observed <= quota.bound
        ? 0
        : Math.min(
            Math.round(((observed - quota.bound) / quota.bound) * rate.windowMs(nowMs)),
            this.#options.maxThrottleMs,
            INT32_MAX,
          );
    this.#options.observer.onRecorded(this.key, quota.entity, value);
    if (throttleMs > 0) this.#options.observer.onThrottled(this.key, quota.entity, throttleMs);
    return throttleMs;
  }

  /**
   * Records usage without judging it (Kafka's `recordNoThrottle`): for time spent after the answer's
   * throttle was decided, which then counts against the client's next requests.
   */
  record(user: string, clientId: string, value: number): void {
    const quota = this.quotaOf(user, clientId);
    if (quota === undefined) return;
    const nowMs = this.#options.nowMs();
    this.#rateFor(quota.rateKey, nowMs).record(value, nowMs);
    this.#options.observer.onRecorded(this.key, quota.entity, value);
  }

  /**
   * The most one answer may carry within the quota (Kafka caps a Fetch at the bound times
   * `sampleCount − 1` samples), or Infinity without a quota.
   */
  maxValueInWindow(user: string, clientId: string): number {
    const quota = this.quotaOf(user, clientId);
    if (quota === undefined) return Number.POSITIVE_INFINITY;
    const { sampleCount, sampleMs } = this.#options.window;
    return (quota.bound * (sampleCount - 1) * sampleMs) / 1000;
  }

  /** How many clients are measured now (for tests and metrics). */
  get measuredCount(): number {
    return this.#rates.size;
  }

  #rateFor(rateKey: string, nowMs: number): SampledRate {
    this.#sweep(nowMs);
    let rate = this.#rates.get(rateKey);
    if (rate === undefined) {
      rate = new SampledRate(this.#options.window, nowMs);
      this.#rates.set(rateKey, rate);
    }
    return rate;
  }

  /**
   * Forgets rates idle for a whole window, once per window: a forgotten rate and a new one measure
   * the same, so memory follows the clients active lately, not every client id ever seen.
   */
  #sweep(nowMs: number): void {
    const { sampleCount, sampleMs } = this.#options.window;
    if (nowMs - this.#lastSweepMs < sampleCount * sampleMs) return;
    this.#lastSweepMs = nowMs;
    for (const [key, rate] of this.#rates) if (rate.isIdle(nowMs)) this.#rates.delete(key);
  }
}
