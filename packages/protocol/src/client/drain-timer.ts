/**
 * Runs a callback once at the earliest time anyone asked for, like a coalescing timer. A request for
 * a later time than the one pending changes nothing; an earlier one replaces it. Zero delay runs on
 * `setImmediate`, since `setTimeout(0)` waits at least a millisecond.
 */
export class DrainTimer {
  readonly #run: () => void;
  #dueAtMs = Number.POSITIVE_INFINITY;
  #cancel: (() => void) | undefined;
  #stopped = false;

  constructor(run: () => void) {
    this.#run = run;
  }

  /** Makes sure the callback runs within `delayMs`. */
  schedule(delayMs: number): void {
    if (this.#stopped) return;
    const dueAtMs = Date.now() + Math.max(0, delayMs);
    if (this.#cancel !== undefined && this.#dueAtMs <= dueAtMs) return;
    this.#cancel?.();
    this.#dueAtMs = dueAtMs;
    const fire = () => {
      this.#cancel = undefined;
      this.#dueAtMs = Number.POSITIVE_INFINITY;
      this.#run();
    };
    if (delayMs <= 0) {
      const handle = setImmediate(fire);
      this.#cancel = () => clearImmediate(handle);
    } else {
      const handle = setTimeout(fire, delayMs);
      this.#cancel = () => clearTimeout(handle);
    }
  }

  /** Cancels what is pending and ignores later requests. */
  stop(): void {
    this.#stopped = true;
    this.#cancel?.();
    this.#cancel = undefined;
  }
}
