import { randomBytes, timingSafeEqual } from 'node:crypto';

/** The session cookie: httpOnly, SameSite=Strict, Secure under TLS, path=/. */
export const SESSION_COOKIE = 'weir_session';
/** The CSRF token's cookie (readable by the page, which echoes it in {@link CSRF_HEADER}). */
export const CSRF_COOKIE = 'weir_csrf';
export const CSRF_HEADER = 'x-weir-csrf';

/** A logged-in console user. */
export interface Session {
  /** Random, 256 bits: the cookie's value and the REST bearer token. */
  readonly id: string;
  /** Random, per session: mutations made with the cookie must echo it (double submit). */
  readonly csrfToken: string;
  readonly username: string;
  /** `User:<name>`, as the broker authorizes it. */
  readonly principal: string;
  /**
   * The user's credential fingerprint when the session was opened (WeirVerifyCredentials v1), null
   * from a broker that does not report one: once the broker reports another, the session ends.
   */
  readonly credentialFingerprint: string | null;
  readonly createdAtMs: number;
  lastSeenMs: number;
}

export interface SessionLimits {
  /** Whatever the activity, a session ends this long after login. */
  readonly absoluteMs: number;
  /** A session unused this long ends. */
  readonly idleMs: number;
  /** At most this many sessions live; the least recently used goes first. */
  readonly maxSessions: number;
  /**
   * At most this many sessions of one user live; a new one ends that user's least recently used,
   * so logging in over and over cannot push other users' sessions out.
   */
  readonly maxSessionsPerUser: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  absoluteMs: 8 * 60 * 60_000,
  idleMs: 30 * 60_000,
  maxSessions: 1_000,
  maxSessionsPerUser: 10,
};

/**
 * The console's sessions, in memory: a restart logs everyone out. An ended session (logout,
 * expiry, eviction) is forgotten, so its cookie or bearer token is refused from then on, and
 * `onEnd` releases what was held for it (the user's broker connections).
 */
export class SessionStore {
  readonly #sessions = new Map<string, Session>();

  constructor(
    private readonly options: {
      readonly now: () => number;
      readonly limits?: SessionLimits;
      readonly onEnd?: (session: Session) => void;
    },
  ) {}

  get #limits(): SessionLimits {
    return this.options.limits ?? DEFAULT_SESSION_LIMITS;
  }

  create(username: string, credentialFingerprint: string | null = null): Session {
    const now = this.options.now();
    this.#sweep(now);
    const session: Session = {
      id: randomBytes(32).toString('base64url'),
      csrfToken: randomBytes(32).toString('base64url'),
      username,
      principal: `User:${username}`,
      credentialFingerprint,
      createdAtMs: now,
      lastSeenMs: now,
    };
    this.#sessions.set(session.id, session);
    // Map order is the LRU order, so the user's first sessions are its least recently used.
    const own = [...this.#sessions.values()].filter((candidate) => candidate.username === username);
    for (const evicted of own.slice(0, Math.max(0, own.length - this.#limits.maxSessionsPerUser))) {
      this.end(evicted.id);
    }
    while (this.#sessions.size > this.#limits.maxSessions) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.end(oldest);
    }
    return session;
  }

  /** The live session with this id, touched (idle timer restarted), or undefined. */
  touch(id: string | undefined): Session | undefined {
    if (id === undefined || id === '') return undefined;
    const session = this.#sessions.get(id);
    if (session === undefined) return undefined;
    const now = this.options.now();
    if (this.#expired(session, now)) {
      this.end(id);
      return undefined;
    }
    session.lastSeenMs = now;
    // Map order is the LRU order.
    this.#sessions.delete(id);
    this.#sessions.set(id, session);
    return session;
  }

  /** Ends a session (logout); a later use of its id is refused. */
  end(id: string): void {
    const session = this.#sessions.get(id);
    if (session === undefined) return;
    this.#sessions.delete(id);
    this.options.onEnd?.(session);
  }

  /** When the session ends if unused: the earlier of its idle and absolute limits. */
  expiresAtMs(session: Session): number {
    return Math.min(session.lastSeenMs + this.#limits.idleMs, session.createdAtMs + this.#limits.absoluteMs);
  }

  /** Ends every session of `username` that `shouldEnd` picks; answers how many ended. */
  endSessionsOf(username: string, shouldEnd: (session: Session) => boolean): number {
    const ending = [...this.#sessions.values()].filter(
      (session) => session.username === username && shouldEnd(session),
    );
    for (const session of ending) this.end(session.id);
    return ending.length;
  }

  /** Live sessions of `username` (none expired is counted only until the next sweep). */
  countOf(username: string): number {
    let count = 0;
    for (const session of this.#sessions.values()) if (session.username === username) count++;
    return count;
  }

  /** Whether some live session is this principal's. */
  hasPrincipal(principal: string): boolean {
    for (const session of this.#sessions.values()) if (session.principal === principal) return true;
    return false;
  }

  /** When the session ends whatever its use (the cookie's lifetime). */
  absoluteExpiresAtMs(session: Session): number {
    return session.createdAtMs + this.#limits.absoluteMs;
  }

  get size(): number {
    return this.#sessions.size;
  }

  #expired(session: Session, now: number): boolean {
    return now >= this.expiresAtMs(session);
  }

  #sweep(now: number): void {
    for (const session of [...this.#sessions.values()]) {
      if (this.#expired(session, now)) this.end(session.id);
    }
  }
}

/** Constant-time comparison of two tokens. */
export function sameToken(left: string | null | undefined, right: string): boolean {
  if (left === null || left === undefined) return false;
  const a = Buffer.from(left, 'utf8');
  const b = Buffer.from(right, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** One cookie's value from a Cookie header. */
export function cookieValue(header: string | null, name: string): string | undefined {
  if (header === null) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) return decodeURIComponent(part.slice(index + 1).trim());
  }
  return undefined;
}
