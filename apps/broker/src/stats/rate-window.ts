/** A clock in milliseconds, injected so windows can be tested without waiting. */
export interface RateClock {
  nowMs(): number;
}

/**
 * A sliding-window counter: amounts land in one-second buckets (by default sixty of them), and the
 * rate is the sum of the buckets still inside the window divided by the time they cover. Adding is
 * O(1) with no allocation, so it can sit on the produce and fetch paths. A young window (the broker
 * started less than a window ago) divides by the time it has actually existed, so the first
 * minute does not report rates diluted by seconds that never happened.
 */
export class RateWindow {
  readonly #amounts: Float64Array;
  /** Which absolute bucket number each slot currently holds; -1 for never used. */
  readonly #bucketIds: Float64Array;
  readonly #bucketMs: number;
  readonly #createdAtMs: number;

  constructor(
    private readonly clock: RateClock,
    bucketCount = 60,
    bucketMs = 1000,
  ) {
    if (!Number.isInteger(bucketCount) || bucketCount < 1)
      throw new RangeError(`bucket count ${bucketCount}`);
    if (!(bucketMs > 0)) throw new RangeError(`bucket width ${bucketMs} ms`);
    this.#amounts = new Float64Array(bucketCount);
    this.#bucketIds = new Float64Array(bucketCount).fill(-1);
    this.#bucketMs = bucketMs;
    this.#createdAtMs = clock.nowMs();
  }

  get windowMs(): number {
    return this.#amounts.length * this.#bucketMs;
  }

  add(amount: number): void {
    const bucketId = Math.floor(this.clock.nowMs() / this.#bucketMs);
    const slot = bucketId % this.#amounts.length;
    if (this.#bucketIds[slot] !== bucketId) {
      this.#bucketIds[slot] = bucketId;
      this.#amounts[slot] = 0;
    }
    this.#amounts[slot] = this.#amounts[slot]! + amount;
  }

  /** The amount per second over the window (or over the window's life, when that is shorter). */
  ratePerSecond(): number {
    const nowMs = this.clock.nowMs();
    const currentBucketId = Math.floor(nowMs / this.#bucketMs);
    const oldestBucketId = currentBucketId - this.#amounts.length + 1;
    let total = 0;
    for (let slot = 0; slot < this.#amounts.length; slot++) {
      const bucketId = this.#bucketIds[slot]!;
      if (bucketId >= oldestBucketId && bucketId <= currentBucketId) total += this.#amounts[slot]!;
    }
    // The window reaches back to the start of the oldest bucket, but never before creation; at
    // least one bucket's width, so a burst in the first millisecond is not reported as huge.
    const windowStartMs = Math.max(oldestBucketId * this.#bucketMs, this.#createdAtMs);
    const coveredMs = Math.max(nowMs - windowStartMs, this.#bucketMs);
    return (total * 1000) / coveredMs;
  }
}
