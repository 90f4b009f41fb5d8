import { randomBytes } from 'node:crypto';
import { type NextRequest, NextResponse } from 'next/server';
import { env } from './env';
import { AllowedHosts } from './server/security/allowed-hosts';
import { processAllowedHosts } from './server/security/process-security';
import { applySecurityHeaders, NON_PAGE_CSP, pageCsp } from './server/security/security-headers';

/** API answers and build assets: no login redirect, no page policy. */
function isPage(path: string): boolean {
  return !/^\/(api|_next)(\/|$)/.test(path) && path !== '/icon.svg' && path !== '/favicon.ico';
}

/**
 * Runs before every request (issue #15). A Host that is not the console's is refused with 421, so
 * a DNS-rebinding page never reaches a page or the API. Every response gets the security headers;
 * a page gets a Content-Security-Policy with a fresh script nonce, passed to the render in the
 * request's own `content-security-policy` (where Next.js looks for it) and in `x-nonce` (for the
 * theme script).
 *
 * In login mode (WEIR_CONSOLE_AUTH=login), pages need a session: a request without the session
 * cookie goes to /login. Whether the cookie's session is still alive is decided by the layout and
 * the gateway (the sessions live in the server's memory); the API answers 401 itself. The path is
 * passed on in `x-weir-path`, so the layout can tell the login page from the others.
 */
export function proxy(request: NextRequest) {
  const host = request.headers.get('host');
  if (!processAllowedHosts().allows(host)) {
    const refusal = AllowedHosts.refusal(host);
    applySecurityHeaders(refusal.headers, NON_PAGE_CSP);
    return refusal;
  }
  const path = request.nextUrl.pathname;
  if (!isPage(path)) {
    const response = NextResponse.next();
    applySecurityHeaders(response.headers, NON_PAGE_CSP);
    return response;
  }
  const nonce = randomBytes(16).toString('base64');
  const csp = pageCsp(nonce, env().development);
  if (env().auth === 'login' && path !== '/login' && request.cookies.get('weir_session') === undefined) {
    const url = request.nextUrl.clone();
    url.pathname = '/login';
    url.search = '';
    const redirect = NextResponse.redirect(url);
    applySecurityHeaders(redirect.headers, csp);
    return redirect;
  }
  const headers = new Headers(request.headers);
  headers.set('x-weir-path', path);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', csp);
  const response = NextResponse.next({ request: { headers } });
  applySecurityHeaders(response.headers, csp);
  return response;
}

// Every path: the Host check and the headers apply to assets and the API as well as to pages.
export const config = {
  matcher: '/:path*',
};
