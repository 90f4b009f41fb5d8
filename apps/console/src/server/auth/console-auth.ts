import type { ConsoleAuthMode } from '../../env';
import type { BrokerClients } from '../admin-client';
import type { GatewayServices } from '../gateway-services';
import { loadAclPolicy } from './acl-policy-loader';
import type { CredentialChecker, CredentialVerdict } from './credential-checks';
import {
  CSRF_COOKIE,
  CSRF_HEADER,
  cookieValue,
  DEFAULT_SESSION_LIMITS,
  SESSION_COOKIE,
  type Session,
  type SessionLimits,
  SessionStore,
  sameToken,
} from './sessions';

/** At most this many users' broker connections stay open; the least recently used is closed. */
const DEFAULT_MAX_USER_CLIENTS = 64;
/**
 * A session's credentials are compared with the broker's at most this often per user, so a
 * password changed or a user deleted outside the console (`weir user passwd`, `weir user delete`)
 * ends its sessions within this long.
 */
export const DEFAULT_CREDENTIAL_RECHECK_MS = 5_000;

export interface ConsoleAuthOptions {
  readonly mode: ConsoleAuthMode;
  readonly now: () => number;
  /** Asks the broker whether a username and password are right (rate-limited there). */
  readonly credentials: CredentialChecker;
  /**
   * The current credential fingerprints of these users as the broker reports them (WeirListUsers
   * v1); a user missing from the answer no longer exists.
   */
  readonly readFingerprints: (usernames: readonly string[]) => Promise<ReadonlyMap<string, string>>;
  /** The broker clients acting for one principal (WEIR-TOKEN actAs). */
  readonly clientsFor: (principal: string) => BrokerClients;
  readonly limits?: Partial<SessionLimits>;
  readonly maxUserClients?: number;
  readonly credentialRecheckMs?: number;
}

/** What a login attempt earned: a session, or the check's verdict when it earned none. */
export type LoginOutcome =
  | { readonly kind: 'session'; readonly session: Session }
  | Exclude<CredentialVerdict, { readonly kind: 'accepted' }>;

/** Whether a session may still be used, after comparing its credentials with the broker's. */
export type SessionCheck = 'live' | 'ended' | 'unverifiable';

interface CredentialReading {
  readonly atMs: number;
  /** The fingerprint, or null when the user no longer exists. */
  readonly fingerprint: string | null;
}

/**
 * The console's authentication (issue #8): in `login` mode every request resolves its session
 * (cookie, or bearer token for REST) to the broker clients acting for that user, so the broker's
 * ACLs decide what each request may do; in `none` mode nothing changes. A session lasts only as
 * long as the credentials it was opened with: they are compared with the broker's at most every
 * `credentialRecheckMs` per user, and at once after the console itself changes them.
 */
export class ConsoleAuth {
  readonly mode: ConsoleAuthMode;
  readonly sessions: SessionStore;
  /** Per user, in LRU order. */
  readonly #clients = new Map<string, BrokerClients>();
  /** Per user: the broker's fingerprint when last read. */
  readonly #readings = new Map<string, CredentialReading>();
  /** Per user: the reading under way, shared by concurrent requests. */
  readonly #reading = new Map<string, Promise<CredentialReading>>();

  constructor(private readonly options: ConsoleAuthOptions) {
    this.mode = options.mode;
    this.sessions = new SessionStore({
      now: options.now,
      limits: { ...DEFAULT_SESSION_LIMITS, ...options.limits },
      onEnd: (session) => this.#release(session),
    });
  }

  /** Checks the credentials with the broker and opens a session, or says why there is none. */
  async login(username: string, password: string): Promise<LoginOutcome> {
    if (username === '' || password === '') return { kind: 'refused' };
    const verdict = await this.options.credentials.check(username, password);
    if (verdict.kind !== 'accepted') return verdict;
    const session = this.sessions.create(username, verdict.credentialFingerprint);
    if (verdict.credentialFingerprint !== null) {
      this.#readings.set(username, { atMs: this.options.now(), fingerprint: verdict.credentialFingerprint });
    }
    return { kind: 'session', session };
  }

