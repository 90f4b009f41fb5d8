import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/*
 * Which Host headers the console answers (issue #15). A DNS-rebinding page points a name of its
 * own at this machine, so the browser sends that name as Host while it talks to the console: the
 * request is same-origin to the page, and CORS or SameSite cookies do not stop it. Refusing every
 * Host that is not one of the console's own names closes that path.
 */

/** The variable that adds names, quoted in the refusal so an operator knows what to set. */
export const ALLOWED_HOSTS_VARIABLE = 'WEIR_CONSOLE_ALLOWED_HOSTS';

/**
 * The host part of a Host header value (`name`, `name:port`, `[v6]:port`), lower case, with IPv6
 * addresses in brackets; undefined when it cannot be one.
 */
export function hostnameOf(hostHeader: string): string | undefined {
  const value = hostHeader.trim().toLowerCase();
  const bracketed = /^(\[[0-9a-f:.]+\])(?::\d{1,5})?$/.exec(value);
  if (bracketed !== null) return bracketed[1];
  const named = /^([a-z0-9._-]+)(?::\d{1,5})?$/.exec(value);
  return named === null ? undefined : named[1];
}

/** An address as a Host header carries it: IPv6 in brackets. */
function asHost(address: string): string {
  return isIP(address) === 6 ? `[${address.toLowerCase()}]` : address.toLowerCase();
}

/** Loopback: `localhost` and its subdomains (RFC 6761 keeps them local), 127.0.0.0/8, ::1. */
function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/** This machine's interface addresses, as Host headers carry them. */
export function localAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .map((entry) => asHost(entry.address.replace(/%.*$/, '')));
}

export class AllowedHosts {
  readonly #configured: ReadonlySet<string>;
  readonly #readAddresses: () => readonly string[];
  #addresses: ReadonlySet<string>;

  /**
   * `configured`: WEIR_CONSOLE_ALLOWED_HOSTS and the listen host; `addresses`: this machine's own
   * (a browser that sends an address as Host navigated to it, which no rebinding can produce),
   * read again when a Host is not found, since a machine can gain addresses while it runs.
   */
  constructor(configured: readonly string[], addresses: () => readonly string[]) {
    this.#configured = new Set(configured.map((name) => asHost(name.replace(/^\[|\]$/g, ''))));
    this.#readAddresses = addresses;
    this.#addresses = new Set(addresses());
  }

  /** Whether a request with this Host header is the console's. */
  allows(hostHeader: string | null): boolean {
    if (hostHeader === null) return false;
    const hostname = hostnameOf(hostHeader);
    if (hostname === undefined) return false;
    if (isLoopback(hostname) || this.#configured.has(hostname) || this.#addresses.has(hostname)) return true;
    if (isIP(hostname.replace(/^\[|\]$/g, '')) === 0) return false;
    this.#addresses = new Set(this.#readAddresses());
    return this.#addresses.has(hostname);
  }

  /** The 421 answer for a Host the console does not answer under; it names the setting. */
  static refusal(hostHeader: string | null): Response {
    const shown = hostHeader === null ? 'no Host header' : `Host "${hostHeader.slice(0, 200)}"`;
    return Response.json(
      {
        message:
          `${shown} is not one of the console's names. The console answers only under loopback names, ` +
          `this machine's addresses and the names in ${ALLOWED_HOSTS_VARIABLE} (comma-separated); add the name ` +
          'there if the console is reached under it (a reverse proxy, say).',
        code: 'MISDIRECTED_REQUEST',
        issues: [],
      },
      { status: 421, headers: { 'cache-control': 'no-store' } },
    );
  }
}
