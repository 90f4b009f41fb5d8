import { z } from 'zod';
import {
  authenticateRequest,
  bearerToken,
  type ConsoleAuth,
  clearedCookies,
  jsonError,
  sessionCookies,
  unauthorized,
} from './console-auth';

/** The login form's fields, for the page and for `POST /api/v1/sessions`. */
export const loginInput = z.object({
  username: z.string().trim().min(1, 'Enter a username.').max(256),
  password: z.string().min(1, 'Enter the password.').max(1024),
});

const REFUSED = 'Wrong username or password.';

async function readLogin(request: Request): Promise<z.infer<typeof loginInput> | Response> {
  let body: unknown;
  try {
    body = await request.json();
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
    const login = await readLogin(request);
    if (login instanceof Response) return login;
    const session = await auth.login(login.username, login.password);
    if (session === undefined) return jsonError(401, 'UNAUTHORIZED', REFUSED);
    // The cookie lasts as long as the session could; idle expiry is the server's to enforce.
    const maxAge = Math.ceil((auth.sessions.absoluteExpiresAtMs(session) - session.createdAtMs) / 1000);
    const headers = new Headers();
    for (const cookie of sessionCookies(request, session, maxAge)) {
      headers.append('set-cookie', cookie);
    }
    return Response.json({ username: session.username, csrfToken: session.csrfToken }, { headers });
  }
  const outcome = authenticateRequest(request, auth);
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
    const login = await readLogin(request);
    if (login instanceof Response) return login;
    const session = await auth.login(login.username, login.password);
    if (session === undefined) return jsonError(401, 'UNAUTHORIZED', REFUSED);
    return Response.json(
      { token: session.id, username: session.username, expiresAtMs: auth.sessions.expiresAtMs(session) },
      { status: 201 },
    );
  }
  if (request.method === 'DELETE') {
    const token = bearerToken(request);
    const session = auth.sessions.touch(token);
    if (session === undefined) return unauthorized();
    auth.sessions.end(session.id);
    return new Response(null, { status: 204 });
  }
  return jsonError(405, 'METHOD_NOT_SUPPORTED', 'Use POST or DELETE.');
}
