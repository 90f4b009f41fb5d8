/*
 * The headers every console response carries (issue #15): no other site may frame it
 * (clickjacking), browsers must not guess content types, and URLs (which hold topic names and
 * filters) do not leak to other sites through the Referer.
 */

/** The headers that do not depend on the response. */
export const STATIC_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/** The policy of anything but a page (API answers, assets): nothing runs, nothing frames it. */
export const NON_PAGE_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * The policy of a page. Scripts need the request's nonce, which Next.js reads back from this
 * header on the request and puts on its own scripts; 'strict-dynamic' lets those load the app's
 * chunks. Styles allow inline ones, since React renders `style` attributes. Development builds
 * evaluate code for fast refresh, so they need 'unsafe-eval' (never in production).
 */
export function pageCsp(nonce: string, development: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Sets the static headers and the policy on a response's headers. */
export function applySecurityHeaders(headers: Headers, csp: string): void {
  for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS)) headers.set(name, value);
  headers.set('content-security-policy', csp);
}
