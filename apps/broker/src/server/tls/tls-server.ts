import { readFile as readFileFromDisk } from 'node:fs/promises';
import { createServer, type Server, type TLSSocket } from 'node:tls';
import type { ListenerTlsConfig } from '../../config/listener-tls-schema';
import { certificatePrincipal } from './certificate-principal';
import { loadTlsMaterial, type ReadTextFile } from './tls-material';

/** How a listener serves TLS. */
export interface ListenerTlsOptions {
  readonly config: ListenerTlsConfig;
  /**
   * Whether a client certificate sets the connection's principal: on SSL listeners, not on
   * SASL_SSL ones, where the SASL identity wins (as in Kafka). Either way the certificate's
   * principal is known to the SASL mechanisms (see {@link TlsPeer}).
   */
  readonly principalFromCertificate: boolean;
  /** The settings' dotted prefix for errors, e.g. `listeners.client.tls`. */
  readonly keyPrefix: string;
  /** Reads the PEM files; the disk by default. */
  readonly readFile?: ReadTextFile;
}

/** Who completed a handshake. */
export interface TlsPeer {
  /**
   * `User:<DN>` (or `User:<CN>`) of a verified client certificate; undefined when none was sent or
   * the listener asks for none. Derived on every TLS listener, also where SASL sets the principal,
   * because the internal listener's WEIR-TOKEN trusts some certificates in place of its token.
   */
  readonly certificatePrincipal: string | undefined;
  /** The negotiated protocol, such as `TLSv1.3`, for logs. */
  readonly protocol: string | null;
}

export interface TlsServerEvents {
  /** A handshake completed and the client certificate (if any) is acceptable. */
  onSecure(socket: TLSSocket, peer: TlsPeer): void;
  /** A connection was closed before any request: `reason` is a metric label, `detail` for logs. */
  onRefused(remoteAddress: string, reason: string, detail: string): void;
}

export interface TlsServer {
  readonly server: Server;
  /** Reads the certificate, key and CA; call before listening. Throws naming the setting. */
  load(): Promise<void>;
}

/**
 * A TLS server for one listener. Node's own client-certificate rejection destroys the socket with
 * nothing more than "socket hang up", so certificates are requested but judged here, after the
 * handshake and before the connection exists: an untrusted one is refused with its verification
 * error, and no request of that connection is ever read. Every failure only closes its own socket.
 */
export function createTlsServer(options: ListenerTlsOptions, events: TlsServerEvents): TlsServer {
  const { config } = options;
  const server = createServer({
    requestCert: config.clientAuth !== 'none',
    rejectUnauthorized: false,
    handshakeTimeout: config.handshakeTimeoutMs,
    // TLS 1.0 and 1.1 are deprecated (RFC 8996); every client we support speaks 1.2 or 1.3.
    minVersion: 'TLSv1.2',
  });
  server.on('secureConnection', (socket: TLSSocket) => {
    const verdict = judgePeer(socket, options);
    if (typeof verdict === 'string') {
      events.onRefused(socket.remoteAddress ?? 'unknown', 'tls client certificate refused', verdict);
      socket.destroy();
      return;
    }
    events.onSecure(socket, verdict);
  });
  server.on('tlsClientError', (error: NodeJS.ErrnoException, socket: TLSSocket) => {
    events.onRefused(socket.remoteAddress ?? 'unknown', handshakeFailure(error), error.code ?? error.message);
    // Node leaves the socket to whoever listens to this event: a timed-out handshake stays open.
    socket.destroy();
  });
  const readFile = options.readFile ?? ((path: string) => readFileFromDisk(path, 'utf8'));
  return {
    server,
    async load() {
      const material = await loadTlsMaterial(config, readFile, options.keyPrefix);
      server.setSecureContext({
        cert: material.cert,
        key: material.key,
        ...(material.ca ? { ca: material.ca } : {}),
      });
    },
  };
}

/** The peer, or why its certificate is refused. */
function judgePeer(socket: TLSSocket, options: ListenerTlsOptions): TlsPeer | string {
  const protocol = socket.getProtocol();
  const clientAuth = options.config.clientAuth;
  if (clientAuth === 'none') return { certificatePrincipal: undefined, protocol };
  const certificate = socket.getPeerX509Certificate();
  if (certificate === undefined) {
    return clientAuth === 'required'
      ? 'no client certificate'
      : { certificatePrincipal: undefined, protocol };
  }
  // Also with `requested`: a certificate that is sent must verify (Java's wantClientAuth does the
  // same), or its subject could be claimed by anyone.
  if (!socket.authorized) return `untrusted client certificate (${String(socket.authorizationError)})`;
  return {
    certificatePrincipal: certificatePrincipal(certificate, options.config.principalMapping),
    protocol,
  };
}

/** A short, fixed reason per kind of handshake failure (a metric label); the code goes to the log. */
function handshakeFailure(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ERR_TLS_HANDSHAKE_TIMEOUT':
      return 'tls handshake timeout';
    // What OpenSSL says when the first bytes are not a TLS record: a plaintext Kafka or HTTP client.
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
    case 'ERR_SSL_HTTP_REQUEST':
    case 'ERR_SSL_PACKET_LENGTH_TOO_LONG':
      return 'plaintext on tls port';
    default:
      return 'tls handshake failed';
  }
}

/**
 * The TLS options of a listener's settings, or undefined for a plaintext one. The schema only
 * allows `tls` on SSL and SASL_SSL listeners (and on the internal one, which has no protocol
 * setting and always authenticates with WEIR-TOKEN), so its presence is what turns TLS on.
 */
export function tlsForListener(
  name: 'client' | 'internal',
  listener: { readonly securityProtocol?: string; readonly tls?: ListenerTlsConfig | undefined },
): ListenerTlsOptions | undefined {
  if (listener.tls === undefined) return undefined;
  return {
    config: listener.tls,
    principalFromCertificate: listener.securityProtocol === 'SSL',
    keyPrefix: `listeners.${name}.tls`,
  };
}
