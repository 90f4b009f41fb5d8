import {
  ApiVersions,
  apiByKey,
  decodeRequestFrame,
  ErrorCode,
  encodeResponseFrame,
  type RequestHeader,
} from '@weir/protocol';
import type { BrokerCommands } from '../commands/broker-commands';
import type { RequestContext } from './handler';
import type { HandlerRegistry } from './registry';

/** What to do with one request frame. */
export type DispatchOutcome =
  | { kind: 'respond'; frame: Buffer }
  /** Produce with acks=0: nothing goes back. */
  | { kind: 'no-response' }
  /** The request cannot be answered in its own terms; Kafka closes the connection then. */
  | { kind: 'close'; reason: string };

/** Told about every request, for metrics and logs. */
export interface RequestObserver {
  onRequest(event: { apiName: string; apiVersion: number; durationMs: number; response: unknown }): void;
  onRejected(event: { header: RequestHeader | null; reason: string }): void;
  onHandlerFailure(event: { apiName: string; error: unknown }): void;
}

/** The connection-level facts a handler's context is built from. */
export interface ConnectionFacts {
  principal: string;
  clientHost: string;
  signal: AbortSignal;
}

/**
 * Decodes a request frame, checks its API and version against the handler registry, runs the
 * handler and encodes its response at the request's version. It never throws for bad input:
 * malformed or unsupported requests become a `close` outcome (or, for ApiVersions, the documented
 * UNSUPPORTED_VERSION answer).
 */
export class Dispatcher {
  constructor(
    private readonly registry: HandlerRegistry,
    private readonly commands: BrokerCommands,
    private readonly observer: RequestObserver,
  ) {}

  async dispatch(frame: Buffer, connection: ConnectionFacts): Promise<DispatchOutcome> {
    const startedMs = performance.now();
    const decoded = decodeRequestFrame(frame, apiByKey);
    const header = decoded.header;
    if (header && header.apiKey === ApiVersions.apiKey && !this.#isServed(header)) {
      // Kafka answers an ApiVersions it cannot parse with a v0 body: UNSUPPORTED_VERSION and the
      // versions of ApiVersions itself, so the client can retry with one it knows.
      return {
        kind: 'respond',
        frame: encodeResponseFrame(ApiVersions, 0, header.correlationId, {
          errorCode: ErrorCode.UNSUPPORTED_VERSION,
          apiKeys: [{ apiKey: ApiVersions.apiKey, minVersion: 0, maxVersion: 3 }],
          throttleTimeMs: 0,
        }),
      };
    }
    if (!decoded.ok) return this.#reject(header, decoded.error.message);
    if (!this.#isServed(decoded.header)) {
      return this.#reject(decoded.header, `${decoded.api.name} v${decoded.header.apiVersion} is not served`);
    }
    const handler = this.registry.get(decoded.header.apiKey)!;
    const context: RequestContext = {
      header: decoded.header,
      principal: connection.principal,
      clientHost: connection.clientHost,
      signal: connection.signal,
    };
    let response: unknown;
    try {
      response = await handler.handle(decoded.body as never, context, this.commands);
    } catch (error) {
      this.observer.onHandlerFailure({ apiName: handler.api.name, error });
      return {
        kind: 'close',
        reason: `${handler.api.name} failed: ${error instanceof Error ? error.message : error}`,
      };
    }
    this.observer.onRequest({
      apiName: handler.api.name,
      apiVersion: decoded.header.apiVersion,
      durationMs: performance.now() - startedMs,
      response,
    });
    if (response === undefined) return { kind: 'no-response' };
    return {
      kind: 'respond',
      frame: encodeResponseFrame(
        handler.api,
        decoded.header.apiVersion,
        decoded.header.correlationId,
        response as never,
      ),
    };
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
