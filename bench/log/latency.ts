/** Collects per-operation latencies and answers percentiles (nearest rank). */
export class LatencyRecorder {
  readonly #samplesMs: number[] = [];
  #sorted = true;

  get count(): number {
    return this.#samplesMs.length;
  }

  record(latencyMs: number): void {
    this.#samplesMs.push(latencyMs);
    this.#sorted = false;
  }

  /** The smallest sample that at least `percent` % of the samples do not exceed; NaN when empty. */
  percentileMs(percent: number): number {
    if (this.#samplesMs.length === 0) return Number.NaN;
    if (!this.#sorted) {
      this.#samplesMs.sort((left, right) => left - right);
      this.#sorted = true;
    }
    const rank = Math.ceil((percent / 100) * this.#samplesMs.length);
    return this.#samplesMs[Math.min(Math.max(rank, 1), this.#samplesMs.length) - 1]!;
  }
}
