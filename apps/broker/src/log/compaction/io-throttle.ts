/**
 * The cleaner's I/O throttle (Kafka's log.cleaner.io.max.bytes.per.second): after each chunk the
 * cleaner reads, it waits as long as it takes for the bytes so far to fall within the rate, so a
 * clean cannot take the disk away from producers and consumers. The count restarts every second,
 * so a pause (nothing to clean) is not saved up as a burst. Without a rate nothing waits.
 */
export class IoThrottle {
  #windowStartMs: number;
  #windowBytes = 0;

  constructor(
    private readonly maxBytesPerSecond: number | undefined,
    private readonly nowMs: () => number,
    private readonly sleep: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.#windowStartMs = nowMs();
  }

  /** Counts `bytes` and waits until they fit the rate. */
  async consume(bytes: number): Promise<void> {
    const rate = this.maxBytesPerSecond;
    if (rate === undefined || !Number.isFinite(rate)) return;
    let now = this.nowMs();
    if (now - this.#windowStartMs >= 1000) {
      this.#windowStartMs = now;
      this.#windowBytes = 0;
    }
    this.#windowBytes += bytes;
    const dueMs = this.#windowStartMs + (this.#windowBytes * 1000) / rate;
    if (dueMs > now) {
      await this.sleep(Math.ceil(dueMs - now));
      now = this.nowMs();
      // What was waited off is paid: start a new window from here.
      this.#windowStartMs = now;
      this.#windowBytes = 0;
    }
  }
}
