/**
 * The byte stream under a connection. A transport only moves bytes; framing, correlation and
 * deadlines live in the connection above it, so a TLS socket or an in-memory pipe can replace the
 * Node socket without touching any protocol code (nats.js splits its client the same way).
 */

/** What a transport reports to its owner. Neither callback is ever called from inside `write` or `close`. */
export interface TransportHandlers {
  /** The next chunk of the stream, in order. The transport never reuses a chunk after handing it over. */
  onData(chunk: Buffer): void;
  /**
   * The stream ended, because either side closed it (`error` undefined) or because it failed.
   * Called exactly once, also after {@link Transport.close}.
   */
  onClose(error: Error | undefined): void;
}

/**
 * TLS for a connection (a listener with security.protocol SSL or SASL_SSL). The values are handed
 * to Node's `tls.connect`; PEM strings or Buffers.
 */
export interface TlsOptions {
  /** CAs trusted for the broker's certificate; Node's bundled public CAs when absent. */
  readonly ca?: string | Buffer | ReadonlyArray<string | Buffer>;
  /** A client certificate (mutual TLS), with its `key`. */
  readonly cert?: string | Buffer;
  /** The client certificate's private key. */
  readonly key?: string | Buffer;
  /** The name sent in SNI and checked against the certificate. Default: the host, unless it is an IP address. */
  readonly servername?: string;
  /** Refuse a broker whose certificate does not verify or does not match the host. Default true. */
  readonly rejectUnauthorized?: boolean;
}

/** Where to connect and who to tell about it. */
export interface TransportConnectOptions {
  readonly host: string;
  readonly port: number;
  /** Speak TLS over the socket; plain TCP when absent. */
  readonly tls?: TlsOptions;
  /** Give up on establishing the stream after this long. */
  readonly connectTimeoutMs: number;
  /** The local address to connect from (a broker dials its peers from its own address); any when absent. */
  readonly localAddress?: string;
  readonly handlers: TransportHandlers;
}

/** An open byte stream to one broker. */
export interface Transport {
  /** `host:port` of the peer, for messages. */
  readonly remoteAddress: string;
  /**
   * Writes the parts back to back, after everything written before. `onWritten` is called once the
   * bytes are handed to the operating system, or with the error that stopped them; a write after
   * close reports an error rather than throwing.
   */
  write(parts: readonly Uint8Array[], onWritten?: (error: Error | undefined) => void): void;
  /** Closes the stream; idempotent. `onClose` follows asynchronously. */
  close(): void;
}

/**
 * Opens a transport. Rejects when the stream cannot be established within `connectTimeoutMs`
 * (refused, unreachable, unresolvable, timed out). Passed in through client options, never set
 * globally, so tests and other runtimes can supply their own.
 */
export type TransportFactory = (options: TransportConnectOptions) => Promise<Transport>;
