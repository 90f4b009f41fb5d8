/**
 * Runs a group member's heartbeats at a fixed rate, measured from when each beat was sent rather
 * than from its answer: other members learn of a rebalance only from a beat, so a period stretched
 * by round trips would stretch every rebalance of the group by as much.
 */
export class HeartbeatTimer {
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly intervalMs: number,
    /** One beat; true to go on beating, false to stop (the member rejoins or closes). */
    private readonly beat: () => Promise<boolean>,
  ) {}

  start(): void {
    this.#schedule(undefined);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(sentAtMs: number | undefined): void {
    const elapsedMs = sentAtMs === undefined ? 0 : performance.now() - sentAtMs;
    this.#timer = setTimeout(
      () => {
        const startedMs = performance.now();
        void this.beat().then((again) => {
          if (again) this.#schedule(startedMs);
        });
      },
      Math.max(0, this.intervalMs - elapsedMs),
    );
  }
}