  /**
   * The live session with this id, after comparing its credentials with the broker's when the last
   * comparison for its user is older than `credentialRecheckMs`: sessions whose user was deleted or
   * whose password changed end here. `unverifiable` (with the session, not to be served) when the
   * broker cannot be asked.
   */
  async resume(id: string | undefined): Promise<{ check: SessionCheck; session?: Session }> {
    const session = this.sessions.touch(id);
    if (session === undefined) return { check: 'ended' };
    let reading = this.#readings.get(session.username);
    if (reading === undefined || this.options.now() - reading.atMs >= this.#recheckMs) {
      try {
        reading = await this.#read(session.username);
      } catch {
        return { check: 'unverifiable', session };
      }
    }
    if (!this.#matches(session, reading)) {
      this.#endStale(session.username, reading);
      return { check: 'ended' };
    }
    // The session may have ended while the broker was asked (logout, or another request's check).
    return this.sessions.touch(session.id) === undefined ? { check: 'ended' } : { check: 'live', session };
  }

  /**
   * The console changed or deleted this user's credentials: its sessions are compared with the
   * broker's at once (those opened with the old password end), not after `credentialRecheckMs`.
   */
  async credentialsChanged(username: string): Promise<void> {
    this.#readings.delete(username);
    if (this.sessions.countOf(username) === 0) return;
    try {
      // A reading already under way may have started before the change: read anew.
      this.#reading.delete(username);
      this.#endStale(username, await this.#read(username));
    } catch {
      // The next request of each session asks again (the reading was dropped above).
    }
  }

  /** The services of a request made in a session: the shared ones with the user's broker clients. */
  servicesFor(session: Session, base: GatewayServices): GatewayServices {
    let clients = this.#clients.get(session.principal);
    if (clients === undefined) {
      clients = this.options.clientsFor(session.principal);
      this.#clients.set(session.principal, clients);
      while (this.#clients.size > (this.options.maxUserClients ?? DEFAULT_MAX_USER_CLIENTS)) {
        const [oldest, evicted] = this.#clients.entries().next().value as [string, BrokerClients];
        this.#clients.delete(oldest);
        void evicted.close();
      }
    } else {
      this.#clients.delete(session.principal);
      this.#clients.set(session.principal, clients);
    }
    const user = clients;
    let policy: ReturnType<typeof loadAclPolicy> | undefined;
    return {
      ...base,
      broker: user,
      aclPolicy: () => {
        policy ??= loadAclPolicy(session.principal, base.broker, user);
        return policy;
      },
      credentialsChanged: (username) => this.credentialsChanged(username),
    };
  }

  async close(): Promise<void> {
    const all = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.allSettled([...all.map((clients) => clients.close()), this.options.credentials.close()]);
  }

  get #recheckMs(): number {
    return this.options.credentialRecheckMs ?? DEFAULT_CREDENTIAL_RECHECK_MS;
  }

  #read(username: string): Promise<CredentialReading> {
    const running = this.#reading.get(username);
    if (running !== undefined) return running;
    // Declared first so the callbacks below can tell whether it is still the current reading.
    let reading: Promise<CredentialReading> | undefined;
    reading = (async () => {
      const fingerprints = await this.options.readFingerprints([username]);
      const result: CredentialReading = {
        atMs: this.options.now(),
        fingerprint: fingerprints.get(username) ?? null,
      };
      // A reading superseded meanwhile (see credentialsChanged) is not kept.
      if (this.#reading.get(username) === reading) this.#readings.set(username, result);
      return result;
    })().finally(() => {
      if (this.#reading.get(username) === reading) this.#reading.delete(username);
    });
    this.#reading.set(username, reading);
    return reading;
  }

  /** A session matches while its user exists and (when both are known) the fingerprints agree. */
  #matches(session: Session, reading: CredentialReading): boolean {
    if (reading.fingerprint === null) return false;
    if (session.credentialFingerprint === null || reading.fingerprint === '') return true;
    return session.credentialFingerprint === reading.fingerprint;
  }

  #endStale(username: string, reading: CredentialReading): void {
    this.sessions.endSessionsOf(username, (session) => !this.#matches(session, reading));
    if (reading.fingerprint === null) this.#readings.delete(username);
  }

  /** Closes a user's connections when their last session ends. */
  #release(ended: Session): void {
    if (this.sessions.hasPrincipal(ended.principal)) return;
    this.#readings.delete(ended.username);
    const clients = this.#clients.get(ended.principal);
    this.#clients.delete(ended.principal);
    void clients?.close();
  }
}

