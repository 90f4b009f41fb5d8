import { z } from 'zod';
import {
  authenticateRequest,
  bearerToken,
  type ConsoleAuth,
  clearedCookies,
  jsonError,
  type LoginOutcome,
  sessionCookies,
  unauthorized,
} from './console-auth';
import { readJsonBody } from './login-body';
import type { Session } from './sessions';

/** The login form's fields, for the page and for `POST /api/v1/sessions`. */
export const loginInput = z.object({
  username: z.string().trim().min(1, 'Enter a username.').max(256),
  password: z.string().min(1, 'Enter the password.').max(1024),
});

const REFUSED = 'Wrong username or password.';

async function readLogin(request: Request): Promise<z.infer<typeof loginInput> | Response> {
  const read = await readJsonBody(request);
  if (!read.ok) return read.response;
  let body: unknown;
  try {
    body = JSON.parse(read.text);
  } catch {
    body = undefined;
  }
  const parsed = loginInput.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  return Response.json(
    {
      message: 'Check the highlighted fields.',
      code: 'BAD_REQUEST',
      issues: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    },
    { status: 400 },
  );
}

/**
 * The answer to a login that opened no session. A throttled one is 429 with Retry-After; one the
 * console could not check (the broker refused the console itself, or is unreachable) is 503 and
 * never "wrong password", so the user is not sent hunting for a password that was right.
 */
function loginRefusal(outcome: Exclude<LoginOutcome, { kind: 'session' }>): Response {
  if (outcome.kind === 'refused') return jsonError(401, 'UNAUTHORIZED', REFUSED);
  if (outcome.kind === 'throttled') {
    const retryAfterSeconds = Math.max(1, Math.ceil(outcome.retryAfterMs / 1000));
    const message =
      outcome.reason === 'console'
        ? `The console is checking too many logins at once; try again in ${retryAfterSeconds} s.`
        : `Too many login attempts for this user; try again in ${retryAfterSeconds} s.`;
    return Response.json(
      { message, code: 'TOO_MANY_REQUESTS', issues: [], retryAfterMs: retryAfterSeconds * 1000 },
      { status: 429, headers: { 'retry-after': String(retryAfterSeconds) } },
    );
  }
  if (outcome.kind === 'console-refused') {
    return jsonError(
      503,
      'SERVICE_UNAVAILABLE',
      'The console cannot check logins: the broker refused the console’s own credentials. ' +
        'Its operator must fix them (see /api/health).',
    );
  }
  return jsonError(503, 'SERVICE_UNAVAILABLE', 'The console cannot reach the broker to check the login.');
}

/** Logs in, answering the session or the refusal. */
async function logIn(request: Request, auth: ConsoleAuth): Promise<Session | Response> {
  const login = await readLogin(request);
  if (login instanceof Response) return login;
  const outcome = await auth.login(login.username, login.password);
  return outcome.kind === 'session' ? outcome.session : loginRefusal(outcome);
}

function loginModeOnly(auth: ConsoleAuth | undefined): auth is ConsoleAuth {
  return auth !== undefined && auth.mode === 'login';
}

/**
 * The browser's session, `/api/session`: GET says who is logged in (and the CSRF token), POST logs
 * in with `{ username, password }` (checked by the broker) and sets the cookies, DELETE logs out.
 */
export async function handleBrowserSession(
  request: Request,
  auth: ConsoleAuth | undefined,
): Promise<Response> {
  if (!loginModeOnly(auth)) return jsonError(404, 'NOT_FOUND', 'The console runs without login.');
  if (request.method === 'POST') {
    const session = await logIn(request, auth);
    if (session instanceof Response) return session;
    // The cookie lasts as long as the session could; idle expiry is the server's to enforce.
    const maxAge = Math.ceil((auth.sessions.absoluteExpiresAtMs(session) - session.createdAtMs) / 1000);
    const headers = new Headers();
    for (const cookie of sessionCookies(request, session, maxAge)) {
      headers.append('set-cookie', cookie);
    }
    return Response.json({ username: session.username, csrfToken: session.csrfToken }, { headers });
  }
  const outcome = await authenticateRequest(request, auth);
  if (request.method === 'DELETE') {
    if (outcome.ok && outcome.identity.kind === 'session') auth.sessions.end(outcome.identity.session.id);
    const headers = new Headers();
    for (const cookie of clearedCookies(request)) headers.append('set-cookie', cookie);
    return new Response(null, { status: outcome.ok || outcome.response.status === 401 ? 204 : 403, headers });
  }
  if (request.method === 'GET') {
    if (!outcome.ok || outcome.identity.kind !== 'session') return unauthorized();
    const { session } = outcome.identity;
    return Response.json({ username: session.username, csrfToken: session.csrfToken });
  }
  return jsonError(405, 'METHOD_NOT_SUPPORTED', 'Use GET, POST or DELETE.');
}

/**
 * REST sessions, `/api/v1/sessions`: POST `{ username, password }` answers `{ token, expiresAtMs }`
 * for `Authorization: Bearer <token>`; DELETE with that header ends the session.
 */
export async function handleRestSession(request: Request, auth: ConsoleAuth | undefined): Promise<Response> {
  if (!loginModeOnly(auth)) return jsonError(404, 'NOT_FOUND', 'The console runs without login.');
  if (request.method === 'POST') {
    const session = await logIn(request, auth);
    if (session instanceof Response) return session;
    return Response.json(
      { token: session.id, username: session.username, expiresAtMs: auth.sessions.expiresAtMs(session) },
      { status: 201 },
    );
  }
  if (request.method === 'DELETE') {
    const session = auth.sessions.touch(bearerToken(request));
    if (session === undefined) return unauthorized();
    auth.sessions.end(session.id);
    return new Response(null, { status: 204 });
  }
  return jsonError(405, 'METHOD_NOT_SUPPORTED', 'Use POST or DELETE.');
}
