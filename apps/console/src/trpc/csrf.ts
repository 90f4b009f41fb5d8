/**
 * The session's CSRF token (login mode), echoed in `x-weir-csrf` on every request: the server
 * refuses changes made with the session cookie without it. Empty when the console runs open.
 */
export function csrfHeaders(): Record<string, string> {
  if (typeof document === 'undefined') return {};
  const match = /(?:^|;\s*)weir_csrf=([^;]+)/.exec(document.cookie);
  return match?.[1] === undefined ? {} : { 'x-weir-csrf': decodeURIComponent(match[1]) };
}
