import {
  type ApiSchema,
  ApiVersions,
  apiByKey,
  decodeRequestFrame,
  ErrorCode,
  encodeResponseFrame,
  encodeResponseFrameParts,
  type FramePart,
  frameSizePrefix,
  isDeferredBytes,
  Produce,
  type RequestHeader,
  SaslAuthenticate,
  SaslHandshake,
} from '@weir/protocol';
import type { RequestAuditor } from '../audit/request-auditor';
import type { BrokerServices } from '../broker-services';
import type { ListenerName } from '../metadata/cluster-view';
import type { ClientQuotas } from '../quotas/client-quotas';
import { RequestQuota } from '../quotas/request-quota';
import type { Authorizer } from '../security/acl/authorizer';
import { RequestAccess } from '../security/acl/request-access';
import type { ConnectionAuth } from './auth/connection-auth';
import type { ApiHandler, RequestContext } from './handler';
import type { HandlerRegistry } from './handler-registry';
import { type FailedResult, type WireError, wireErrorOf, wireErrorOfResult } from './request-errors';

/** What to do with one request frame. */
export type DispatchOutcome =
  /**
   * The response frame as parts to write in order (large record sets are not copied into it, and
   * stored ones left on disk are deferred parts the writer reads and then releases). With
   * `closeAfter` (a failed SASL exchange) the connection closes for that reason once it is written.
   */
  | { kind: 'respond'; parts: readonly FramePart[]; closeAfter?: string; throttleMs?: number }
  /** Produce with acks=0: nothing goes back. */
  | { kind: 'no-response' }
  /** The request cannot be answered in its own terms; Kafka closes the connection then. */
  | { kind: 'close'; reason: string };

/** A request the dispatcher has started. */
export interface StartedRequest {
  /**
   * Whether the next request may start before this one is answered: true for a decoded Produce,
   * whose appends are queued in the log by the time `start` returns, so a later one cannot pass it.
   */
  readonly overlappable: boolean;
  /** Never rejects: failures are a `close` outcome. */
  readonly outcome: Promise<DispatchOutcome>;
}

/** Told about every request, for metrics and logs. */
export interface RequestObserver {
  onRequest(event: { apiName: string; apiVersion: number; durationMs: number; response: unknown }): void;
  onRejected(event: { header: RequestHeader | null; reason: string }): void;
  /**
   * A request answered UNKNOWN_SERVER_ERROR (for the whole request or for an item of it): `error`
   * is the cause, reported by the request context as it converts it (request-errors.ts). The answer
   * itself reaches `onRequest` like any other.
   */
  onServerError(event: { apiName: string; apiVersion: number; error: unknown }): void;
  /** A handler threw, or its response could not be encoded: the connection closes. */
  onHandlerFailure(event: { apiName: string; error: unknown }): void;
  /**
   * A connection is closed for authentication: a request other than ApiVersions or SASL before it
   * authenticated, or a failed SASL exchange (after its answer).
   */
  onAuthenticationRefused(event: {
    kind: 'unauthenticated-request' | 'authentication-failed';
    clientHost: string;
    reason: string;
  }): void;
}

/** The connection-level facts a handler's context is built from. */
export interface ConnectionFacts {
  /** Who the connection is (its principal) and what it may send yet. */
  auth: ConnectionAuth;
  clientHost: string;
  signal: AbortSignal;
}

/** What one listener's dispatcher works with. */
export interface DispatcherOptions<Services> {
  /** The listener's handlers. */
  registry: HandlerRegistry<Services>;
  /** What its handlers call. */
  services: Services;
  observer: RequestObserver;
  listenerName: ListenerName;
  /** The policy for this listener's requests. */
  authorizer: Authorizer;
  /** Client quotas, on the listeners that enforce them (the client listener). */
  quotas?: ClientQuotas | undefined;
  /** Records the administrative requests answered (audit/request-auditor.ts). */
  auditor?: RequestAuditor | undefined;
}

/**
 * APIs whose handler time is not charged to request_percentage: Kafka answers the SASL exchange
 * in its authenticator, outside the request handlers the quota measures.
 */
const REQUEST_QUOTA_EXEMPT: ReadonlySet<number> = new Set([SaslHandshake.apiKey, SaslAuthenticate.apiKey]);

/**
 * Decodes a request frame, checks its API and version against the handler registry, runs the
 * handler and encodes its response at the request's version. It never throws for bad input:
 * malformed or unsupported requests become a `close` outcome (or, for ApiVersions, the documented
 * UNSUPPORTED_VERSION answer). The context it gives each handler turns failures into wire errors
 * and reports every UNKNOWN_SERVER_ERROR to the observer (request-errors.ts).
 */
export class Dispatcher<Services = BrokerServices> {
  private readonly registry: HandlerRegistry<Services>;
  private readonly services: Services;
  private readonly observer: RequestObserver;
  private readonly listenerName: ListenerName;
  private readonly authorizer: Authorizer;
  private readonly quotas: ClientQuotas | undefined;
  private readonly auditor: RequestAuditor | undefined;

