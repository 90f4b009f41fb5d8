/**
 * Who shares one fair share: the connections of one client (principal and client id), so opening
 * more connections gets a client no more of the broker.
 */
interface Tenant {
  /** Requests started recently, decayed with the scheduler's half-life. */
  usage: number;
  usageAtMs: number;
  connections: number;
}

/** One connection as the scheduler sees it. `resume` starts its waiting requests. */
export interface ScheduledConnection {
  tenant: Tenant | undefined;
  waiting: boolean;
  /** The turn in which it was last let start; its later requests in that turn go too. */
  admittedTurn: number;
  readonly resume: () => void;
}

export interface RequestSchedulerOptions {
  /**
   * How long one event-loop turn should take while connections compete: the number of
   * connections let start per turn adapts so that turns stay near it, and the I/O of everybody
   * else (answers, disk completions) runs between turns.
   */
  targetTurnMs: number;
  /** How fast past usage is forgotten: it halves every `usageHalfLifeMs`. */
  usageHalfLifeMs: number;
  nowMs: () => number;
  /** Runs a callback in a later turn of the event loop (setImmediate: after pending I/O). */
  defer: (callback: () => void) => void;
}

/** The fewest and the most connections let start in one turn. */
const MIN_CONNECTIONS_PER_TURN = 4;
const MAX_CONNECTIONS_PER_TURN = 100_000;

/**
 * Fairness between connections (docs/architecture.md §9), broker-wide and without configuration.
 * Requests start at once while fewer connections than the turn's limit started in this
 * event-loop turn; past it, connections wait, and the next turns start them least recent usage of
 * their client first. The limit adapts to what the turns cost: while connections wait, a turn
 * longer than the target shrinks it, a shorter one grows it. A client looping cheap requests over
 * many connections then runs behind one that asks less, and cannot fill every turn so that the
 * others' answers and disk completions wait behind its work. One busy connection is never held: the
 * limit counts connections, and a connection let start in a turn starts all its ready requests.
 */
export class RequestScheduler {
  readonly #options: RequestSchedulerOptions;
  readonly #tenants = new Map<string, Tenant>();
  readonly #waiting: ScheduledConnection[] = [];
  #turn = 0;
  #admittedInTurn = 0;
  #limit = MAX_CONNECTIONS_PER_TURN;
  /** When the turn's first connection was let start: a turn is measured from there. */
  #turnStartedMs = 0;
  #turnEndScheduled = false;
  #drainScheduled = false;
  readonly #endTurn = () => {
    this.#turnEndScheduled = false;
    // From the first start to here the loop did not wait for I/O, so the time is the turn's work.
    if (this.#admittedInTurn > 1) this.#adapt(this.#options.nowMs() - this.#turnStartedMs);
    this.#turn++;
    this.#admittedInTurn = 0;
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
    return { tenant: undefined, waiting: false, admittedTurn: -1, resume };
  }

  /** Puts a connection with the other connections of its client (once its first request names it). */
  assignTenant(connection: ScheduledConnection, key: string): void {
    if (connection.tenant !== undefined) return;
    let tenant = this.#tenants.get(key);
    if (tenant === undefined) {
      tenant = { usage: 0, usageAtMs: this.#options.nowMs(), connections: 0 };
      this.#tenants.set(key, tenant);
    }
    tenant.connections++;
    connection.tenant = tenant;
  }

  /**
   * Whether the connection may start a request now. If not, it waits and is resumed in a later
   * turn; it must not start requests until then.
   */
  mayStart(connection: ScheduledConnection): boolean {
    if (connection.waiting) return false;
    if (connection.admittedTurn !== this.#turn) {
      if (this.#waiting.length > 0 || this.#admittedInTurn >= this.#limit) {
        connection.waiting = true;
        this.#waiting.push(connection);
        this.#scheduleDrain();
        return false;
      }
      this.#admit(connection);
    }
    this.#charge(connection);
    return true;
  }

  /** Forgets a connection that closed. */
  remove(connection: ScheduledConnection, key: string | undefined): void {
    if (connection.waiting) {
      connection.waiting = false;
      this.#waiting.splice(this.#waiting.indexOf(connection), 1);
    }
    const tenant = connection.tenant;
    connection.tenant = undefined;
    if (tenant !== undefined && key !== undefined && --tenant.connections === 0) this.#tenants.delete(key);
  }

  /** How many connections wait for a turn. */
  get waitingCount(): number {
    return this.#waiting.length;
  }

  /** How many connections may start in one turn now. */
  get connectionsPerTurn(): number {
    return this.#limit;
  }

  #admit(connection: ScheduledConnection): void {
    connection.admittedTurn = this.#turn;
    if (this.#admittedInTurn === 0) this.#turnStartedMs = this.#options.nowMs();
    this.#admittedInTurn++;
    if (!this.#turnEndScheduled) {
      this.#turnEndScheduled = true;
      this.#options.defer(this.#endTurn);
    }
  }

  #charge(connection: ScheduledConnection): void {
    const tenant = connection.tenant;
    if (tenant === undefined) return;
    const nowMs = this.#options.nowMs();
    tenant.usage = this.#decayed(tenant, nowMs) + 1;
    tenant.usageAtMs = nowMs;
  }

  /** Resumes waiting connections, least recent usage of their client first, up to the turn's limit. */
  #runWaiting(): void {
    const nowMs = this.#options.nowMs();
    const usage = (connection: ScheduledConnection) =>
      connection.tenant === undefined ? 0 : this.#decayed(connection.tenant, nowMs);
    const order = this.#waiting.splice(0).sort((left, right) => usage(left) - usage(right));
    let next = 0;
    while (next < order.length && this.#admittedInTurn < this.#limit) {
      const connection = order[next++]!;
      connection.waiting = false;
      this.#admit(connection);
      connection.resume();
    }
    // The rest wait for the next turn, sorted again with any that start waiting meanwhile.
    if (next < order.length) {
      this.#waiting.unshift(...order.slice(next));
      this.#scheduleDrain();
    }
  }

  #adapt(turnMs: number): void {
    const target = this.#options.targetTurnMs;
    const admitted = Math.max(this.#admittedInTurn, MIN_CONNECTIONS_PER_TURN);
    const next =
      turnMs > target
        ? Math.floor((admitted * target) / turnMs)
        : Math.max(admitted, this.#limit) + Math.ceil(admitted / 4);
    this.#limit = Math.min(MAX_CONNECTIONS_PER_TURN, Math.max(MIN_CONNECTIONS_PER_TURN, next));
  }

  #decayed(tenant: Tenant, nowMs: number): number {
    const elapsedMs = nowMs - tenant.usageAtMs;
    return elapsedMs <= 0 ? tenant.usage : tenant.usage * 0.5 ** (elapsedMs / this.#options.usageHalfLifeMs);
  }

  #scheduleDrain(): void {
    if (this.#drainScheduled) return;
    this.#drainScheduled = true;
    this.#options.defer(this.#drain);
  }
}
