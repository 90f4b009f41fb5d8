/**
 * The live tail's rate cap, a token bucket: `perSecond` rows a second, with at most one second's
 * worth saved up, so a burst after a quiet spell is shown whole up to that size.
 */
export class RowAllowance {
  readonly #perSecond: number;
  #tokens: number;
  #atMs: number;

  constructor(perSecond: number, nowMs: number) {
    if (!(perSecond >= 1)) throw new RangeError(`perSecond must be ≥ 1, got ${perSecond}`);
    this.#perSecond = perSecond;
    this.#tokens = perSecond;
    this.#atMs = nowMs;
  }

  /** Whole rows that may be sent now. */
  available(nowMs: number): number {
    const earned = (Math.max(0, nowMs - this.#atMs) * this.#perSecond) / 1000;
    this.#tokens = Math.min(this.#perSecond, this.#tokens + earned);
    this.#atMs = nowMs;
    return Math.floor(this.#tokens);
  }

  spend(rows: number): void {
    this.#tokens -= rows;
  }

  /** How long until one more row may be sent (after `available` said none). */
  msUntilOne(): number {
    return Math.max(1, Math.ceil(((1 - this.#tokens) * 1000) / this.#perSecond));
  }
}
