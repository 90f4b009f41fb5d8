import type { SaslOptions, TlsOptions } from '@weir/protocol';
import type { BrokerConfig } from '../config/broker-config';
import type { ReadTextFile } from '../server/tls/tls-material';

/** How this broker authenticates on another broker's internal listener, per connection. */
export interface InterBrokerCredentials {
  readonly sasl: SaslOptions;
  /** TLS when the internal listeners speak it (every broker's is configured alike). */
  readonly tls: TlsOptions | undefined;
}

/** What {@link loadInterBrokerCredentials} read. */
export interface LoadedInterBrokerCredentials {
  /** The credentials of the next connection. */
  current(): InterBrokerCredentials;
  /** The cluster secret, which this broker's internal listener also accepts; undefined without one. */
  readonly clusterSecret: string | undefined;
}

/** A setting of the inter-broker credentials that cannot be used, named by its key. */
export class InterBrokerCredentialsError extends Error {
  override readonly name = 'InterBrokerCredentialsError';

  constructor(
    readonly key: string,
    readonly reason: string,
  ) {
    super(`${key}: ${reason}`);
  }
}

/**
 * Reads what `cluster.interBrokerAuthentication` needs (docs/architecture.md §7): the cluster secret
 * from `cluster.secretFile`, or the internal listener's certificate and key for mutual TLS, or
 * nothing for `token`, which presents the internal listener's token (known only once the broker has
 * resolved it, hence `internalToken` is read per connection). When the internal listener has TLS,
 * peers are dialled over TLS and their certificates checked against its `caFile` (the cluster's
 * CA), or the system's CAs when it has none. Throws {@link InterBrokerCredentialsError} naming the
 * setting; the secret's contents never go into a message.
 */
export async function loadInterBrokerCredentials(
  config: BrokerConfig,
  internalToken: () => string | undefined,
  readFile: ReadTextFile,
): Promise<LoadedInterBrokerCredentials> {
  const { cluster } = config;
  const listenerTls = config.listeners.internal.tls;
  const read = async (key: string, path: string): Promise<string> => {
    try {
      return await readFile(path);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new InterBrokerCredentialsError(key, `cannot read ${path} (${reason})`);
    }
  };
  const ca =
    listenerTls?.caFile === undefined
      ? undefined
      : await read('listeners.internal.tls.caFile', listenerTls.caFile);
  let tls: TlsOptions | undefined = listenerTls === undefined ? undefined : ca === undefined ? {} : { ca };
  switch (cluster.interBrokerAuthentication) {
    case 'secret': {
      const path = cluster.secretFile;
      if (path === undefined)
        throw new InterBrokerCredentialsError(
          'cluster.secretFile',
          'required when interBrokerAuthentication is secret',
        );
      // A trailing newline from an editor or `echo` is not part of the secret.
      const secret = (await read('cluster.secretFile', path)).trim();
      if (secret.length < 16) {
        throw new InterBrokerCredentialsError(
          'cluster.secretFile',
          `${path} must hold a secret of at least 16 characters`,
        );
      }
      const sasl: SaslOptions = { mechanism: 'WEIR-TOKEN', token: secret };
      return { current: () => ({ sasl, tls }), clusterSecret: secret };
    }
    case 'certificate': {
      if (listenerTls === undefined) {
        throw new InterBrokerCredentialsError(
          'listeners.internal.tls',
          'required when cluster.interBrokerAuthentication is certificate (the certificate brokers present to each other)',
        );
      }
      const [cert, key] = await Promise.all([
        read('listeners.internal.tls.certFile', listenerTls.certFile),
        read('listeners.internal.tls.keyFile', listenerTls.keyFile),
      ]);
      tls = { ...tls, cert, key };
      // An empty token: the certificate authenticates, where the peer trusts its principal.
      const sasl: SaslOptions = { mechanism: 'WEIR-TOKEN', token: '' };
      return { current: () => ({ sasl, tls }), clusterSecret: undefined };
    }
    case 'token':
      return {
        current: () => {
          const token = internalToken();
          if (token === undefined) throw new Error('the internal listener token is not resolved yet');
          return { sasl: { mechanism: 'WEIR-TOKEN', token }, tls };
        },
        clusterSecret: undefined,
      };
  }
}
