/**
 * The CSRF header, sent on every request: in login mode it echoes the session's token (the server
 * refuses changes made with the session cookie without it); without login any value will do, since
 * no other site's page can add a custom header to a request to the console.
 */
export function csrfHeaders(): Record<string, string> {
  if (typeof document === 'undefined') return {};
  const match = /(?:^|;\s*)weir_csrf=([^;]+)/.exec(document.cookie);
  return { 'x-weir-csrf': match?.[1] === undefined ? 'same-origin' : decodeURIComponent(match[1]) };
}