/** How a request proved who it is. */
export type RequestIdentity =
  | { readonly kind: 'open' }
  | { readonly kind: 'session'; readonly session: Session; readonly via: 'cookie' | 'bearer' };

/** The outcome of authenticating one gateway request. */
export type AuthOutcome =
  | { readonly ok: true; readonly identity: RequestIdentity }
  | { readonly ok: false; readonly response: Response };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Resolves a gateway request's session. A request without a live session gets 401; a state
 * changing request (any method but GET/HEAD/OPTIONS) made with the cookie must carry the session's
 * CSRF token in `x-weir-csrf` (double submit), else 403. Bearer requests are exempt: a browser
 * never adds an Authorization header on its own.
 */
export async function authenticateRequest(
  request: Request,
  auth: ConsoleAuth | undefined,
): Promise<AuthOutcome> {
  if (auth === undefined || auth.mode === 'none') return { ok: true, identity: { kind: 'open' } };
  const bearer = bearerToken(request);
  if (bearer !== undefined) {
    const resumed = await auth.resume(bearer);
    if (resumed.check !== 'live' || resumed.session === undefined) {
      return { ok: false, response: notResumed(resumed.check) };
    }
    return { ok: true, identity: { kind: 'session', session: resumed.session, via: 'bearer' } };
  }
  const resumed = await auth.resume(cookieValue(request.headers.get('cookie'), SESSION_COOKIE));
  const session = resumed.session;
  if (resumed.check !== 'live' || session === undefined)
    return { ok: false, response: notResumed(resumed.check) };
  if (!SAFE_METHODS.has(request.method) && !sameToken(request.headers.get(CSRF_HEADER), session.csrfToken)) {
    return {
      ok: false,
      response: jsonError(403, 'FORBIDDEN', `A change needs the ${CSRF_HEADER} header of the session.`),
    };
  }
  return { ok: true, identity: { kind: 'session', session, via: 'cookie' } };
}

export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  const match = header === null ? null : /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/** A request whose session could not be resumed: 401 once it ended, 503 when the broker cannot say. */
function notResumed(check: SessionCheck): Response {
  if (check !== 'unverifiable') return unauthorized();
  return jsonError(
    503,
    'SERVICE_UNAVAILABLE',
    'The console cannot reach the broker to confirm the session’s credentials; try again shortly.',
  );
}

export function unauthorized(): Response {
  return jsonError(401, 'UNAUTHORIZED', 'Log in first: no session, or it has ended.');
}

/** The gateway's error shape (as tRPC's REST errors): `{ message, code }`. */
export function jsonError(status: number, code: string, message: string): Response {
  return Response.json({ message, code, issues: [] }, { status });
}

/** Whether the request reached the console over TLS (directly or through a proxy that says so). */
export function servedOverHttps(request: Request): boolean {
  return (
    new URL(request.url).protocol === 'https:' ||
    request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https'
  );
}

/** The Set-Cookie headers that start a session in a browser. */
export function sessionCookies(request: Request, session: Session, maxAgeSeconds: number): string[] {
  const secure = servedOverHttps(request) ? '; Secure' : '';
  return [
    `${SESSION_COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`,
    `${CSRF_COOKIE}=${session.csrfToken}; Path=/; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`,
  ];
}

/** The Set-Cookie headers that forget the session in a browser. */
export function clearedCookies(request: Request): string[] {
  const secure = servedOverHttps(request) ? '; Secure' : '';
  return [SESSION_COOKIE, CSRF_COOKIE].map(
    (name) => `${name}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure}`,
  );
}
