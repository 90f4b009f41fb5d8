/**
 * Time for the group coordinator: a clock and one-shot timers. Injected, so the rebalance and
 * session logic can be tested by advancing a fake clock instead of sleeping.
 */
export interface GroupScheduler {
  nowMs(): number;
  /** Runs `task` once after `delayMs`; the returned function cancels it (harmless once it ran). */
  schedule(delayMs: number, task: () => void): () => void;
}

/** Wall-clock time and Node timers; timers are unref'd so they never keep a process alive. */
export const systemGroupScheduler: GroupScheduler = {
  nowMs: () => Date.now(),
  schedule(delayMs, task) {
    const timer = setTimeout(task, Math.max(0, delayMs));
    timer.unref();
    return () => clearTimeout(timer);
  },
};
