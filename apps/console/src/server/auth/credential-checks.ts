import { type Connection, ErrorCode, WeirError, WeirVerifyCredentials } from '@weir/protocol';
import { asKafkaError } from '../api/error-shapes';

/**
 * How many credential checks may run and wait at once. The broker answers a wrong password only
 * after a delay that grows per username (docs/architecture.md §7), and answers each connection in
 * order, so a check holds its connection for that whole delay: each check gets a connection of its
 * own, never one carrying other work.
 */
export interface CredentialCheckLimits {
  /** Connections to the broker for credential checks, each carrying one check at a time. */
  readonly maxConnections: number;
  /** Checks for one username running or waiting at once; one more is answered "throttled" at once. */
  readonly maxPerUser: number;
  /** Checks waiting for a connection; one more is answered "throttled" at once. */
  readonly maxQueued: number;
  /**
   * How long one check may take. Longer than the broker's longest failure delay (16 times
   * `security.authFailureDelayMs`, 16 s by default), so a slow wrong answer is still an answer; a
   * check past it is throttled, its connection closed, and never sent again.
   */
  readonly checkTimeoutMs: number;
  /** An idle connection is closed after this long. */
  readonly idleCloseMs: number;
}

export const DEFAULT_CREDENTIAL_CHECK_LIMITS: CredentialCheckLimits = {
  maxConnections: 16,
  maxPerUser: 2,
  maxQueued: 32,
  checkTimeoutMs: 30_000,
  idleCloseMs: 30_000,
};

/** What a credential check found. */
export type CredentialVerdict =
  | { readonly kind: 'accepted'; readonly principal: string; readonly credentialFingerprint: string | null }
  /** The username or password is wrong. */
  | { readonly kind: 'refused' }
  /** Not checked (too many at once), or the broker's delay outlasted the check: try again later. */
  | { readonly kind: 'throttled'; readonly retryAfterMs: number; readonly reason: ThrottleReason }
  /** The broker refused the console's own credentials (internal token or client certificate). */
  | { readonly kind: 'console-refused'; readonly error: Error }
  /** The broker could not be reached or failed otherwise. */
  | { readonly kind: 'unavailable'; readonly error: Error };

export type ThrottleReason = 'user' | 'console' | 'broker-delay';

/** Something that checks a username and password: {@link CredentialChecks}, or a test's own. */
export interface CredentialChecker {
  check(username: string, password: string): Promise<CredentialVerdict>;
  /** Opens (or reuses) a connection, to learn whether the broker accepts the console itself. */
  probe(): Promise<CredentialVerdict | { readonly kind: 'reachable' }>;
  close(): Promise<void>;
}

export interface CredentialChecksOptions {
  /** Opens an authenticated connection to the `index`-th internal listener (modulo their number). */
  readonly openConnection: (index: number) => Connection;
  /** How many internal listeners there are, tried in turn when one cannot be reached. */
  readonly addressCount: number;
  readonly limits?: Partial<CredentialCheckLimits>;
  readonly now: () => number;
  /** Told every outcome that says whether the broker accepts the console's own credentials. */
  readonly onConsoleCredentials?: (accepted: boolean, error?: Error) => void;
}

interface Waiter {
  readonly resolve: (connection: Connection | undefined) => void;
}

/** Kafka codes a refused SASL exchange of the console's own connection carries. */
const CONSOLE_AUTH_CODES: ReadonlySet<number> = new Set([
  ErrorCode.SASL_AUTHENTICATION_FAILED,
  ErrorCode.UNSUPPORTED_SASL_MECHANISM,
  ErrorCode.ILLEGAL_SASL_STATE,
  ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
]);

/**
 * The console's credential checks (WeirVerifyCredentials), on a bounded set of connections of
 * their own, so a guesser's delayed answers never hold up other users' logins or requests, which
 * travel on other connections. A check is sent once and never retried: a retry would count as one
 * more failure on the broker. Per username at most `maxPerUser` checks run or wait, so parallel
 * guesses at one account are refused at once instead of each being checked (as the broker does for
 * SASL exchanges, docs/architecture.md §7); a check that got a place in the queue waits for its
 * connection without a deadline of its own.
 */
