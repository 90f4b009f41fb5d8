/**
 * The quota window as Kafka measures it (`quota.window.num` samples of `quota.window.size.seconds`
 * each): a rate is the sum of the live samples divided by the time they cover.
 */
export interface QuotaWindow {
  readonly sampleCount: number;
  readonly sampleMs: number;
}

/**
 * A rate over sampled windows with Kafka's arithmetic, so throttle times come out as a Kafka
 * broker's would: a sample opens when a value arrives after the previous sample has run its
 * length; samples older than the whole window are reset; and the time a rate is divided by is the
 * time since the oldest sample opened, but never less than `sampleCount - 1` samples, so a young
 * window does not report a short burst as a huge rate.
 */
export class SampledRate {
  readonly #startMs: Float64Array;
  readonly #values: Float64Array;
  #current = 0;
  /** When a value was last recorded: a rate idle for a whole window can be forgotten. */
  lastRecordMs: number;

  constructor(
    private readonly window: QuotaWindow,
    nowMs: number,
  ) {
    this.#startMs = new Float64Array(window.sampleCount).fill(nowMs);
    this.#values = new Float64Array(window.sampleCount);
    this.lastRecordMs = nowMs;
  }

  record(value: number, nowMs: number): void {
    this.#purge(nowMs);
    if (nowMs - this.#startMs[this.#current]! >= this.window.sampleMs) {
      this.#current = (this.#current + 1) % this.window.sampleCount;
      this.#startMs[this.#current] = nowMs;
      this.#values[this.#current] = 0;
    }
    this.#values[this.#current] = this.#values[this.#current]! + value;
    this.lastRecordMs = nowMs;
  }

  /** The amount per second now. */
  ratePerSecond(nowMs: number): number {
    this.#purge(nowMs);
    let total = 0;
    for (const value of this.#values) total += value;
    return total / (this.windowMs(nowMs) / 1000);
  }

  /** The time the rate is divided by, in milliseconds (Kafka's `Rate.windowSize`). */
  windowMs(nowMs: number): number {
    let oldestMs = nowMs;
    for (const startMs of this.#startMs) oldestMs = Math.min(oldestMs, startMs);
    const elapsedMs = nowMs - oldestMs;
    const fullSamples = Math.floor(elapsedMs / this.window.sampleMs);
    const minimumFullSamples = this.window.sampleCount - 1;
    return fullSamples < minimumFullSamples
      ? elapsedMs + (minimumFullSamples - fullSamples) * this.window.sampleMs
      : elapsedMs;
  }

  /** Whether nothing recorded is left in the window, so the rate is zero and can be dropped. */
  isIdle(nowMs: number): boolean {
    return nowMs - this.lastRecordMs >= this.window.sampleCount * this.window.sampleMs;
  }

  #purge(nowMs: number): void {
    const expireMs = this.window.sampleCount * this.window.sampleMs;
    for (let index = 0; index < this.window.sampleCount; index++) {
      if (nowMs - this.#startMs[index]! >= expireMs) {
        this.#startMs[index] = nowMs;
        this.#values[index] = 0;
      }
    }
  }
}