  constructor(options: DispatcherOptions<Services>) {
    this.registry = options.registry;
    this.services = options.services;
    this.observer = options.observer;
    this.listenerName = options.listenerName;
    this.authorizer = options.authorizer;
    this.quotas = options.quotas;
    this.auditor = options.auditor;
  }

  dispatch(frame: Buffer, connection: ConnectionFacts): Promise<DispatchOutcome> {
    return this.start(frame, connection).outcome;
  }

  /**
   * Decodes the request and calls its handler before returning (so whatever the handler does
   * synchronously, such as queueing appends, has happened); the outcome follows once it is done.
   */
  start(frame: Buffer, connection: ConnectionFacts): StartedRequest {
    const startedMs = performance.now();
    // After SaslHandshake v0 the client sends bare SASL tokens, not requests (docs/kafka-compat.md §5).
    if (connection.auth.awaitsRawToken) return settled(this.#rawToken(frame, connection));
    // Checked on the raw API key before anything is decoded: a connection that has not
    // authenticated gets no more of the broker's work than reading two bytes.
    const apiKey = frame.length >= 2 ? frame.readInt16BE(0) : -1;
    if (!connection.auth.permits(apiKey)) {
      const reason = `${apiByKey(apiKey)?.name ?? `API key ${apiKey}`} before authentication`;
      this.observer.onAuthenticationRefused({
        kind: 'unauthenticated-request',
        clientHost: connection.clientHost,
        reason,
      });
      return settled({ kind: 'close', reason });
    }
    const decoded = decodeRequestFrame(frame, apiByKey);
    const header = decoded.header;
    if (header && header.apiKey === ApiVersions.apiKey && !this.#isServed(header)) {
      // Kafka answers an ApiVersions it cannot parse with a v0 body: UNSUPPORTED_VERSION and the
      // versions of ApiVersions itself, so the client can retry with one it knows.
      return settled({
        kind: 'respond',
        parts: [
          encodeResponseFrame(ApiVersions, 0, header.correlationId, {
            errorCode: ErrorCode.UNSUPPORTED_VERSION,
            apiKeys: [{ apiKey: ApiVersions.apiKey, minVersion: 0, maxVersion: 3 }],
            throttleTimeMs: 0,
          }),
        ],
      });
    }
    if (!decoded.ok) return settled(this.#reject(header, decoded.error.message));
    if (!this.#isServed(decoded.header)) {
      return settled(
        this.#reject(decoded.header, `${decoded.api.name} v${decoded.header.apiVersion} is not served`),
      );
    }
    const handler = this.registry.get(decoded.header.apiKey)!;
    const context = new DispatchedRequestContext(
      decoded.header,
      connection,
      this.listenerName,
      new RequestAccess(this.authorizer, connection.auth.principal, connection.clientHost),
      new RequestQuota(this.quotas, connection.auth.principal, decoded.header.clientId),
      frame.length,
      (error) =>
        this.observer.onServerError({
          apiName: handler.api.name,
          apiVersion: decoded.header.apiVersion,
          error,
        }),
    );
    let handled: Promise<unknown>;
    try {
      handled = handler.handle(decoded.body as never, context, this.services);
    } catch (error) {
      handled = Promise.reject(error);
    }
    return {
      overlappable: handler.api.apiKey === Produce.apiKey,
      outcome: this.#finish(
        handler,
        context,
        decoded.body,
        handled,
        startedMs,
        performance.now() - startedMs,
        connection,
      ),
    };
  }

  async #finish(
    handler: ApiHandler<ApiSchema, Services>,
    context: DispatchedRequestContext,
    request: unknown,
    handled: Promise<unknown>,
    startedMs: number,
    startDurationMs: number,
    connection: ConnectionFacts,
  ): Promise<DispatchOutcome> {
    const header = context.header;
    let response: unknown;
    try {
      response = await handled;
    } catch (error) {
      this.observer.onHandlerFailure({ apiName: handler.api.name, error });
      return {
        kind: 'close',
        reason: `${handler.api.name} failed: ${error instanceof Error ? error.message : error}`,
      };
    }
    this.observer.onRequest({
      apiName: handler.api.name,
      apiVersion: header.apiVersion,
      durationMs: performance.now() - startedMs,
      response,
    });
    if (response === undefined) return { kind: 'no-response' };
    // An audited action is on disk before its answer goes out, denied ones included.
    if (this.auditor?.audits(header.apiKey)) {
      await this.auditor.record(header.apiKey, request, response, {
        atMs: Date.now(),
        principal: context.principal,
        clientId: header.clientId ?? '',
        clientHost: context.clientHost,
        listener: this.listenerName,
      });
    }
    const throttleMs = this.#throttleMs(handler, context, response, startDurationMs);
    const encodeStartedMs = performance.now();
    let parts: readonly FramePart[];
    try {
      parts = encodeResponseFrameParts(
        handler.api,
        header.apiVersion,
        header.correlationId,
        response as never,
      );
    } catch (error) {
      // A response the codec refuses is a handler bug; the connection cannot answer this request.
      this.observer.onHandlerFailure({ apiName: handler.api.name, error });
      releaseDeferredIn(response);
      return { kind: 'close', reason: `${handler.api.name} response could not be encoded` };
    }
    if (this.quotas !== undefined && !REQUEST_QUOTA_EXEMPT.has(handler.api.apiKey)) {
      context.quota.alsoSpent(performance.now() - encodeStartedMs);
    }
    const closeAfter = connection.auth.closeReason;
    if (closeAfter === undefined) {
      return throttleMs > 0 ? { kind: 'respond', parts, throttleMs } : { kind: 'respond', parts };
    }
    this.observer.onAuthenticationRefused({
      kind: 'authentication-failed',
      clientHost: connection.clientHost,
      reason: closeAfter,
    });
    return { kind: 'respond', parts, closeAfter };
  }

