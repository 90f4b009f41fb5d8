/**
 * One connection as the scheduler sees it: its recent handler time and whether it waits for a
 * turn. `resume` starts its waiting requests once it is its turn.
 */
export interface ScheduledConnection {
  /** Handler time spent recently, decayed with the scheduler's half-life, in milliseconds. */
  usageMs: number;
  /** When `usageMs` was last decayed. */
  usageAtMs: number;
  waiting: boolean;
  readonly resume: () => void;
}

export interface RequestSchedulerOptions {
  /**
   * Handler time the broker spends starting requests in one event-loop turn before it defers the
   * rest to the next turn, so I/O (other clients' answers, disk completions) runs in between.
   */
  turnBudgetMs: number;
  /** How fast past usage is forgotten: a connection's usage halves every `usageHalfLifeMs`. */
  usageHalfLifeMs: number;
  nowMs: () => number;
  /** Runs a callback in a later turn of the event loop (setImmediate: after pending I/O). */
  defer: (callback: () => void) => void;
}

/**
 * Fairness between connections (docs/architecture.md §9), broker-wide and without configuration:
 * while the requests ready in one event-loop turn fit the turn's budget of handler time, each
 * starts at once, as without a scheduler. Past the budget, connections wait, and the next turns
 * (after the I/O that was ready) start them least recent usage first, within the budget again. A
 * connection that loops cheap requests as fast as it can then runs behind one that asks rarely,
 * and cannot fill the event loop so that everybody else's answers wait behind its work.
 */
export class RequestScheduler {
  readonly #options: RequestSchedulerOptions;
  readonly #waiting: ScheduledConnection[] = [];
  /** Handler time spent in this turn; reset by a deferred callback at the turn's end. */
  #spentMs = 0;
  #turnEndScheduled = false;
  #drainScheduled = false;
  readonly #endTurn = () => {
    this.#turnEndScheduled = false;
    this.#spentMs = 0;
  };
  readonly #drain = () => {
    this.#drainScheduled = false;
    this.#runWaiting();
  };

  constructor(options: RequestSchedulerOptions) {
    this.#options = options;
  }

  /** A connection to schedule; `resume` is called when it may start its requests. */
  register(resume: () => void): ScheduledConnection {
    return { usageMs: 0, usageAtMs: this.#options.nowMs(), waiting: false, resume };
  }

  /**
   * Whether the connection may start a request now. If not, it waits and is resumed in a later
   * turn; it must not start requests until then.
   */
  mayStart(connection: ScheduledConnection): boolean {
    if (connection.waiting) return false;
    if (this.#spentMs < this.#options.turnBudgetMs && this.#waiting.length === 0) return true;
    connection.waiting = true;
    this.#waiting.push(connection);
    this.#scheduleDrain();
    return false;
  }

  /** Charges handler time to the connection and to this turn. */
  charge(connection: ScheduledConnection, handlerMs: number): void {
    const nowMs = this.#options.nowMs();
    connection.usageMs = this.#decayed(connection, nowMs) + handlerMs;
    connection.usageAtMs = nowMs;
    this.#spentMs += handlerMs;
    if (!this.#turnEndScheduled) {
      this.#turnEndScheduled = true;
      this.#options.defer(this.#endTurn);
    }
  }

  /** Forgets a connection that closed. */
  remove(connection: ScheduledConnection): void {
    if (!connection.waiting) return;
    connection.waiting = false;
    this.#waiting.splice(this.#waiting.indexOf(connection), 1);
  }

  /** How many connections wait for a turn. */
  get waitingCount(): number {
    return this.#waiting.length;
  }

  /** Resumes waiting connections, least recent usage first, until the turn's budget is spent. */
  #runWaiting(): void {
    const nowMs = this.#options.nowMs();
    const order = this.#waiting.splice(0).sort((left, right) => this.#decayed(left, nowMs) - this.#decayed(right, nowMs));
    this.#spentMs = 0;
    let next = 0;
    while (next < order.length && this.#spentMs < this.#options.turnBudgetMs) {
      const connection = order[next++]!;
      connection.waiting = false;
      connection.resume();
    }
    // The rest wait for the next turn, sorted again with any that start waiting meanwhile.
    if (next < order.length) {
      this.#waiting.unshift(...order.slice(next));
      this.#scheduleDrain();
    }
  }

  #decayed(connection: ScheduledConnection, nowMs: number): number {
    const elapsedMs = nowMs - connection.usageAtMs;
    return elapsedMs <= 0 ? connection.usageMs : connection.usageMs * 0.5 ** (elapsedMs / this.#options.usageHalfLifeMs);
  }

  #scheduleDrain(): void {
    if (this.#drainScheduled) return;
    this.#drainScheduled = true;
    this.#options.defer(this.#drain);
  }
}
