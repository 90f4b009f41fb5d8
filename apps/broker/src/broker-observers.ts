import { ErrorCode, errorCodeInfo } from '@weir/protocol';
import type { BrokerMetrics } from './http/metrics';
import type { Logger } from './logger';
import type { ListenerName } from './metadata/cluster-view';
import type { RequestObserver } from './server/dispatcher';
import type { HeldRequestBytes } from './server/held-request-bytes';
import type { ListenerEvents } from './server/listener';
import type { TrafficRates } from './stats/traffic-rates';
import type { WarningLimiter } from './warning-limiter';

/** What a listener's observers report to: the broker's metrics, its logger and the traffic rates. */
export interface ListenerObservation {
  metrics: BrokerMetrics;
  logger: Logger;
  /** The last minute's traffic, for the overview the internal listener serves. */
  traffic: TrafficRates;
  /** Open connections on every listener, since the connections gauge counts them all. */
  openConnections: () => number;
  /** Request bytes read from every listener's connections and not yet handled. */
  heldRequestBytes: HeldRequestBytes;
  /** Writes, at a bounded rate, and counts the warnings clients can cause. */
  warnings: WarningLimiter;
}

/** Connection counts, logs and refusals of one listener; the gauge counts both listeners. */
export function connectionEvents(
  { metrics, logger, openConnections, warnings }: ListenerObservation,
  listenerName: ListenerName,
): ListenerEvents {
  const connectionLogger = logger.child({ component: 'connection', listener: listenerName });
  return {
    onConnectionOpened: (remoteAddress, _openCount, { principal, tlsProtocol }) => {
      metrics.connections.set(openConnections());
      connectionLogger.debug({ remoteAddress, principal, tlsProtocol }, 'connection opened');
    },
    onConnectionClosed: (remoteAddress, reason) => {
      metrics.connections.set(openConnections());
      connectionLogger.debug({ remoteAddress, reason }, 'connection closed');
    },
    onConnectionRejected: (remoteAddress, reason, detail) => {
      metrics.connectionsRejectedTotal.inc({ reason: reason.replaceAll(' ', '_') });
      warnings.warn(
        'connection_refused',
        connectionLogger,
        { remoteAddress, reason, detail },
        'connection refused',
      );
    },
    onFrameRefused: (remoteAddress, reason, detail) => {
      metrics.connectionsRejectedTotal.inc({ reason });
      warnings.warn(
        'frame_refused',
        connectionLogger,
        { remoteAddress, reason, detail },
        'frame refused; closing the connection',
      );
    },
  };
}

/** Request counts, durations, error codes and refusals of one listener, as metrics and logs. */
export function requestObserver(
  { metrics, logger, traffic, warnings }: ListenerObservation,
  listenerName: ListenerName,
): RequestObserver {
  const requestLogger = logger.child({ component: 'request', listener: listenerName });
  return {
    onRequest: ({ apiName, apiVersion, durationMs, response }) => {
      metrics.requestsTotal.inc({ api: apiName, version: String(apiVersion) });
      traffic.requestServed();
      metrics.requestDurationSeconds.observe({ api: apiName }, durationMs / 1000);
      for (const code of errorCodesIn(response)) {
        metrics.requestErrorsTotal.inc({ api: apiName, error: errorCodeInfo(code)?.name ?? String(code) });
      }
    },
    onRejected: ({ header, reason }) => {
      metrics.connectionsRejectedTotal.inc({ reason: 'bad_request' });
      warnings.warn(
        'request_refused',
        requestLogger,
        { apiKey: header?.apiKey, apiVersion: header?.apiVersion, reason },
        'request refused; closing the connection',
      );
    },
    // Counted in requestErrorsTotal with the answer's codes (onRequest); here only its cause is logged.
    onServerError: ({ apiName, apiVersion, error }) => {
      requestLogger.error({ api: apiName, version: apiVersion, err: error }, 'answered UNKNOWN_SERVER_ERROR');
    },
    onHandlerFailure: ({ apiName, error }) => {
      metrics.requestErrorsTotal.inc({ api: apiName, error: 'UNKNOWN_SERVER_ERROR' });
      requestLogger.error({ api: apiName, err: error }, 'handler failed; closing the connection');
    },
    onAuthenticationRefused: ({ kind, clientHost, reason }) => {
      metrics.connectionsRejectedTotal.inc({
        reason: kind === 'authentication-failed' ? 'authentication_failed' : 'unauthenticated',
      });
      warnings.warn(
        'authentication_refused',
        requestLogger,
        { remoteAddress: clientHost, reason },
        'authentication refused; closing the connection',
      );
    },
  };
}

/** Every non-zero `errorCode` in a response, wherever it sits, for the error metrics. */
function errorCodesIn(value: unknown, found: number[] = []): number[] {
  if (Array.isArray(value)) {
    for (const item of value) errorCodesIn(item, found);
  } else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const [key, field] of Object.entries(value)) {
      if (key === 'errorCode' && typeof field === 'number' && field !== ErrorCode.NONE) found.push(field);
      else if (typeof field === 'object') errorCodesIn(field, found);
    }
  }
  return found;
}
