/**
 * The follower's replication throttle (Kafka's follower.replication.throttled.rate): a token bucket
 * of bytes per second over the fetches of throttled partitions, which on Weir are the replicas a
 * reassignment is adding (docs/architecture.md §6.6), so a move cannot starve the replication of
 * partitions already in sync. The rate is read at every check, so a change applies at once; with
 * no rate nothing is held back. At most one second's worth is saved up, so a long pause does not
 * become a burst.
 */
export class ReplicationThrottle {
  #tokens = 0;
  #lastMs: number;
  #lastRate: number | undefined;

  constructor(
    private readonly rateBytesPerSecond: () => number | undefined,
    private readonly nowMs: () => number,
  ) {
    this.#lastMs = nowMs();
  }

  /**
   * How many bytes a throttled partition may fetch now (0: none until `waitMs`), or undefined
   * when there is no throttle.
   */
  allowanceBytes(): number | undefined {
    const rate = this.#refill();
    if (rate === undefined) return undefined;
    return Math.max(0, Math.floor(this.#tokens));
  }

  /** How long until throttled partitions may fetch again; 0 when they may now. */
  waitMs(): number {
    const rate = this.#refill();
    if (rate === undefined || this.#tokens > 0) return 0;
    return rate === 0 ? 1000 : Math.ceil(((1 - this.#tokens) * 1000) / rate);
  }

  /** Counts bytes a throttled partition fetched; the bucket may go below zero, which is then waited off. */
  record(bytes: number): void {
    this.#refill();
    this.#tokens -= bytes;
  }

  #refill(): number | undefined {
    const nowMs = this.nowMs();
    const rate = this.rateBytesPerSecond();
    if (rate !== this.#lastRate) {
      // A new rate starts with an empty second, whatever the old one left.
      this.#lastRate = rate;
      this.#tokens = Math.min(this.#tokens, 0);
    }
    if (rate !== undefined) {
      this.#tokens = Math.min(rate, this.#tokens + ((nowMs - this.#lastMs) * rate) / 1000);
    }
    this.#lastMs = nowMs;
    return rate;
  }
}
