import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import {
  Admin,
  Client,
  type ClientOptions,
  InternalAdmin,
  parseBrokerAddress,
  type TlsOptions,
} from '@weir/protocol';
import type { InternalListenerFlags } from './internal-listener-command';
import { reportClientError } from './report-client-error';
import { UsageError } from './usage-error';

/** A connection to the internal listener with the two admins the internal commands use. */
export interface InternalSession {
  admin: Admin;
  internal: InternalAdmin;
  /**
   * The internal admin of one broker only, at the address the metadata advertises for it on the
   * internal listener, authenticated like the session; closed with the session. Its client gives
   * up on a dead broker quickly, so a command asking every broker is not held up by one.
   */
  node(broker: { host: string; port: number }): InternalAdmin;
}

/** A per-broker client tries a dead broker briefly: the command names it and goes on. */
const NODE_CONNECT_TIMEOUT_MS = 3_000;
const NODE_RETRY = { maxAttempts: 3, maxTotalMs: 2_000 } as const;

/**
 * TLS to the internal listener from `--internal-tls-ca/-cert/-key` (any of them turns TLS on), or
 * undefined for a plaintext listener. A client certificate the broker trusts
 * (`listeners.internal.trustedCertificatePrincipals`) stands in for the token.
 */
export function internalTls(
  flags: InternalListenerFlags,
  read: (path: string) => Buffer = readFileSync,
): TlsOptions | undefined {
  const { internalTlsCa: ca, internalTlsCert: cert, internalTlsKey: key } = flags;
  if (ca === undefined && cert === undefined && key === undefined) return undefined;
  if ((cert === undefined) !== (key === undefined)) {
    throw new UsageError('--internal-tls-cert and --internal-tls-key go together');
  }
  const file = (flag: string, path: string): Buffer => {
    try {
      return read(path);
    } catch (error) {
      throw new UsageError(
        `${flag}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  };
  return {
    ...(ca === undefined ? {} : { ca: file('--internal-tls-ca', ca) }),
    ...(cert === undefined || key === undefined
      ? {}
      : { cert: file('--internal-tls-cert', cert), key: file('--internal-tls-key', key) }),
  };
}

/**
 * The internal listener's token: `--token`, else the contents of `--token-file`, else of
 * `<data-dir>/internal-listener.token` (where a broker without a configured token generates it).
 * With a client certificate and no token file to be found, the token is empty: the certificate is
 * what authenticates, if the broker trusts it.
 */
export async function internalToken(flags: InternalListenerFlags): Promise<string> {
  if (flags.token !== undefined) {
    if (flags.token.trim() === '') throw new UsageError('--token must not be empty');
    return flags.token;
  }
  const path = flags.tokenFile ?? join(flags.dataDir ?? './data', 'internal-listener.token');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    if (flags.tokenFile === undefined && flags.internalTlsCert !== undefined && reason === 'ENOENT')
      return '';
    throw new UsageError(
      `cannot read the internal listener token from ${path} (${reason}); give --token-file, --data-dir, --token or a trusted --internal-tls-cert`,
    );
  }
  // The broker writes the token alone; a trailing newline from an editor is not part of it.
  const token = text.trim();
  if (token === '') throw new UsageError(`the token file ${path} is empty`);
  return token;
}

/**
 * Runs an internal command against the internal listener: authenticates with the token (or a
 * trusted client certificate), runs `work`, closes the client, and turns failures into an exit
 * status with a message on stderr.
 */
export async function withInternalSession(
  flags: InternalListenerFlags,
  deps: { stderr: Writable },
  work: (session: InternalSession) => Promise<number | undefined>,
): Promise<number> {
  let client: Client | undefined;
  const nodes = new Map<string, { client: Client; internal: InternalAdmin }>();
  try {
    try {
      parseBrokerAddress(flags.internal);
    } catch {
      throw new UsageError(`--internal: "${flags.internal}" is not host:port with a port in 1..65535`);
    }
    const tls = internalTls(flags);
    const token = await internalToken(flags);
    const options: ClientOptions = {
      bootstrapServers: [flags.internal],
      clientId: 'weir-cli',
      sasl: { mechanism: 'WEIR-TOKEN', token },
      ...(tls === undefined ? {} : { tls }),
    };
    client = new Client(options);
    const node = (broker: { host: string; port: number }): InternalAdmin => {
      const address = `${broker.host}:${broker.port}`;
      let known = nodes.get(address);
      if (known === undefined) {
        const nodeClient = new Client({
          ...options,
          bootstrapServers: [address],
          connectTimeoutMs: NODE_CONNECT_TIMEOUT_MS,
          retry: NODE_RETRY,
        });
        known = { client: nodeClient, internal: new InternalAdmin(nodeClient) };
        nodes.set(address, known);
      }
      return known.internal;
    };
    return (await work({ admin: new Admin(client), internal: new InternalAdmin(client), node })) ?? 0;
  } catch (error) {
    return reportClientError(error, deps.stderr);
  } finally {
    await Promise.allSettled([...nodes.values()].map((known) => known.client.close()));
    await client?.close();
  }
}
