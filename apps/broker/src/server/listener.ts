import { createServer, type Server, type Socket } from 'node:net';
import type { ListenerAuthenticator } from './auth/listener-authenticator';
import { Connection, type ConnectionLimits } from './connection';
import type { Dispatcher } from './dispatcher';

export interface ListenerOptions extends ConnectionLimits {
  host: string;
  port: number;
  maxConnections: number;
  /** How connections authenticate; each gets its own state from it. */
  authenticator: ListenerAuthenticator;
}

/** Connection counts and refusals, for metrics and logs. */
export interface ListenerEvents {
  onConnectionOpened(remoteAddress: string, openCount: number): void;
  onConnectionClosed(remoteAddress: string, reason: string, openCount: number): void;
  onConnectionRejected(remoteAddress: string, reason: string): void;
}

/**
 * One listener (client or internal): accepts TCP connections on the configured address (loopback by default),
 * refuses connections beyond `maxConnections` by closing them at once, and on shutdown stops
 * accepting, lets requests in progress finish, then closes every connection.
 */
export class Listener {
  readonly #server: Server;
  readonly #connections = new Set<Connection>();
  #boundPort = 0;

  constructor(
    private readonly options: ListenerOptions,
    private readonly dispatcher: Dispatcher,
    private readonly events: ListenerEvents,
  ) {
    this.#server = createServer((socket) => this.#accept(socket));
  }

  /** The port actually bound (differs from the configured one when that was 0). */
  get port(): number {
    return this.#boundPort;
  }

  get connectionCount(): number {
    return this.#connections.size;
  }

  async start(): Promise<void> {
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

  /** Graceful stop: no new connections or requests; in-flight requests finish within `timeoutMs`. */
  async stop(timeoutMs: number): Promise<void> {
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

  #accept(socket: Socket): void {
    const remoteAddress = socket.remoteAddress ?? 'unknown';
    if (this.#connections.size >= this.options.maxConnections) {
      this.events.onConnectionRejected(remoteAddress, 'max connections reached');
      socket.destroy();
      return;
    }
    const connection = new Connection(
      socket,
      this.dispatcher,
      this.options,
      {
        onClose: (closedConnection, reason) => {
          this.#connections.delete(closedConnection);
          this.events.onConnectionClosed(remoteAddress, reason, this.#connections.size);
        },
      },
      this.options.authenticator.forConnection(),
    );
    this.#connections.add(connection);
    this.events.onConnectionOpened(remoteAddress, this.#connections.size);
  }
}
