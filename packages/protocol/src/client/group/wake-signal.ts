/**
 * Sleeps that end early when something changes: a state transition, a fatal error, a close. A
 * waiter re-checks its condition after every wake, so spurious wakes are harmless.
 */
export class WakeSignal {
  readonly #waiters = new Set<() => void>();

  /** Resolves after `ms`, or at the next {@link wakeAll}, whichever comes first. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.#waiters;
      const timer = setTimeout(done, Math.max(0, ms));
      function done(): void {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      }
      waiters.add(done);
    });
  }

  wakeAll(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}
