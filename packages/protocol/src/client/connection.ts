import type { DecodeResult } from '../codec/decode-error';
import { ErrorCode } from '../errors/error-codes';
import { errorForCode, WeirError } from '../errors/weir-error';
import { DEFAULT_MAX_FRAME_BYTES, FrameDecoder } from '../framing/frame-decoder';
import { ApiVersions } from '../messages/apis/api-versions';
import { Produce } from '../messages/apis/produce';
import {
  type DecodedResponse,
  decodeResponseFrame,
  encodeRequestFrameParts,
  peekCorrelationId,
} from '../messages/message-codec';
import type { ApiSchema, RequestOf, ResponseOf } from '../schema/api';
import { nodeTransport } from '../transport/node-transport';
import type { TlsOptions, Transport, TransportFactory } from '../transport/transport';
import {
  type BrokerApiVersions,
  decodeApiVersionsResponse,
  negotiateVersion,
  nextApiVersionsVersion,
} from './api-versions';
import { authenticateSasl } from './auth/sasl-authenticate';
import type { SaslOptions } from './auth/sasl-options';
import type { ConnectionCloseReason, ConnectionStatus, ConnectionStatusListener } from './connection-status';

/** Settings of one {@link Connection}. */
export interface ConnectionOptions {
  readonly host: string;
  readonly port: number;
  /** Sent in every request header; brokers log it. Default `'weir'`. */
  readonly clientId?: string | null;
  /** How to open the byte stream. Default: a plain TCP socket ({@link nodeTransport}). */
  readonly transport?: TransportFactory;
  /** Default 10 s. */
  readonly connectTimeoutMs?: number;
  /** Deadline of a request without its own `timeoutMs`, ApiVersions included. Default 30 s. */
  readonly requestTimeoutMs?: number;
  /** The largest response frame accepted; a larger one closes the connection. Default 100 MiB. */
  readonly maxFrameBytes?: number;
  /** Authenticate with SASL right after ApiVersions, before the connection is ready. Default: none. */
  readonly sasl?: SaslOptions;
  /** Speak TLS (security.protocol SSL or SASL_SSL), handed to the transport. Default: plain TCP. */
  readonly tls?: TlsOptions;
  /** Connect from this local address, handed to the transport. Default: the system's choice. */
  readonly localAddress?: string;
}

/** Per-request settings of {@link Connection.send}. */
export interface RequestOptions {
  /** Overrides the connection's `requestTimeoutMs` (a long-polling Fetch adds its wait to it). */
  readonly timeoutMs?: number;
}

/** The name and version sent in ApiVersions v3 (KIP-511); brokers show them in their metrics. */
const SOFTWARE_NAME = 'weir-sdk';
const SOFTWARE_VERSION = '0.1.0';
const MAX_CORRELATION_ID = 0x7fffffff;

interface PendingRequest {
  readonly correlationId: number;
  /** Such as "Metadata v6", for messages. */
  readonly label: string;
  readonly timeoutMs: number;
  readonly decode: (frame: Buffer) => DecodeResult<DecodedResponse<ApiSchema>>;
  readonly resolve: (body: unknown) => void;
  readonly reject: (error: WeirError) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * One socket to one broker. On construction it connects and negotiates API versions (ApiVersions
 * v3 first, stepping down when the broker answers UNSUPPORTED_VERSION), then authenticates when
 * `sasl` is set; requests sent before that finishes wait for it. Each request gets the next correlation id and a deadline. Kafka answers a
 * connection's requests strictly in order, so every response must carry the id of the oldest
 * request still waiting; anything else is a protocol error that closes the connection.
 *
 * Errors are {@link WeirError}s: REQUEST_TIMED_OUT for a request past its deadline (which also
 * closes the connection, since a late answer could no longer be matched), NETWORK_EXCEPTION for
 * requests cut off by a close, UNSUPPORTED_VERSION for an API the broker does not serve.
 */
export class Connection {
  /** `host:port`. */
  readonly address: string;
  readonly #host: string;
  readonly #port: number;
  readonly #clientId: string | null;
  readonly #transportFactory: TransportFactory;
  readonly #connectTimeoutMs: number;
  readonly #requestTimeoutMs: number;
  readonly #sasl: SaslOptions | undefined;
  readonly #tls: TlsOptions | undefined;
  readonly #localAddress: string | undefined;
  readonly #decoder: FrameDecoder;
  readonly #inFlight = new Map<number, PendingRequest>();
  readonly #listeners = new Set<ConnectionStatusListener>();
  /** Negotiated version per API key, computed on first use. */
  readonly #versions = new Map<number, number>();
  readonly #ready: Promise<void>;
  readonly #socketClosed: Promise<void>;
  #markSocketClosed: () => void = () => {};
  #status: ConnectionStatus = { state: 'connecting' };
  #apiVersions: BrokerApiVersions | undefined;
  #transport: Transport | undefined;
  #nextCorrelationId = 0;

