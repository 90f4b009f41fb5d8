/** A broker's host and port. */
export interface BrokerAddress {
  readonly host: string;
  readonly port: number;
}

const ADDRESS_PATTERN = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/;

/**
 * Parses `host:port` (or `[ipv6]:port`), as bootstrap server lists write them. A malformed entry
 * is a configuration mistake and throws a RangeError that names it.
 */
export function parseBrokerAddress(text: string): BrokerAddress {
  const match = ADDRESS_PATTERN.exec(text.trim());
  const port = match ? Number(match[3]) : Number.NaN;
  if (!match || port < 1 || port > 65535) {
    throw new RangeError(`bootstrap server "${text}" is not host:port with a port in 1..65535`);
  }
  return { host: (match[1] ?? match[2])!, port };
}

/** `host:port`, with brackets around IPv6 hosts. */
export function formatBrokerAddress(address: BrokerAddress): string {
  return address.host.includes(':') ? `[${address.host}]:${address.port}` : `${address.host}:${address.port}`;
}
