import { type RateClock, RateWindow } from './rate-window';

/** Recent rates, per second, over `windowMs`. */
export interface TrafficRateSnapshot {
  windowMs: number;
  bytesInPerSecond: number;
  recordsInPerSecond: number;
  bytesOutPerSecond: number;
  recordsOutPerSecond: number;
  requestsPerSecond: number;
}

/**
 * The broker's recent throughput for the console's overview: bytes and records produced and
 * fetched, and requests served, each in its own {@link RateWindow}. Prometheus keeps the long
 * history; this answers "what is happening right now" without a metrics server.
 */
export class TrafficRates {
  readonly #bytesIn: RateWindow;
  readonly #recordsIn: RateWindow;
  readonly #bytesOut: RateWindow;
  readonly #recordsOut: RateWindow;
  readonly #requests: RateWindow;

  constructor(clock: RateClock, bucketCount = 60, bucketMs = 1000) {
    this.#bytesIn = new RateWindow(clock, bucketCount, bucketMs);
    this.#recordsIn = new RateWindow(clock, bucketCount, bucketMs);
    this.#bytesOut = new RateWindow(clock, bucketCount, bucketMs);
    this.#recordsOut = new RateWindow(clock, bucketCount, bucketMs);
    this.#requests = new RateWindow(clock, bucketCount, bucketMs);
  }

  produced(bytes: number, records: number): void {
    this.#bytesIn.add(bytes);
    this.#recordsIn.add(records);
  }

  fetched(bytes: number, records: number): void {
    this.#bytesOut.add(bytes);
    this.#recordsOut.add(records);
  }

  requestServed(): void {
    this.#requests.add(1);
  }

  snapshot(): TrafficRateSnapshot {
    return {
      windowMs: this.#requests.windowMs,
      bytesInPerSecond: this.#bytesIn.ratePerSecond(),
      recordsInPerSecond: this.#recordsIn.ratePerSecond(),
      bytesOutPerSecond: this.#bytesOut.ratePerSecond(),
      recordsOutPerSecond: this.#recordsOut.ratePerSecond(),
      requestsPerSecond: this.#requests.ratePerSecond(),
    };
  }
}
