import type { ConsoleAuthMode } from '../../env';
import type { BrokerClients } from '../admin-client';
import type { GatewayServices } from '../gateway-services';
import { loadAclPolicy } from './acl-policy-loader';
import {
  CSRF_COOKIE,
  CSRF_HEADER,
  cookieValue,
  SESSION_COOKIE,
  type Session,
  type SessionLimits,
  SessionStore,
  sameToken,
} from './sessions';

/** At most this many users' broker connections stay open; the least recently used is closed. */
const DEFAULT_MAX_USER_CLIENTS = 64;

export interface ConsoleAuthOptions {
  readonly mode: ConsoleAuthMode;
  readonly now: () => number;
  /** Asks the broker whether a username and password are right (rate-limited there). */
  readonly verifyCredentials: (username: string, password: string) => Promise<boolean>;
  /** The broker clients acting for one principal (WEIR-TOKEN actAs). */
  readonly clientsFor: (principal: string) => BrokerClients;
  readonly limits?: SessionLimits;
  readonly maxUserClients?: number;
}

/**
 * The console's authentication (issue #8): in `login` mode every request resolves its session
 * (cookie, or bearer token for REST) to the broker clients acting for that user, so the broker's
 * ACLs decide what each request may do; in `none` mode nothing changes.
 */
export class ConsoleAuth {
  readonly mode: ConsoleAuthMode;
  readonly sessions: SessionStore;
  /** Per user, in LRU order. */
  readonly #clients = new Map<string, BrokerClients>();

  constructor(private readonly options: ConsoleAuthOptions) {
    this.mode = options.mode;
    this.sessions = new SessionStore({
      now: options.now,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      onEnd: (session) => this.#release(session),
    });
  }

  /** Checks the credentials with the broker and opens a session, or undefined when refused. */
  async login(username: string, password: string): Promise<Session | undefined> {
    if (username === '' || password === '') return undefined;
    if (!(await this.options.verifyCredentials(username, password))) return undefined;
    return this.sessions.create(username);
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
    };
  }

  async close(): Promise<void> {
    const all = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.allSettled(all.map((clients) => clients.close()));
  }

  /** Closes a user's connections when their last session ends. */
  #release(ended: Session): void {
    if (this.sessions.hasPrincipal(ended.principal)) return;
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
export function authenticateRequest(request: Request, auth: ConsoleAuth | undefined): AuthOutcome {
  if (auth === undefined || auth.mode === 'none') return { ok: true, identity: { kind: 'open' } };
  const bearer = bearerToken(request);
  if (bearer !== undefined) {
    const session = auth.sessions.touch(bearer);
    if (session === undefined) return { ok: false, response: unauthorized() };
    return { ok: true, identity: { kind: 'session', session, via: 'bearer' } };
  }
  const session = auth.sessions.touch(cookieValue(request.headers.get('cookie'), SESSION_COOKIE));
  if (session === undefined) return { ok: false, response: unauthorized() };
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
