import { createServer, type Server, type Socket } from 'node:net';
import type { ListenerAuthenticator } from './auth/listener-authenticator';
import { Connection, type ConnectionLimits } from './connection';
import type { Dispatcher } from './dispatcher';
import { HeldRequestBytes } from './held-request-bytes';
import type { RequestScheduler } from './request-scheduler';
import { withCertificatePrincipal } from './tls/tls-principal-auth';
import { createTlsServer, type ListenerTlsOptions, type TlsPeer, type TlsServer } from './tls/tls-server';

export interface ListenerOptions extends ConnectionLimits {
  host: string;
  port: number;
  maxConnections: number;
  /** Fairness between connections, shared by the broker's listeners. */
  scheduler: RequestScheduler;
  /** How connections authenticate; each gets its own state from it. */
  authenticator: ListenerAuthenticator;
  /** TLS (SSL, SASL_SSL); plaintext when absent. */
  tlsOptions?: ListenerTlsOptions | undefined;
  /** The broker's tally of request bytes read and not yet handled; one per listener when absent. */
  heldRequestBytes?: HeldRequestBytes | undefined;
}

/** What is known about a connection when it opens, for the log. */
export interface OpenedConnection {
  /** Its principal so far: from the client certificate on SSL, else anonymous until SASL. */
  readonly principal: string;
  /** The TLS version, or undefined on a plaintext listener. */
  readonly tlsProtocol: string | undefined;
}

/** Connection counts and refusals, for metrics and logs. */
export interface ListenerEvents {
  onConnectionOpened(remoteAddress: string, openCount: number, opened: OpenedConnection): void;
  onConnectionClosed(remoteAddress: string, reason: string, openCount: number): void;
  /** `reason` is short and fixed (a metric label); `detail`, when there is one, is for the log. */
  onConnectionRejected(remoteAddress: string, reason: string, detail?: string): void;
  /** A frame refused on its size prefix (`reason` a fixed label); its connection closes. */
  onFrameRefused(remoteAddress: string, reason: string, detail: string): void;
}

/**
 * One listener (client or internal): accepts TCP connections on the configured address (loopback by default),
 * refuses connections beyond `maxConnections` by closing them at once, and on shutdown stops
 * accepting, lets requests in progress finish, then closes every connection.
 */
export class Listener {
  readonly #server: Server;
  /** Set on a TLS listener: the server is a `tls.Server` whose certificate loads at start. */
  readonly #tls: TlsServer | undefined;
  readonly #connections = new Set<Connection>();
  #boundPort = 0;
  readonly #heldRequestBytes: HeldRequestBytes;
  /**
   * Sockets accepted between {@link bind} and {@link open}, held until the broker is ready to
   * serve them: the port is taken (and known, for the broker's registration) before storage
   * recovers, but no request is read before the broker registered itself.
   */
  #held: { socket: Socket; tlsPeer: TlsPeer | undefined }[] | undefined = [];

  constructor(
    private readonly options: ListenerOptions,
    private readonly dispatcher: Dispatcher,
    private readonly events: ListenerEvents,
  ) {
    this.#heldRequestBytes = options.heldRequestBytes ?? new HeldRequestBytes();
    const tlsOptions = options.tlsOptions;
    if (tlsOptions === undefined) {
      this.#tls = undefined;
      this.#server = createServer((socket) => this.#acceptOrHold(socket, undefined));
    } else {
      this.#tls = createTlsServer(tlsOptions, {
        onSecure: (socket, peer) => this.#acceptOrHold(socket, peer),
        onRefused: (remoteAddress, reason, detail) =>
          events.onConnectionRejected(remoteAddress, reason, detail),
      });
      this.#server = this.#tls.server;
      // Sockets still in their handshake are not connections yet, so the check in #accept would not
      // bound them; the server's own limit does, counting every accepted socket.
      this.#server.maxConnections = options.maxConnections;
      this.#server.on('drop', (dropped) =>
        events.onConnectionRejected(dropped?.remoteAddress ?? 'unknown', 'max connections reached'),
      );
    }
  }

  /** The port actually bound (differs from the configured one when that was 0). */
  get port(): number {
    return this.#boundPort;
  }

  get connectionCount(): number {
    return this.#connections.size;
  }

  /** Binds and serves at once. */
  async start(): Promise<void> {
    await this.bind();
    this.open();
  }

  /** Loads the TLS material and binds the port; connections wait until {@link open}. */
  async bind(): Promise<void> {
    await this.#tls?.load();
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(this.options.port, this.options.host, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    const address = this.#server.address();
    this.#boundPort = typeof address === 'object' && address ? address.port : this.options.port;
  }

  /** Serves the connections held since {@link bind}, and every later one as it comes. */
  open(): void {
    const held = this.#held;
    this.#held = undefined;
    for (const { socket, tlsPeer } of held ?? []) {
      if (socket.destroyed) continue;
      this.#accept(socket, tlsPeer);
      socket.resume();
    }
  }

  /** Graceful stop: no new connections or requests; in-flight requests finish within `timeoutMs`. */
  async stop(timeoutMs: number): Promise<void> {
    for (const { socket } of this.#held?.splice(0) ?? []) socket.destroy();
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const connection of this.#connections) connection.stopReading();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.#connections].map((connection) => connection.whenIdle())),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    for (const connection of [...this.#connections]) connection.close('broker shutting down');
    await closed;
  }

  #acceptOrHold(socket: Socket, tlsPeer: TlsPeer | undefined): void {
    if (this.#held === undefined) {
      this.#accept(socket, tlsPeer);
      return;
    }
    // Paused, so its first bytes stay in the socket until the connection exists to read them; a
    // socket error meanwhile only ends that socket.
    socket.pause();
    socket.once('error', () => socket.destroy());
    this.#held.push({ socket, tlsPeer });
  }

  #accept(socket: Socket, tlsPeer: TlsPeer | undefined): void {
    const remoteAddress = socket.remoteAddress ?? 'unknown';
    if (this.#connections.size >= this.options.maxConnections) {
      this.events.onConnectionRejected(remoteAddress, 'max connections reached');
      socket.destroy();
      return;
    }
    const certificatePrincipal = tlsPeer?.certificatePrincipal;
    const anonymous = this.options.authenticator.forConnection(remoteAddress, { certificatePrincipal });
    // Set before the connection reads its first request, so every request sees the principal.
    const auth =
      certificatePrincipal !== undefined && this.options.tlsOptions?.principalFromCertificate === true
        ? withCertificatePrincipal(anonymous, certificatePrincipal)
        : anonymous;
    const connection = new Connection(
      socket,
      this.dispatcher,
      this.options,
      {
        onClose: (closedConnection, reason) => {
          this.#connections.delete(closedConnection);
          this.events.onConnectionClosed(remoteAddress, reason, this.#connections.size);
        },
        onFrameRefused: (_connection, reason, detail) =>
          this.events.onFrameRefused(remoteAddress, reason, detail),
      },
      auth,
      this.#heldRequestBytes,
      this.options.scheduler,
    );
    this.#connections.add(connection);
    this.events.onConnectionOpened(remoteAddress, this.#connections.size, {
      principal: auth.principal,
      tlsProtocol: tlsPeer === undefined ? undefined : (tlsPeer.protocol ?? 'unknown'),
    });
  }
}