  /**
   * One raw SASL token: answered with the mechanism's bytes, size-prefixed and nothing else. A
   * failure has no way to say so in this framing, so the connection just closes, as Kafka does.
   */
  async #rawToken(token: Buffer, connection: ConnectionFacts): Promise<DispatchOutcome> {
    let answer: Awaited<ReturnType<ConnectionAuth['authenticate']>>;
    try {
      answer = await connection.auth.authenticate(token);
    } catch (error) {
      this.observer.onHandlerFailure({ apiName: 'SaslAuthenticate (raw token)', error });
      return { kind: 'close', reason: 'the SASL exchange failed' };
    }
    if (answer.errorCode !== ErrorCode.NONE) {
      const reason = connection.auth.closeReason ?? 'SASL authentication failed';
      this.observer.onAuthenticationRefused({
        kind: 'authentication-failed',
        clientHost: connection.clientHost,
        reason,
      });
      return { kind: 'close', reason };
    }
    return { kind: 'respond', parts: [frameSizePrefix(answer.authBytes.length), answer.authBytes] };
  }

  /**
   * How long the connection is muted after this answer (KIP-219), written into the answer's
   * throttle_time_ms: the longest of the throttle the handler put there (a byte-rate quota) and the
   * request-time quota's, which charges the time the broker spent on the request itself (its start
   * here, its encoding afterwards; not waits such as a long poll). Without quotas on this listener
   * nothing is measured.
   */
  #throttleMs(
    handler: ApiHandler<ApiSchema, Services>,
    context: DispatchedRequestContext,
    response: unknown,
    handlerMs: number,
  ): number {
    if (this.quotas === undefined) return 0;
    const answered = (response as { throttleTimeMs?: unknown }).throttleTimeMs;
    const byteThrottleMs = typeof answered === 'number' ? answered : 0;
    if (REQUEST_QUOTA_EXEMPT.has(handler.api.apiKey)) return byteThrottleMs;
    const throttleMs = Math.max(byteThrottleMs, context.quota.handled(handlerMs));
    if (throttleMs > byteThrottleMs && typeof answered === 'number') {
      (response as { throttleTimeMs: number }).throttleTimeMs = throttleMs;
    }
    return throttleMs;
  }

  #isServed(header: RequestHeader): boolean {
    const handler = this.registry.get(header.apiKey);
    return (
      handler !== undefined &&
      header.apiVersion >= handler.versions.min &&
      header.apiVersion <= handler.versions.max
    );
  }

  #reject(header: RequestHeader | null, reason: string): DispatchOutcome {
    this.observer.onRejected({ header, reason });
    return { kind: 'close', reason };
  }
}

/** Releases the deferred record sets anywhere in a response that will not be written. */
function releaseDeferredIn(value: unknown): void {
  if (isDeferredBytes(value)) {
    value.release();
    return;
  }
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return;
  for (const field of Array.isArray(value) ? value : Object.values(value)) releaseDeferredIn(field);
}

function settled(outcome: DispatchOutcome | Promise<DispatchOutcome>): StartedRequest {
  return { overlappable: false, outcome: Promise.resolve(outcome) };
}

/**
 * One request's context as the dispatcher hands it to the handler: one object of one shape per
 * request (no closures or spreads on the hot path), with the error conversions as methods that
 * report every UNKNOWN_SERVER_ERROR (request-errors.ts).
 */
class DispatchedRequestContext implements RequestContext {
  readonly principal: string;
  readonly auth: ConnectionAuth;
  readonly clientHost: string;
  readonly signal: AbortSignal;

  constructor(
    readonly header: RequestHeader,
    connection: ConnectionFacts,
    readonly listenerName: ListenerName,
    readonly access: RequestAccess,
    readonly quota: RequestQuota,
    readonly requestBytes: number,
    private readonly reportServerError: (error: unknown) => void,
  ) {
    this.principal = connection.auth.principal;
    this.auth = connection.auth;
    this.clientHost = connection.clientHost;
    this.signal = connection.signal;
  }

  failure(error: unknown): WireError {
    return wireErrorOf(error, this.reportServerError);
  }

  errorOf(result: FailedResult): WireError {
    return wireErrorOfResult(result, this.reportServerError);
  }
}