export class CredentialChecks implements CredentialChecker {
  readonly #limits: CredentialCheckLimits;
  readonly #idle: { connection: Connection; timer: ReturnType<typeof setTimeout> }[] = [];
  readonly #queue: Waiter[] = [];
  /** Per username: when each of its running or waiting checks started. */
  readonly #perUser = new Map<string, number[]>();
  /** Per username: how long its last refused check took (about the broker's delay for it). */
  readonly #lastRefusalMs = new Map<string, number>();
  #open = 0;
  #sent = 0;
  #nextAddress = 0;
  #closed = false;

  constructor(private readonly options: CredentialChecksOptions) {
    this.#limits = { ...DEFAULT_CREDENTIAL_CHECK_LIMITS, ...options.limits };
  }

  /** Connections open now (busy and idle), for tests and metrics. */
  get openConnections(): number {
    return this.#open;
  }

  /** Checks sent to the broker and not answered yet. */
  get checksInFlight(): number {
    return this.#sent;
  }

  async check(username: string, password: string): Promise<CredentialVerdict> {
    const startedAtMs = this.options.now();
    const running = this.#perUser.get(username) ?? [];
    if (running.length >= this.#limits.maxPerUser) {
      return { kind: 'throttled', reason: 'user', retryAfterMs: this.#userRetryAfterMs(username, running) };
    }
    if (this.#idle.length === 0 && this.#open >= this.#limits.maxConnections) {
      if (this.#queue.length >= this.#limits.maxQueued) {
        return { kind: 'throttled', reason: 'console', retryAfterMs: 1000 };
      }
    }
    running.push(startedAtMs);
    this.#perUser.set(username, running);
    try {
      const acquired = await this.#acquire();
      if (!('connection' in acquired)) return this.#notConnected(acquired.error);
      return await this.#send(acquired.connection, username, password);
    } finally {
      running.splice(running.indexOf(startedAtMs), 1);
      if (running.length === 0) this.#perUser.delete(username);
    }
  }

  async probe(): Promise<CredentialVerdict | { readonly kind: 'reachable' }> {
    // A new connection, since the broker may have changed its token since the open ones
    // authenticated; but a console busy with every connection it may open is not queued.
    if (this.#closed || this.#open >= this.#limits.maxConnections) return { kind: 'reachable' };
    const acquired = await this.#openNew();
    if (!('connection' in acquired)) return this.#notConnected(acquired.error);
    this.#release(acquired.connection, true);
    return { kind: 'reachable' };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const waiter of this.#queue.splice(0)) waiter.resolve(undefined);
    const idle = this.#idle.splice(0);
    for (const { connection, timer } of idle) {
      clearTimeout(timer);
      connection.close();
    }
    await Promise.all(idle.map(({ connection }) => connection.socketClosed()));
  }

  async #send(connection: Connection, username: string, password: string): Promise<CredentialVerdict> {
    const sentAtMs = this.options.now();
    let answer: Awaited<ReturnType<typeof sendCheck>>;
    this.#sent++;
    try {
      answer = await sendCheck(connection, username, password, this.#limits.checkTimeoutMs);
    } catch (error) {
      // The connection is closed by a timeout or a network failure; it is not used again.
      this.#release(connection, false);
      if (asKafkaError(error)?.originalCode === ErrorCode.REQUEST_TIMED_OUT) {
        return { kind: 'throttled', reason: 'broker-delay', retryAfterMs: this.#limits.checkTimeoutMs };
      }
      return { kind: 'unavailable', error: asError(error) };
    } finally {
      this.#sent--;
    }
    this.#release(connection, true);
    if (answer.errorCode === ErrorCode.NONE) {
      return {
        kind: 'accepted',
        principal: answer.principal ?? `User:${username}`,
        credentialFingerprint: answer.credentialFingerprint,
      };
    }
    if (answer.errorCode === ErrorCode.SASL_AUTHENTICATION_FAILED) {
      this.#lastRefusalMs.delete(username);
      this.#lastRefusalMs.set(username, this.options.now() - sentAtMs);
      // Bounded like the broker's own table: the oldest refusals are forgotten first.
      if (this.#lastRefusalMs.size > 10_000)
        this.#lastRefusalMs.delete(this.#lastRefusalMs.keys().next().value!);
      return { kind: 'refused' };
    }
    const error = new WeirError(answer.errorCode, { detail: answer.errorMessage ?? 'checking credentials' });
    if (answer.errorCode === ErrorCode.CLUSTER_AUTHORIZATION_FAILED) {
      // The console's principal may not check credentials (ALTER on the cluster).
      this.options.onConsoleCredentials?.(false, error);
      return { kind: 'console-refused', error };
    }
    return { kind: 'unavailable', error };
  }

  /**
   * A ready connection: an idle one, a new one while under the limit, else the next one released.
   * A connection that cannot be opened answers its error (tried once on each internal listener, as
   * nothing was sent); none opens once the checks are closed.
   */
  async #acquire(): Promise<{ readonly connection: Connection } | { readonly error: Error | undefined }> {
    if (this.#closed) return { error: undefined };
    const idle = this.#idle.pop();
    if (idle !== undefined) {
      clearTimeout(idle.timer);
      if (idle.connection.status.state === 'ready') return { connection: idle.connection };
      this.#open--;
      return this.#acquire();
    }
    if (this.#open >= this.#limits.maxConnections) {
      const handed = await new Promise<Connection | undefined>((resolve) => this.#queue.push({ resolve }));
      return handed === undefined ? this.#acquire() : { connection: handed };
    }
    return this.#openNew();
  }

  /** Opens one more connection (the caller has checked the limit), or answers why it could not. */
  async #openNew(): Promise<{ readonly connection: Connection } | { readonly error: Error }> {
    this.#open++;
    let lastError: Error = new Error('no internal listener is configured');
    for (let attempt = 0; attempt < this.options.addressCount; attempt++) {
      let connection: Connection;
      try {
        connection = this.options.openConnection(this.#nextAddress++);
      } catch (error) {
        // The console's own token or certificate could not be read: nothing can be sent.
        lastError = new ConsoleSetupError(asError(error));
        break;
      }
      try {
        await connection.ready();
        this.options.onConsoleCredentials?.(true);
        return { connection };
      } catch (error) {
        connection.close();
        lastError = asError(error);
        if (isConsoleAuthFailure(error)) break;
      }
    }
    this.#open--;
    this.#wakeOne();
    return { error: lastError };
  }

  #notConnected(outcome: Error | undefined): CredentialVerdict {
    const error = outcome ?? new Error('the console is shutting down');
    if (isConsoleAuthFailure(error)) {
      this.options.onConsoleCredentials?.(false, error);
      return { kind: 'console-refused', error };
    }
    return { kind: 'unavailable', error };
  }

  /** Gives a connection back: to the first waiter, else to the idle ones; a broken one is closed. */
  #release(connection: Connection, reusable: boolean): void {
    if (!reusable || this.#closed || connection.status.state !== 'ready') {
      connection.close();
      this.#open--;
      this.#wakeOne();
      return;
    }
    const waiter = this.#queue.shift();
    if (waiter !== undefined) {
      waiter.resolve(connection);
      return;
    }
    const timer = setTimeout(() => {
      const index = this.#idle.findIndex((entry) => entry.connection === connection);
      if (index < 0) return;
      this.#idle.splice(index, 1);
      this.#open--;
      connection.close();
    }, this.#limits.idleCloseMs);
    timer.unref?.();
    this.#idle.push({ connection, timer });
  }

  /** A waiter whose connection will not come from a release opens one of its own. */
  #wakeOne(): void {
    this.#queue.shift()?.resolve(undefined);
  }

  /**
   * When one of the user's running checks should be over: each takes about twice the broker's last
   * delay for the user (the delay doubles per failure), at least a second, at most the timeout.
   */
  #userRetryAfterMs(username: string, startedAtMs: readonly number[]): number {
    const expectedMs = Math.min(
      this.#limits.checkTimeoutMs,
      Math.max(1000, 2 * (this.#lastRefusalMs.get(username) ?? 500)),
    );
    const now = this.options.now();
    const earliestEndMs = Math.min(...startedAtMs.map((started) => started + expectedMs));
    return Math.max(1000, earliestEndMs - now);
  }
}

function sendCheck(connection: Connection, username: string, password: string, timeoutMs: number) {
  return connection.send(WeirVerifyCredentials, { username, password, remoteAddress: null }, { timeoutMs });
}

/** The console's own credentials are misconfigured (a missing token, an unreadable certificate). */
class ConsoleSetupError extends Error {
  override readonly name = 'ConsoleSetupError';

  constructor(cause: Error) {
    super(cause.message, { cause });
  }
}

/** Decided on the Kafka code's shape, not the class: Next.js may bundle the SDK more than once. */
function isConsoleAuthFailure(error: unknown): boolean {
  const code = asKafkaError(error)?.originalCode;
  return error instanceof ConsoleSetupError || (code !== undefined && CONSOLE_AUTH_CODES.has(code));
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
