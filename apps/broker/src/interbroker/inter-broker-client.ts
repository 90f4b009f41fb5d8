import {
  type ApiSchema,
  Connection,
  ErrorCode,
  type RequestOf,
  type ResponseOf,
  WeirError,
} from '@weir/protocol';
import type { BrokerEndpoint } from '../metadata/cluster-view';
import type { InterBrokerCredentials } from './inter-broker-credentials';

/** Kafka's reconnect.backoff.ms and reconnect.backoff.max.ms, for links between brokers. */
export const RECONNECT_BACKOFF = { initialMs: 100, maxMs: 2000 } as const;

export interface InterBrokerClientOptions {
  /** Where a broker's internal listener is now (the cluster view's `endpoint(id, 'internal')`). */
  endpointOf(brokerId: number): BrokerEndpoint | undefined;
  /** Read per connection: a token resolved at start, or a certificate. */
  credentials(): InterBrokerCredentials;
  /** Sent in every request header, such as `weir-broker-1`. */
  clientId: string;
  /** The deadline of every call, the connection's SASL exchange included. */
  requestTimeoutMs: number;
  connectTimeoutMs: number;
  /**
   * The address connections come from: the broker's own internal listener address, so rules that
   * cut one broker off from another (tests' fault injection, firewalls) see who is calling.
   */
  localAddress?: string;
  nowMs(): number;
  /** Told once per failed connection attempt (the caller rate-limits its logging). */
  onConnectFailed?(brokerId: number, address: string, error: WeirError): void;
}

/** One peer broker: its connection, and when it may be dialled again after failures. */
interface PeerLink {
  address: string;
  connection: Connection | undefined;
  failures: number;
  retryAtMs: number;
}

/**
 * Calls to other brokers' internal listeners (docs/architecture.md §6.4), one pooled connection per
 * peer, authenticated as the broker principal ({@link InterBrokerCredentials}). The peer is looked
 * up per call, so a broker that moved is reached where it is now. Every call has a deadline
 * (REQUEST_TIMED_OUT past it). A peer that is not live, refuses the connection or is inside its
 * reconnect backoff fails the call at once with NETWORK_EXCEPTION, which callers treat as
 * retriable; the next call after the backoff (doubling from 100 ms to 2 s per failed attempt)
 * dials again. A refused authentication keeps its own code (SASL_AUTHENTICATION_FAILED): it is a
 * configuration error, not a dead peer.
 */
export class InterBrokerClient {
  readonly #options: InterBrokerClientOptions;
  readonly #links = new Map<number, PeerLink>();
  #closed = false;

  constructor(options: InterBrokerClientOptions) {
    this.#options = options;
  }

  /** Sends one request to `brokerId`'s internal listener and resolves with the decoded answer. */
  async send<A extends ApiSchema>(brokerId: number, api: A, body: RequestOf<A>): Promise<ResponseOf<A>> {
    const connection = this.#connectionTo(brokerId);
    try {
      await connection.ready();
    } catch (error) {
      throw this.#connectFailed(brokerId, connection, error);
    }
    return connection.send(api, body, { timeoutMs: this.#options.requestTimeoutMs });
  }

  /** Closes every connection; later calls fail. */
  close(): void {
    this.#closed = true;
    for (const link of this.#links.values()) link.connection?.close();
    this.#links.clear();
  }

  #connectionTo(brokerId: number): Connection {
    if (this.#closed) throw unreachable(`the inter-broker client is closed`);
    const endpoint = this.#options.endpointOf(brokerId);
    if (endpoint === undefined) {
      throw unreachable(`broker ${brokerId} is not live or has no internal listener`);
    }
    const address = `${endpoint.host}:${endpoint.port}`;
    let link = this.#links.get(brokerId);
    if (link !== undefined && link.address !== address) {
      // The broker re-registered elsewhere: its old address is of no use any more.
      link.connection?.close();
      link = undefined;
    }
    if (link === undefined) {
      link = { address, connection: undefined, failures: 0, retryAtMs: 0 };
      this.#links.set(brokerId, link);
    }
    const current = link.connection;
    if (current !== undefined && current.status.state !== 'closed') return current;
    link.connection = undefined;
    const nowMs = this.#options.nowMs();
    if (nowMs < link.retryAtMs) {
      throw unreachable(
        `broker ${brokerId} at ${address} is unreachable; the next attempt is in ${link.retryAtMs - nowMs} ms`,
      );
    }
    const { sasl, tls } = this.#options.credentials();
    const connection = new Connection({
      host: endpoint.host,
      port: endpoint.port,
      clientId: this.#options.clientId,
      connectTimeoutMs: this.#options.connectTimeoutMs,
      requestTimeoutMs: this.#options.requestTimeoutMs,
      sasl,
      ...(tls === undefined ? {} : { tls }),
      ...(this.#options.localAddress === undefined ? {} : { localAddress: this.#options.localAddress }),
    });
    link.connection = connection;
    const opened = link;
    connection.ready().then(
      () => {
        opened.failures = 0;
        opened.retryAtMs = 0;
      },
      () => {},
    );
    return connection;
  }

  /** Backs the link off after a failed connection attempt and says why, as a WeirError. */
  #connectFailed(brokerId: number, connection: Connection, error: unknown): WeirError {
    const link = this.#links.get(brokerId);
    const failure =
      error instanceof WeirError
        ? error
        : unreachable(`connecting to broker ${brokerId} failed: ${String(error)}`);
    if (link !== undefined && link.connection === connection) {
      link.connection = undefined;
      link.failures += 1;
      const delayMs = Math.min(
        RECONNECT_BACKOFF.maxMs,
        RECONNECT_BACKOFF.initialMs * 2 ** (link.failures - 1),
      );
      link.retryAtMs = this.#options.nowMs() + delayMs;
      this.#options.onConnectFailed?.(brokerId, link.address, failure);
    }
    return failure;
  }
}

function unreachable(detail: string): WeirError {
  return new WeirError(ErrorCode.NETWORK_EXCEPTION, { detail });
}
