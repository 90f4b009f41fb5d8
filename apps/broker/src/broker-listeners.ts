import { randomBytes } from 'node:crypto';
import type { RequestAuditor } from './audit/request-auditor';
import { connectionEvents, type ListenerObservation, requestObserver } from './broker-observers';
import type { BrokerServices } from './broker-services';
import type { BrokerConfig } from './config/broker-config';
import type { BrokerRegistration, ListenerAddress } from './metadata/metadata-store';
import type { Authorizer } from './security/acl/authorizer';
import type { UserStore } from './security/users/user-store';
import { clientListenerHandlers, internalListenerHandlers } from './server/api-table';
import { clientSaslMechanisms } from './server/auth/client-sasl-mechanisms';
import {
  type ListenerAuthenticator,
  noAuthentication,
  saslAuthenticator,
} from './server/auth/listener-authenticator';
import type { SaslAuthHooks } from './server/auth/sasl-connection-auth';
import { weirTokenMechanism } from './server/auth/weir-token-mechanism';
import { Dispatcher } from './server/dispatcher';
import { HandlerRegistry } from './server/handler-registry';
import { Listener } from './server/listener';
import { RequestScheduler } from './server/request-scheduler';
import { tlsForListener } from './server/tls/tls-server';

/**
 * How long an event-loop turn should take while connections compete, and how fast a client's past
 * usage is forgotten (docs/architecture.md §9): a few milliseconds, so a quiet client's request and
 * the disk completions behind it wait a few milliseconds for a noisy client's work, not its all.
 */
const FAIRNESS_TARGET_TURN_MS = 2;
const FAIRNESS_USAGE_HALF_LIFE_MS = 1000;

/** The broker's listeners: the client one always, the internal one unless it is disabled. */
export interface BrokerListeners {
  client: Listener;
  internal: Listener | undefined;
}

export interface BrokerListenersOptions {
  config: BrokerConfig;
  services: BrokerServices;
  /** The users SASL PLAIN and SCRAM check passwords against on the client listener. */
  userStore: UserStore;
  authHooks: SaslAuthHooks;
  /** The internal listener's policy, in which its bare token principal is a super user. */
  internalAuthorizer: Authorizer;
  /** The token the internal listener accepts, read at each authentication. */
  internalToken: () => string | undefined;
  /** The cluster secret it also accepts, as the broker principal (cluster.secretFile). */
  clusterSecret: () => string | undefined;
  /** Records the administrative requests of every listener (audit/request-auditor.ts). */
  auditor: RequestAuditor;
  observation: ListenerObservation;
}

/**
 * Builds the listeners, each with its handlers, authenticator, TLS and observers. The client
 * listener authenticates with SASL only when its security protocol says so; the internal one always
 * authenticates, with the WEIR-TOKEN mechanism (or a trusted client certificate).
 */
export function createBrokerListeners(options: BrokerListenersOptions): BrokerListeners {
  const { config, services, authHooks, observation } = options;
  const client = config.listeners.client;
  const internal = config.listeners.internal;
  const clientSasl = client.securityProtocol === 'SASL_PLAINTEXT' || client.securityProtocol === 'SASL_SSL';
  const clientAuthenticator: ListenerAuthenticator = clientSasl
    ? saslAuthenticator(
        clientSaslMechanisms(client.saslMechanisms, options.userStore, randomBytes),
        authHooks,
      )
    : noAuthentication;
  // One scheduler for every listener: fairness is about the broker's one event loop.
  const scheduler = new RequestScheduler({
    targetTurnMs: FAIRNESS_TARGET_TURN_MS,
    usageHalfLifeMs: FAIRNESS_USAGE_HALF_LIFE_MS,
    nowMs: () => performance.now(),
    defer: (callback) => setImmediate(callback),
  });
  const dispatcher = new Dispatcher({
    registry: new HandlerRegistry(clientListenerHandlers(clientSasl)),
    services,
    observer: requestObserver(observation, 'client'),
    listenerName: 'client',
    authorizer: services.acls.authorizer,
    // Client quotas apply to clients; the internal listener serves the console and other brokers.
    quotas: services.quotas,
    auditor: options.auditor,
  });
  const clientListener = new Listener(
    {
      ...client,
      ...config.limits,
      heldRequestBytes: observation.heldRequestBytes,
      authenticator: clientAuthenticator,
      scheduler,
      tlsOptions: tlsForListener('client', client),
    },
    dispatcher,
    connectionEvents(observation, 'client'),
  );
  if (!internal.enabled) return { client: clientListener, internal: undefined };
  const internalDispatcher = new Dispatcher({
    registry: new HandlerRegistry(internalListenerHandlers()),
    services,
    observer: requestObserver(observation, 'internal'),
    listenerName: 'internal',
    authorizer: options.internalAuthorizer,
    auditor: options.auditor,
  });
  const authenticator = saslAuthenticator(
    [weirTokenMechanism(options.internalToken, internal.trustedCertificatePrincipals, options.clusterSecret)],
    authHooks,
  );
  const internalListener = new Listener(
    {
      ...internal,
      ...config.limits,
      heldRequestBytes: observation.heldRequestBytes,
      authenticator,
      scheduler,
      tlsOptions: tlsForListener('internal', internal),
    },
    internalDispatcher,
    connectionEvents(observation, 'internal'),
  );
  return { client: clientListener, internal: internalListener };
}

/** Binds every listener's port; connections wait until {@link openListeners}. */
export async function bindListeners(listeners: BrokerListeners): Promise<void> {
  await listeners.client.bind();
  await listeners.internal?.bind();
}

/** Serves every listener's connections, those that waited since the bind first. */
export function openListeners(listeners: BrokerListeners): void {
  listeners.client.open();
  listeners.internal?.open();
}

/**
 * This broker's registration once its listeners are bound: where clients of each listener reach
 * it (the advertised address, else the bound one), which Metadata and FindCoordinator answer.
 */
export function registrationOf(
  config: BrokerConfig,
  listeners: BrokerListeners,
  sessionId: string,
  nowMs: number,
): BrokerRegistration {
  const addressOf = (name: 'client' | 'internal', port: number): ListenerAddress => {
    const settings = config.listeners[name];
    return { host: settings.advertisedHost ?? settings.host, port: settings.advertisedPort ?? port };
  };
  return {
    brokerId: config.nodeId,
    rack: config.rack ?? null,
    listeners: {
      client: addressOf('client', listeners.client.port),
      internal: listeners.internal === undefined ? null : addressOf('internal', listeners.internal.port),
    },
    sessionId,
    registeredAtMs: nowMs,
  };
}

/** The listeners with their bound ports, for the overview. */
export function boundListeners(
  config: BrokerConfig,
  listeners: BrokerListeners,
): { name: string; host: string; port: number }[] {
  const bound = [{ name: 'client', host: config.listeners.client.host, port: listeners.client.port }];
  if (listeners.internal !== undefined) {
    bound.push({ name: 'internal', host: config.listeners.internal.host, port: listeners.internal.port });
  }
  return bound;
}

/** Open connections on every listener. */
export function openConnectionCount(listeners: BrokerListeners): number {
  return listeners.client.connectionCount + (listeners.internal?.connectionCount ?? 0);
}
