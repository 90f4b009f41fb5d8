import type { ConsoleAuthMode } from '../../env';
import { CSRF_HEADER } from '../auth/sessions';

/*
 * Changes (any method but GET, HEAD and OPTIONS) must come from the console's own pages or from a
 * program, never from another site's page (issue #15). A browser names the page's origin in the
 * Origin header of every such request and will not add a custom header to a cross-origin request
 * without a CORS preflight, which the console never grants. So a change is accepted when its
 * Origin is the console's own, or, without an Origin (curl, scripts), when it carries the CSRF
 * header. In login mode the session's own check applies on top (the cookie's CSRF token; a bearer
 * token is a header no page can add by itself).
 */

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The hosts (`name:port`) the request was addressed to: its Host, and a proxy's X-Forwarded-Host. */
function requestHosts(request: Request): string[] {
  const hosts = [request.headers.get('host') ?? new URL(request.url).host];
  const forwarded = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim();
  if (forwarded !== undefined && forwarded !== '') hosts.push(forwarded);
  return hosts.map((host) => host.toLowerCase());
}

/** The host (`name:port`, default port left out, as in a Host header) of an Origin; undefined for `null`. */
function originHost(origin: string): string | undefined {
  if (!URL.canParse(origin)) return undefined;
  const url = new URL(origin);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.host.toLowerCase() : undefined;
}

function refused(message: string): Response {
  return Response.json(
    { message, code: 'FORBIDDEN', issues: [] },
    { status: 403, headers: { 'cache-control': 'no-store' } },
  );
}

/** A 403 for a change another site's page could have sent, or undefined to go on. */
export function refuseCrossSiteMutation(request: Request, mode: ConsoleAuthMode): Response | undefined {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return undefined;
  const origin = request.headers.get('origin');
  if (origin !== null) {
    const host = originHost(origin);
    if (host !== undefined && requestHosts(request).includes(host)) return undefined;
    return refused(
      `A change from another origin (${origin.slice(0, 200)}) is refused: the console takes changes only ` +
        'from its own pages, or from programs that send no Origin header.',
    );
  }
  if (mode === 'login') return undefined;
  const header = request.headers.get(CSRF_HEADER);
  if (header !== null && header.trim() !== '') return undefined;
  return refused(
    `A change needs the ${CSRF_HEADER} header (any value, e.g. \`-H '${CSRF_HEADER}: 1'\`) or a same-origin ` +
      'Origin header: without them another site could have sent it.',
  );
}