  constructor(options: ConnectionOptions) {
    this.#host = options.host;
    this.#port = options.port;
    this.address = `${options.host}:${options.port}`;
    this.#clientId = options.clientId === undefined ? 'weir' : options.clientId;
    this.#transportFactory = options.transport ?? nodeTransport;
    this.#connectTimeoutMs = positive('connectTimeoutMs', options.connectTimeoutMs ?? 10_000);
    this.#requestTimeoutMs = positive('requestTimeoutMs', options.requestTimeoutMs ?? 30_000);
    this.#sasl = options.sasl;
    this.#tls = options.tls;
    this.#localAddress = options.localAddress;
    this.#decoder = new FrameDecoder({ maxFrameBytes: options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES });
    this.#socketClosed = new Promise((resolve) => {
      this.#markSocketClosed = resolve;
    });
    this.#ready = this.#open();
    // The failure also reaches callers through `ready()`, `send()` and the status; without this a
    // connection nobody awaits would report an unhandled rejection.
    this.#ready.catch(() => {});
  }

  /** The current status; see {@link ConnectionStatus}. */
  get status(): ConnectionStatus {
    return this.#status;
  }

  /** Requests sent and not yet answered, failed or timed out. */
  get inFlightCount(): number {
    return this.#inFlight.size;
  }

  /** Resolves when the connection is ready; rejects with the reason it could not become ready. */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** Resolves once the socket is gone (after a close of any kind). */
  socketClosed(): Promise<void> {
    return this.#socketClosed;
  }

  /** Subscribes to status changes; returns the function that unsubscribes. */
  onStatusChange(listener: ConnectionStatusListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Whether the broker serves a version of `api` this client speaks. Only meaningful once ready. */
  supports(api: ApiSchema): boolean {
    if (this.#apiVersions === undefined) return false;
    try {
      this.versionFor(api);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The version requests of `api` are sent at: `min(our max, broker max)`. Throws
   * UNSUPPORTED_VERSION when the broker does not serve the API, or before the connection is ready.
   */
  versionFor(api: ApiSchema): number {
    const known = this.#versions.get(api.apiKey);
    if (known !== undefined) return known;
    if (this.#apiVersions === undefined) {
      throw new WeirError(ErrorCode.UNSUPPORTED_VERSION, {
        detail: `the API versions of ${this.address} are not known yet.`,
      });
    }
    const version = negotiateVersion(api, this.#apiVersions, this.address);
    this.#versions.set(api.apiKey, version);
    return version;
  }

  /**
   * Sends a request and resolves with the decoded response body. Rejects with a {@link WeirError}
   * when the connection is or becomes closed, the deadline passes or the broker lacks the API.
   * The body's error codes are the caller's to read: a response is a response.
   */
  async send<A extends ApiSchema>(
    api: A,
    body: RequestOf<A>,
    options: RequestOptions = {},
  ): Promise<ResponseOf<A>> {
    if (api.apiKey === Produce.apiKey && (body as unknown as RequestOf<typeof Produce>).acks === 0) {
      // The broker never answers these; waiting would only end in a timeout and a closed socket.
      throw new RangeError('Produce with acks=0 gets no response: use sendWithoutResponse');
    }
    if (this.#status.state !== 'ready') await this.#ready;
    const version = this.versionFor(api);
    const timeoutMs = positive('timeoutMs', options.timeoutMs ?? this.#requestTimeoutMs);
    const response = await this.#request(api, version, body, timeoutMs, (frame) =>
      decodeResponseFrame(api, version, frame),
    );
    return response as ResponseOf<A>;
  }

  /**
   * Sends a request the broker does not answer (Produce with acks=0). Resolves once the bytes are
   * handed to the operating system, which is all that can be known about it.
   */
  async sendWithoutResponse<A extends ApiSchema>(api: A, body: RequestOf<A>): Promise<void> {
    if (this.#status.state !== 'ready') await this.#ready;
    const version = this.versionFor(api);
    const transport = this.#openTransport();
    const parts = encodeRequestFrameParts(api, version, this.#takeCorrelationId(), this.#clientId, body);
    await new Promise<void>((resolve, reject) => {
      transport.write(parts, (error) => {
        if (error === undefined) resolve();
        else reject(this.#networkError(`writing ${api.name} v${version} failed: ${error.message}`, error));
      });
    });
  }

  /**
   * Closes the connection. Idempotent. Requests still waiting fail at once with
   * NETWORK_EXCEPTION; use {@link socketClosed} to wait for the socket itself.
   */
  close(): void {
    this.#close('closed-by-client', undefined);
  }

  async #open(): Promise<void> {
    let transport: Transport;
    try {
      transport = await this.#transportFactory({
        host: this.#host,
        port: this.#port,
        connectTimeoutMs: this.#connectTimeoutMs,
        ...(this.#tls === undefined ? {} : { tls: this.#tls }),
        ...(this.#localAddress === undefined ? {} : { localAddress: this.#localAddress }),
        handlers: {
          onData: (chunk) => this.#onData(chunk),
          onClose: (error) => this.#onSocketClosed(error),
        },
      });
    } catch (error) {
      const failure = this.#networkError(`cannot connect to ${this.address}: ${messageOf(error)}`, error);
      this.#close('connect-failed', failure);
      this.#markSocketClosed();
      throw failure;
    }
    if (this.#status.state === 'closed') {
      // Closed while the socket was opening.
      transport.close();
      throw this.#status.error ?? this.#networkError(`the connection to ${this.address} was closed.`);
    }
    this.#transport = transport;
    try {
      const apiVersions = await this.#negotiate();
      if (this.#sasl !== undefined) await this.#authenticate(this.#sasl, apiVersions);
      this.#apiVersions = apiVersions;
    } catch (error) {
      const failure = error instanceof WeirError ? error : this.#networkError(messageOf(error), error);
      this.#close('connect-failed', failure);
      throw failure;
    }
    const current = this.#currentStatus();
    if (current.state === 'closed') {
      // close() ran between the answer and this continuation.
      throw current.error ?? this.#networkError(`the connection to ${this.address} was closed.`);
    }
    this.#setStatus({ state: 'ready', apiVersions: this.#apiVersions });
  }

  /** The SASL exchange, on this connection's request path with its usual deadline. */
  #authenticate(sasl: SaslOptions, apiVersions: BrokerApiVersions): Promise<void> {
    return authenticateSasl(sasl, apiVersions, this.address, async (api, version, body) => {
      const response = await this.#request(api, version, body, this.#requestTimeoutMs, (frame) =>
        decodeResponseFrame(api, version, frame),
      );
      return response as ResponseOf<typeof api>;
    });
  }

  async #negotiate(): Promise<BrokerApiVersions> {
    let version: number | undefined = ApiVersions.versions.max;
    while (version !== undefined) {
      const tried: number = version;
      const body = (await this.#request(
        ApiVersions,
        tried,
        { clientSoftwareName: SOFTWARE_NAME, clientSoftwareVersion: SOFTWARE_VERSION },
        this.#requestTimeoutMs,
        (frame) => decodeApiVersionsResponse(tried, frame),
      )) as ResponseOf<typeof ApiVersions>;
      if (body.errorCode === ErrorCode.NONE) {
        return new Map(
          body.apiKeys.map((entry) => [
            entry.apiKey,
            { minVersion: entry.minVersion, maxVersion: entry.maxVersion },
          ]),
        );
      }
      if (body.errorCode !== ErrorCode.UNSUPPORTED_VERSION) {
        throw errorForCode(body.errorCode, `ApiVersions v${tried} to ${this.address} failed.`);
      }
      const brokerMax = body.apiKeys.find((entry) => entry.apiKey === ApiVersions.apiKey)?.maxVersion;
      version = nextApiVersionsVersion(tried, brokerMax);
    }
    throw new WeirError(ErrorCode.UNSUPPORTED_VERSION, {
      detail: `the broker at ${this.address} refused every ApiVersions version down to v0.`,
    });
  }

  #request(
    api: ApiSchema,
    version: number,
    body: unknown,
    timeoutMs: number,
    decode: PendingRequest['decode'],
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.#status.state === 'closed') {
        reject(this.#status.error ?? this.#networkError(`the connection to ${this.address} is closed.`));
        return;
      }
      const transport = this.#openTransport();
      const correlationId = this.#takeCorrelationId();
      // Record batches are written from the producer's buffers, not copied into the frame.
      const parts = encodeRequestFrameParts(api, version, correlationId, this.#clientId, body as never);
      const pending: PendingRequest = {
        correlationId,
        label: `${api.name} v${version}`,
        timeoutMs,
        decode,
        resolve,
        reject,
        timer: undefined,
      };
      pending.timer = setTimeout(() => this.#onTimeout(pending), timeoutMs);
      this.#inFlight.set(correlationId, pending);
      // A failed write also closes the socket, and the close fails every waiting request.
      transport.write(parts);
    });
  }

  #openTransport(): Transport {
    const transport = this.#transport;
    if (this.#status.state === 'closed' || transport === undefined) {
      throw this.#status.state === 'closed' && this.#status.error
        ? this.#status.error
        : this.#networkError(`the connection to ${this.address} is not open.`);
    }
    return transport;
  }

  #takeCorrelationId(): number {
    const id = this.#nextCorrelationId;
    this.#nextCorrelationId = id === MAX_CORRELATION_ID ? 0 : id + 1;
    if (this.#inFlight.has(id)) {
      // 2^31 requests in flight on one socket cannot happen; if it did, answers would be mismatched.
      throw new Error(`correlation id ${id} is still in flight on ${this.address}`);
    }
    return id;
  }

  #onData(chunk: Buffer): void {
    if (this.#status.state === 'closed') return;
    const { frames, error } = this.#decoder.push(chunk);
    for (const frame of frames) {
      this.#onFrame(frame);
      if (this.#currentStatus().state === 'closed') return;
    }
    if (error) {
      this.#close(
        'protocol-error',
        new WeirError(ErrorCode.UNKNOWN_SERVER_ERROR, {
          detail: `the broker at ${this.address} sent an unreadable frame: ${error.message}.`,
          cause: error,
        }),
      );
    }
  }

  #onFrame(frame: Buffer): void {
    const oldest = this.#inFlight.values().next();
    const id = peekCorrelationId(frame);
    if (oldest.done || !id.ok || id.value !== oldest.value.correlationId) {
      const got = id.ok ? `correlation id ${id.value}` : 'a frame too short for a correlation id';
      const due = oldest.done ? 'no answer was due' : `correlation id ${oldest.value.correlationId} was due`;
      this.#close(
        'protocol-error',
        new WeirError(ErrorCode.UNKNOWN_SERVER_ERROR, {
          detail: `the broker at ${this.address} sent ${got} where ${due}.`,
        }),
      );
      return;
    }
    const pending = oldest.value;
    this.#inFlight.delete(pending.correlationId);
    clearTimeout(pending.timer);
    const decoded = pending.decode(frame);
    if (decoded.ok) {
      pending.resolve(decoded.value.body);
      return;
    }
    // The frame boundary is intact, so only this answer is lost; the connection stays usable.
    pending.reject(
      new WeirError(ErrorCode.UNKNOWN_SERVER_ERROR, {
        detail: `the ${pending.label} response from ${this.address} could not be decoded: ${decoded.error.message}.`,
        cause: decoded.error,
      }),
    );
  }

  #onTimeout(pending: PendingRequest): void {
    if (!this.#inFlight.delete(pending.correlationId)) return;
    pending.reject(
      new WeirError(ErrorCode.REQUEST_TIMED_OUT, {
        detail: `${pending.label} to ${this.address} got no answer within ${pending.timeoutMs} ms.`,
      }),
    );
    this.#close(
      'request-timed-out',
      this.#networkError(
        `the connection to ${this.address} was closed because a ${pending.label} request timed out.`,
      ),
    );
  }

  #onSocketClosed(error: Error | undefined): void {
    this.#markSocketClosed();
    if (this.#currentStatus().state === 'closed') return;
    const why = error === undefined ? 'the broker closed it' : error.message;
    this.#close(
      'peer-closed',
      this.#networkError(`the connection to ${this.address} closed: ${why}.`, error),
    );
  }

  #close(reason: ConnectionCloseReason, error: WeirError | undefined): void {
    if (this.#status.state === 'closed') return;
    this.#status = { state: 'closed', reason, error };
    const transport = this.#transport;
    this.#transport = undefined;
    transport?.close();
    const failure =
      error ?? this.#networkError(`the connection to ${this.address} was closed by the client.`);
    const waiting = [...this.#inFlight.values()];
    this.#inFlight.clear();
    for (const pending of waiting) {
      clearTimeout(pending.timer);
      pending.reject(failure);
    }
    this.#emit(this.#status);
  }

  /** The status, read through a call so that TypeScript does not carry narrowing across awaits. */
  #currentStatus(): ConnectionStatus {
    return this.#status;
  }

  #setStatus(status: ConnectionStatus): void {
    this.#status = status;
    this.#emit(status);
  }

  #emit(status: ConnectionStatus): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(status);
      } catch (error) {
        // A throwing listener is the listener's bug; report it without leaving this state half-made.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  #networkError(detail: string, cause?: unknown): WeirError {
    return new WeirError(ErrorCode.NETWORK_EXCEPTION, cause === undefined ? { detail } : { detail, cause });
  }
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new RangeError(`${name} must be a positive number, got ${value}`);
  return value;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
